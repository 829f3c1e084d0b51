import type { CodeBlock, InlineCode, ShellStep, StepCategory } from './doc-model.js';

/**
 * Shell steps: which code blocks hold shell commands, and the commands in them. A block is shell
 * when its language says so, or when it is untagged (or tagged as plain text) and its first
 * command is a known program. In a console block with prompts (`$ `, `% `, `(venv) $ `), lines
 * without a prompt are output and not steps. Backslash continuations make one step over several
 * lines. Inline code counts as a step when it reads as a setup command (`pip install -e .`).
 */

export const SHELL_LANGS = new Set([
  'bash', 'sh', 'shell', 'zsh', 'fish', 'ksh', 'console', 'shell-session', 'shellsession', 'sh-session',
  'terminal', 'cmd', 'bat', 'batch', 'powershell', 'ps1', 'pwsh', 'ps',
]);
/** Tags that say nothing about the content: decided by content. */
const NEUTRAL_LANGS = new Set(['', 'text', 'txt', 'none', 'plain', 'plaintext', 'default']);

const CATEGORY: Record<string, StepCategory> = {
  pip: 'install', pip3: 'install', 'python -m pip': 'install', 'python3 -m pip': 'install', poetry: 'install', conda: 'install',
  mamba: 'install', micromamba: 'install', uv: 'install', pipenv: 'install', pipx: 'install', 'apt-get': 'install', apt: 'install',
  yum: 'install', dnf: 'install', brew: 'install', npm: 'install', yarn: 'install', pnpm: 'install', sdk: 'install', pyenv: 'install',
  'python setup.py': 'install', 'python3 setup.py': 'install', 'pre-commit': 'install', choco: 'install', winget: 'install',
  virtualenv: 'environment', 'python -m venv': 'environment', 'python3 -m venv': 'environment', source: 'environment', '.': 'environment',
  export: 'environment', set: 'environment', 'conda activate': 'environment', workon: 'environment', cd: 'environment', mkdir: 'environment',
  mvn: 'build', './mvnw': 'build', mvnw: 'build', 'mvnw.cmd': 'build', gradle: 'build', './gradlew': 'build', gradlew: 'build',
  'gradlew.bat': 'build', make: 'build', cmake: 'build', ant: 'build', sbt: 'build', tox: 'build', nox: 'build', javac: 'build',
  'docker build': 'build', chmod: 'environment',
  git: 'fetch', curl: 'fetch', wget: 'fetch', 'git clone': 'fetch', tar: 'fetch', unzip: 'fetch',
  python: 'run', python3: 'run', py: 'run', java: 'run', pytest: 'run', jupyter: 'run', docker: 'run', 'docker-compose': 'run',
  node: 'run', npx: 'run', streamlit: 'run', flask: 'run', uvicorn: 'run', gunicorn: 'run', echo: 'other', cp: 'environment',
  mv: 'other', ln: 'other', ls: 'other', cat: 'other', sudo: 'install',
};

/** A shell prompt before a command: `$ `, `% `, `(venv) $ `, `user@host:~/app$ `, `C:\> `, `PS C:\> `. */
const PROMPT = /^(?:\([\w.-]+\)\s*)?(?:[\w.@~:/\\-]*[$%>]|PS [^>]*>)\s+(?=\S)/;

export function isShellBlock(block: Pick<CodeBlock, 'lang' | 'code'>): boolean {
  const lang = block.lang.split(/[\s{,]/)[0] ?? '';
  if (SHELL_LANGS.has(lang)) return true;
  if (!NEUTRAL_LANGS.has(lang)) return false;
  const first = block.code.split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('#'));
  if (!first) return false;
  const cmd = first.replace(PROMPT, '');
  return programOf(cmd) in CATEGORY && !/^(python3?|py)\s*$/.test(cmd) && !/^(?:>>>|\.\.\.)/.test(first);
}

/** The program of a command: `pip`, `python -m pip`, `./gradlew`, `git clone` ... ('' when none). */
export function programOf(command: string): string {
  const words = command.trim().replace(/^(?:sudo\s+(?:-\S+\s+)*|env\s+(?:\w+=\S*\s+)*|(?:[A-Z_][A-Z0-9_]*=\S*\s+)+)/, '').split(/\s+/);
  const [w0 = '', w1 = '', w2 = ''] = words;
  if (/^python(?:3(?:\.\d+)?)?$|^py$/.test(w0) && w1 === '-m' && w2) {
    const full = `${w0 === 'python' || w0 === 'py' ? 'python' : 'python3'} -m ${w2}`;
    return full in CATEGORY ? full : w0;
  }
  if (/^python(?:3(?:\.\d+)?)?$/.test(w0) && w1 === 'setup.py') return w0 === 'python' ? 'python setup.py' : 'python3 setup.py';
  if (w0 === 'git' && w1 === 'clone') return 'git clone';
  if (w0 === 'conda' && (w1 === 'activate' || w1 === 'deactivate')) return 'conda activate';
  if (w0 === 'docker' && w1 === 'build') return 'docker build';
  if (/^pip\d(?:\.\d+)?$/.test(w0)) return 'pip3';
  if (/^python\d(?:\.\d+)?$/.test(w0)) return 'python3';
  return w0;
}

export function categoryOf(command: string): StepCategory {
  const p = programOf(command);
  const c = CATEGORY[p];
  if (!c) return 'other';
  if (p === 'make') return /\b(install|build|setup|deps|dev|env|venv|init|all)\b/.test(command) || command.trim() === 'make' ? 'build' : 'run';
  if (p === 'npm' || p === 'yarn' || p === 'pnpm') return /\b(install|ci|add|i)\b/.test(command) ? 'install' : 'run';
  if (p === 'poetry') return /\bpoetry\s+(run|shell)\b/.test(command) ? 'run' : 'install';
  if (p === 'pipenv') return /\bpipenv\s+(run|shell)\b/.test(command) ? 'run' : 'install';
  if (p === 'uv') return /\buv\s+run\b/.test(command) ? 'run' : 'install';
  return c;
}

export function isSetupCategory(c: StepCategory): boolean {
  return c === 'install' || c === 'environment' || c === 'build' || c === 'fetch';
}

/** The steps of one shell block. `lines` are the document's lines (for exact columns). */
export function blockSteps(block: CodeBlock, blockIndex: number, lines: readonly string[]): Omit<ShellStep, 'index'>[] {
  const steps: Omit<ShellStep, 'index'>[] = [];
  const codeLines = block.code.split('\n');
  const hasPrompts = codeLines.some((l) => PROMPT.test(l.trim()));
  let pending: { line: number; column: number; parts: string[]; endLine: number } | undefined;
  const flush = () => {
    if (!pending) return;
    const text = pending.parts.join('\n');
    steps.push({
      doc: block.doc,
      line: pending.line,
      end_line: pending.endLine,
      column: pending.column,
      text,
      program: programOf(text),
      category: categoryOf(text),
      source: 'block',
      block: blockIndex,
      section: block.section,
      in_setup_section: block.in_setup_section,
    });
    pending = undefined;
  };
  codeLines.forEach((content, k) => {
    const lineNo = block.code_start_line + k;
    const docLine = lines[lineNo - 1] ?? content;
    if (pending) {
      // A continuation line, without its indentation.
      pending.parts.push(docLine.trim());
      pending.endLine = lineNo;
      if (!/\\\s*$/.test(content)) flush();
      return;
    }
    const trimmed = content.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('REM ') || trimmed.startsWith('::')) return;
    let command = trimmed;
    if (hasPrompts) {
      const m = PROMPT.exec(trimmed);
      if (!m) return; // output of the previous command
      command = trimmed.slice(m[0].length);
      if (command.startsWith('#')) return;
    }
    const column = docLine.indexOf(command);
    pending = { line: lineNo, column: column === -1 ? 0 : column, parts: [command.trimEnd()], endLine: lineNo };
    if (!/\\\s*$/.test(command)) flush();
  });
  flush();
  return steps;
}

/** Inline code that is a command worth counting: a known program, setup category, more than one word. */
export function inlineStep(code: InlineCode, doc: string, section: string, inSetupSection: boolean): Omit<ShellStep, 'index'> | undefined {
  const text = code.code.trim().replace(PROMPT, '');
  if (!/\s/.test(text)) return undefined;
  const category = categoryOf(text);
  if (!isSetupCategory(category) && !(inSetupSection && category === 'run')) return undefined;
  const column = code.column + code.code.indexOf(text);
  return { doc, line: code.line, end_line: code.line, column, text, program: programOf(text), category, source: 'inline', block: -1, section, in_setup_section: inSetupSection };
}
