import type { ErrorType } from '../../../pipeline/config/schema.js';
import type { Rng } from './rng.js';
import { insertAfter, misspellings, replaceToken, tokenize, type Token } from './tokens.js';

/**
 * Mutation operators, one family per EnConda-Bench error type, each working on one parsed
 * shell step (E6 on two adjacent ones). An operator changes as little as it can — one word, one
 * flag, one path, one version, or the order of two lines — and says what it did, plus wrong
 * fixes a solver might plausibly choose (the distractors among the 4 correction candidates).
 *
 *   E1 dependency installation  a misspelled package name; an install forced offline (--no-index, mvn -o, --offline)
 *   E2 command usage / syntax   a misspelled subcommand, goal or task; an invalid flag; an invalid chmod mode
 *   E4 file path / missing file a wrong file or directory (yml/yaml, requirement(s).txt, venv/.venv, target/build, ...)
 *   E6 logical order            two dependent steps swapped (clone/cd, create/activate env, install tool/use it, ...)
 *   E7 version compatibility    an interpreter, JDK or package version that cannot work (Python 2.7, JDK 8, ancient pins)
 *   E8 other                    a misspelled environment variable; an HTTPS clone URL turned into SSH (no key in the sandbox)
 */

export interface StepView {
  index: number;
  line: number;
  column: number;
  /** The step's first line, exactly as in the document from `column`. */
  command: string;
  program: string;
  category: string;
  block: number;
}

export interface Mutation {
  type: ErrorType;
  operator: string;
  steps: StepView[];
  /** Fragments: the command(s) before and after (E6: two lines joined by \n). */
  original: string;
  injected: string;
  description: string;
  /** Wrong fixes specific to this mutation (candidates besides the golden answer). */
  wrongFixes: string[];
}

type Op = (s: StepView, rng: Rng) => Mutation | undefined;

const OPT_WITH_VALUE = new Set([
  '-r', '--requirement', '-c', '--constraint', '-e', '--editable', '-i', '--index-url', '--extra-index-url', '-f', '--find-links',
  '--file', '-t', '--target', '--python', '-p', '-n', '--name', '--prefix', '--channel', '--with', '--without', '--only', '-E',
  '--extras', '--group', '-G', '--dest', '-o', '--port', '-x', '--exclude-task', '-b', '--branch', '--depth', '-pl', '--projects',
  '-s', '--settings', '-P', '--profile', '--python-version',
]);

const INSTALL_SUBCOMMANDS: Record<string, string[]> = {
  pip: ['install'], pip3: ['install'], 'python -m pip': ['install'], 'python3 -m pip': ['install'], pipx: ['install'],
  conda: ['install', 'create'], mamba: ['install', 'create'], micromamba: ['install', 'create'], poetry: ['add'], pipenv: ['install'],
  uv: ['add', 'install'], apt: ['install'], 'apt-get': ['install'], brew: ['install'], yum: ['install'], dnf: ['install'],
  npm: ['install', 'i', 'add'], yarn: ['add'],
};

const FILE_EXT = /\.(txt|whl|toml|cfg|ya?ml|lock|json|xml|gradle|kts|py|sh|jar|zip|gz|tgz|md|ini|env)$/i;

interface Parsed {
  tokens: Token[];
  /** Index of the program's first token (after sudo / VAR=value). */
  prog: number;
  /** Index of the first token after the program (`python -m pip` is three tokens). */
  after: number;
}

function parse(command: string): Parsed {
  const tokens = tokenize(command);
  let prog = 0;
  while (prog < tokens.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(tokens[prog]!.text) || tokens[prog]!.text === 'sudo' || tokens[prog]!.text === 'env')) prog++;
  let after = prog + 1;
  if (/^python(?:3(?:\.\d+)?)?$|^py$/.test(tokens[prog]?.text ?? '') && tokens[prog + 1]?.text === '-m') after = prog + 3;
  if (tokens[prog]?.text === 'uv' && tokens[prog + 1]?.text === 'pip') after = prog + 2;
  return { tokens, prog, after };
}

/** Positional arguments (not options, not option values) from `from`, up to a shell operator. */
function positionals(p: Parsed, from: number): number[] {
  const out: number[] = [];
  for (let i = from; i < p.tokens.length; i++) {
    const t = p.tokens[i]!.text;
    if (/^(&&|\|\||;|\||>|>>|2>&1)$/.test(t)) break;
    if (t.startsWith('-')) {
      if (OPT_WITH_VALUE.has(t)) i++;
      continue;
    }
    out.push(i);
  }
  return out;
}

function subcommandIndex(p: Parsed): number | undefined {
  return positionals(p, p.after)[0];
}

function unquote(t: string): { inner: string; wrap: (s: string) => string } {
  const q = t[0];
  if ((q === '"' || q === "'") && t.endsWith(q) && t.length >= 2) return { inner: t.slice(1, -1), wrap: (s) => `${q}${s}${q}` };
  return { inner: t, wrap: (s) => s };
}

const mutation = (type: ErrorType, operator: string, s: StepView, injected: string, description: string, wrongFixes: string[]): Mutation | undefined =>
  injected === s.command ? undefined : { type, operator, steps: [s], original: s.command, injected, description, wrongFixes };

// ---------------------------------------------------------------- E1 dependency installation

const misspellPackage: Op = (s, rng) => {
  const subs = INSTALL_SUBCOMMANDS[s.program];
  if (!subs) return undefined;
  const p = parse(s.command);
  const pos = positionals(p, p.after);
  const sub = pos[0];
  if (sub === undefined || !subs.includes(p.tokens[sub]!.text)) return undefined;
  const names = pos.slice(1).flatMap((i) => {
    const t = p.tokens[i]!;
    const { inner, wrap } = unquote(t.text);
    const m = /^([A-Za-z][A-Za-z0-9._-]*[A-Za-z0-9])(\[[^\]]*\])?((?:[<>=!~]=?|@).*)?$/.exec(inner);
    if (!m || m[1]!.length < 4 || inner.includes('/') || FILE_EXT.test(inner)) return [];
    return [{ t, name: m[1]!, rest: inner.slice(m[1]!.length), wrap }];
  });
  if (names.length === 0) return undefined;
  const c = rng.pick(names);
  const typos = rng.shuffle(misspellings(c.name));
  const typo = typos[0];
  if (!typo) return undefined;
  const withName = (n: string) => replaceToken(s.command, c.t, c.wrap(n + c.rest));
  const injected = withName(typo);
  return mutation('E1', 'misspell_package', s, injected, `The package name "${c.name}" is misspelled as "${typo}", so the installer cannot find the package.`, [
    ...typos.slice(1, 2).map(withName),
    withName(c.name.toLowerCase().startsWith('python-') ? `${c.name}-lib` : `python-${c.name}`),
    insertAfter(injected, parse(injected).tokens[sub]!, '--upgrade'),
  ]);
};

const offlineInstall: Op = (s) => {
  const p = parse(s.command);
  const t = p.tokens;
  const prog = t[p.prog]?.text ?? '';
  const sub = subcommandIndex(p);
  let injected: string | undefined;
  let flag = '';
  let what = '';
  if (['pip', 'pip3', 'python -m pip', 'python3 -m pip'].includes(s.program) && sub !== undefined && t[sub]!.text === 'install' && !s.command.includes('--no-index')) {
    [flag, what] = ['--no-index', '"--no-index" forbids pip from downloading anything from the package index'];
    injected = insertAfter(s.command, t[sub]!, flag);
  } else if ((prog === 'mvn' || prog === './mvnw' || prog === 'mvnw') && !/\s(-o|--offline)\b/.test(s.command)) {
    [flag, what] = ['-o', '"-o" runs Maven offline, so dependencies missing from the local repository cannot be resolved'];
    injected = insertAfter(s.command, t[p.prog]!, flag);
  } else if (/^(\.\/)?gradlew?(\.bat)?$/.test(prog) && !s.command.includes('--offline') && positionals(p, p.after).length > 0) {
    [flag, what] = ['--offline', '"--offline" keeps Gradle from downloading dependencies that are not cached yet'];
    injected = insertAfter(s.command, t[p.prog]!, flag);
  } else if (['conda', 'mamba'].includes(s.program) && sub !== undefined && ['install', 'create'].includes(t[sub]!.text) && !s.command.includes('--offline')) {
    [flag, what] = ['--offline', '"--offline" keeps conda from downloading the packages'];
    injected = insertAfter(s.command, t[sub]!, flag);
  }
  if (!injected) return undefined;
  const more = flag === '--no-index' ? '--no-index --find-links .' : flag === '-o' ? '-o -U' : flag === '--offline' && s.program.startsWith('conda') ? '--offline -y' : '--offline --refresh-dependencies';
  return mutation('E1', 'offline_install', s, injected, `The install step now runs offline: ${what}, so dependency installation fails.`, [
    injected.replace(flag, `${flag} --upgrade`),
    injected.replace(flag, more),
  ]);
};

// ---------------------------------------------------------------- E2 command usage or syntax

const SUBCOMMAND_PROGRAMS = new Set([
  'pip', 'pip3', 'python -m pip', 'python3 -m pip', 'pipx', 'poetry', 'conda', 'mamba', 'micromamba', 'pipenv', 'uv', 'git', 'git clone',
  'npm', 'yarn', 'sdk', 'pyenv', 'pre-commit', 'brew', 'apt', 'apt-get', 'tox', 'make', 'docker', 'conda activate',
]);

const misspellSubcommand: Op = (s, rng) => {
  const p = parse(s.command);
  const prog = p.tokens[p.prog]?.text ?? '';
  const build = /^(\.\/)?(gradlew?|mvnw?)(\.bat|\.cmd)?$/.test(prog) || prog === 'mvn';
  if (!SUBCOMMAND_PROGRAMS.has(s.program) && !build) return undefined;
  const pos = positionals(p, p.after);
  const choices = (build ? pos : pos.slice(0, 1)).filter((i) => /^[a-z][A-Za-z:-]{2,}$/.test(p.tokens[i]!.text));
  if (choices.length === 0) return undefined;
  const i = rng.pick(choices);
  const word = p.tokens[i]!.text;
  // Misspell only the part after a plugin prefix (`spring-boot:run` → `spring-boot:rnu`).
  const colon = word.lastIndexOf(':');
  const head = word.slice(0, colon + 1);
  const typos = rng.shuffle(misspellings(word.slice(colon + 1))).map((t) => head + t);
  if (typos.length === 0) return undefined;
  const injected = replaceToken(s.command, p.tokens[i]!, typos[0]!);
  const kind = build ? (prog.includes('mvn') ? 'goal' : 'task') : 'subcommand';
  return mutation('E2', 'misspell_subcommand', s, injected, `The ${kind} "${word}" of ${prog} is misspelled as "${typos[0]}", which ${prog} does not know.`, [
    ...typos.slice(1, 3).map((t) => replaceToken(s.command, p.tokens[i]!, t)),
  ]);
};

/** Flags with an invalid look-alike, per tool family (the look-alike is rejected by the tool). */
const INVALID_FLAGS: [RegExp, Record<string, string[]>][] = [
  [/^(pip3?|python3? -m pip|uv|pipx)$/, { '-r': ['--requirements', '-R'], '--requirement': ['--requirements'], '-e': ['--editible', '-E'], '--editable': ['--editible'], '--upgrade': ['--upgrades'], '--user': ['--users'], '-U': ['-u'], '--no-cache-dir': ['--no-cache'], '--python': ['--pyhton'] }],
  [/^(conda|mamba|micromamba)$/, { '-f': ['--files'], '--file': ['--files'], '-n': ['--names'], '--name': ['--names'], '-c': ['--chanel'], '-y': ['--yess'] }],
  [/^poetry$/, { '--with': ['--with-group'], '--no-root': ['--noroot'], '--only': ['--only-group'] }],
  [/^pipenv$/, { '--dev': ['--devel'] }],
  [/^git( clone)?$/, { '--recursive': ['--recursively'], '--depth': ['--deep'], '--recurse-submodules': ['--recurse-submodule'] }],
  [/^(mvn|\.\/mvnw|mvnw)$/, { '-DskipTests': ['-skipTests'], '-B': ['--batchmode'] }],
  [/^(gradle|\.\/gradlew|gradlew)$/, { '--no-daemon': ['--nodaemon'], '--refresh-dependencies': ['--refresh-deps'], '-x': ['--exclude'] }],
  [/^python3? -m venv$/, { '-m': ['-M'] }],
];

const invalidFlag: Op = (s, rng) => {
  const table = INVALID_FLAGS.find(([re]) => re.test(s.program))?.[1];
  if (!table) return undefined;
  const p = parse(s.command);
  const flags = p.tokens.filter((t, i) => i >= p.prog && table[t.text]);
  if (flags.length === 0) return undefined;
  const t = rng.pick(flags);
  const looks = table[t.text]!;
  const injected = replaceToken(s.command, t, looks[0]!);
  const alt = looks[1] ? [replaceToken(s.command, t, looks[1])] : [];
  return mutation('E2', 'invalid_flag', s, injected, `The option "${t.text}" is written as "${looks[0]}", which ${p.tokens[p.prog]?.text ?? 'the command'} does not accept.`, [
    ...alt,
    replaceToken(s.command, t, t.text.startsWith('--') ? t.text.slice(1) : `-${t.text}`),
  ]);
};

const invalidChmod: Op = (s) => {
  const m = /^(chmod\s+)([ugoa]*)\+([rwx]+)(\s)/.exec(s.command);
  if (!m) return undefined;
  const injected = `${m[1]}${m[2]}${m[3]}+${s.command.slice(m[0].length - 1)}`;
  return mutation('E2', 'invalid_chmod_mode', s, injected, `The chmod mode "${m[2]}+${m[3]}" is written as "${m[2]}${m[3]}+", an invalid mode.`, [
    s.command.replace(`+${m[3]}`, `-${m[3]}`),
    s.command.replace(`+${m[3]}`, `=${m[3]}`).replace(/^chmod/, 'chown'),
  ]);
};

// ---------------------------------------------------------------- E4 file path

/** Wrong variants of a path, most plausible first. */
function wrongPaths(path: string, isCd: boolean): string[] {
  const out: string[] = [];
  const swap = (re: RegExp, by: string) => {
    if (re.test(path)) out.push(path.replace(re, by));
  };
  swap(/\.yml$/, '.yaml');
  swap(/\.yaml$/, '.yml');
  swap(/requirements([^/]*\.txt)$/, 'requirement$1');
  if (!/requirements/.test(path)) swap(/requirement([^/]*\.txt)$/, 'requirements$1');
  swap(/(^|\/)\.venv(\/|$)/, '$1venv$2');
  swap(/(^|\/)\.venv(\/|$)/, '$1env$2');
  if (!/\.venv/.test(path)) swap(/(^|\/)venv(\/|$)/, '$1.venv$2');
  swap(/\/bin\/activate$/, '/Scripts/activate');
  swap(/(^|\/)target\//, '$1build/');
  swap(/(^|\/)build\/libs\//, '$1target/');
  swap(/(^|\/)build\/install\//, '$1build/installs/');
  swap(/(^|\/)scripts\//, '$1script/');
  swap(/(^|\/)src\//, '$1source/');
  swap(/(^|\/)config\//, '$1conf/');
  swap(/-(\d+(?:\.\d+)+)(-SNAPSHOT)?\.jar$/, '.jar');
  if (path === '.') out.push('..', './src');
  if (isCd && /^[A-Za-z][\w.-]*$/.test(path)) {
    out.push(path[0]!.toUpperCase() + path.slice(1));
    if (path.includes('-')) out.push(path.replace(/-/g, '_'));
    else if (path.includes('_')) out.push(path.replace(/_/g, '-'));
    else out.push(`${path}-main`);
  }
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  if (stem.length >= 4 && /^[A-Za-z][A-Za-z_-]*[a-z]$/.test(stem)) {
    for (const m of misspellings(stem).slice(0, 2)) out.push(path.slice(0, path.length - base.length) + m + base.slice(stem.length));
  }
  return [...new Set(out)].filter((p) => p !== path);
}

const wrongPath: Op = (s, rng) => {
  const p = parse(s.command);
  const prog = p.tokens[p.prog]?.text ?? '';
  const isCd = prog === 'cd';
  const cands = p.tokens.flatMap((t, i) => {
    if (i <= p.prog && !(i === p.prog && /^\.{0,2}\//.test(t.text) && t.text.length > 2)) return [];
    const prev = p.tokens[i - 1]?.text ?? '';
    // `NAME=value`: the value is the path.
    const assign = /^([A-Za-z_][A-Za-z0-9_]*=)(.+)$/.exec(t.text);
    const q = unquote(assign ? assign[2]! : t.text);
    const inner = q.inner;
    const wrap = (x: string) => (assign ? assign[1]! : '') + q.wrap(x);
    if (inner.includes('://') || inner.startsWith('-') || inner.includes('$') || /^git@/.test(inner)) return [];
    const pathLike =
      inner.includes('/') || FILE_EXT.test(inner) || /^\.?venv$/.test(inner) || (inner === '.' && ['-e', '--editable', 'install'].includes(prev)) ||
      (isCd && i === p.prog + 1) || (['-r', '--requirement', '-f', '--file', '-c', '--constraint'].includes(prev) && !inner.startsWith('-'));
    if (!pathLike) return [];
    const wrong = wrongPaths(inner, isCd && i === p.prog + 1);
    return wrong.length ? [{ t, inner, wrap, wrong }] : [];
  });
  if (cands.length === 0) return undefined;
  const c = rng.pick(cands);
  const injected = replaceToken(s.command, c.t, c.wrap(c.wrong[0]!));
  const last = c.inner.replace(/\/$/, '').split('/').pop()!;
  const what =
    c.t === p.tokens[p.prog] ? 'script' : c.inner.endsWith('/') || isCd || /^\.?venv$|^\.\.?$/.test(c.inner) ? 'directory' : /\.[A-Za-z0-9]+$/.test(last) || last === 'activate' ? 'file' : 'path';
  return mutation('E4', 'wrong_path', s, injected, `The ${what === 'path' ? 'path' : `${what} path`} "${c.inner}" is replaced by "${c.wrong[0]}", which does not exist.`, [
    ...c.wrong.slice(1, 3).map((w) => replaceToken(s.command, c.t, c.wrap(w))),
  ]);
};

// ---------------------------------------------------------------- E7 version compatibility

const OLD_PINS: Record<string, string> = { poetry: '1.1.15', pip: '9.0.3', setuptools: '39.0.1', numpy: '1.16.6', django: '1.11.29', torch: '1.4.0', pandas: '0.25.3' };

function javaDowngrade(v: string): string | undefined {
  const m = /^(\d+)(.*)$/.exec(v);
  if (!m || Number(m[1]) <= 8) return undefined;
  return `8${m[2]!.replace(/^\.\d+\.\d+/, '.0.402')}`;
}

const incompatibleVersion: Op = (s, rng) => {
  const edits: { injected: string; what: string; alts: string[] }[] = [];
  const cmd = s.command;
  const add = (re: RegExp, repl: (m: RegExpExecArray) => string | undefined, what: (m: RegExpExecArray, r: string) => string, alts: (m: RegExpExecArray) => string[] = () => []) => {
    const m = re.exec(cmd);
    if (!m) return;
    const r = repl(m);
    if (!r || r === m[0]) return;
    const inject = (x: string) => cmd.slice(0, m.index) + x + cmd.slice(m.index + m[0].length);
    edits.push({ injected: inject(r), what: what(m, r), alts: alts(m).filter((a) => a !== m[0]).map(inject) });
  };
  // Interpreter versions: python=3.9 (conda), python3.10 -m venv, poetry env use python3.11, pyenv install 3.11.4, --python 3.11
  add(/\bpython(=|==)(3(?:\.\d+)*)\b/, (m) => `python${m[1]}2.7`, (m) => `Python ${m[2]} is replaced by Python 2.7, which the project does not support`, (m) => [`python${m[1]}3.5`, `python${m[1]}${m[2]}.0`]);
  add(/(?<![\w.-])python(3\.\d+)(?=\s|$)/, () => 'python2.7', (m) => `the interpreter python${m[1]} is replaced by python2.7, which cannot run the project's setup`, () => ['python3.5', 'python2']);
  add(/\b(pyenv\s+(?:install|local|global|shell)\s+)(3(?:\.\d+)+)\b/, (m) => `${m[1]}2.7.18`, (m) => `Python ${m[2]} is replaced by Python 2.7.18`, (m) => [`${m[1]}3.5.10`, `${m[1]}3.6`]);
  add(/(--python(?:-version)?[ =])(3(?:\.\d+)*)\b/, (m) => `${m[1]}2.7`, (m) => `Python ${m[2]} is replaced by Python 2.7`, (m) => [`${m[1]}3.5`, `${m[1]}3`]);
  // JDKs: sdk install java 17.0.10-tem, openjdk-17-jdk
  add(/\b(sdk\s+(?:install|use|default)\s+java\s+)(\d+[\w.-]*)/, (m) => { const d = javaDowngrade(m[2]!); return d ? m[1] + d : undefined; }, (m, r) => `JDK ${m[2]} is replaced by JDK ${r.split(/\s+/).pop()}, older than the project's Java release`, (m) => [`${m[1]}11.0.22-tem`, `${m[1]}${m[2]!.replace(/-\w+$/, '')}-zulu`]);
  add(/\bopenjdk-(\d+)-jdk\b/, (m) => (Number(m[1]) > 8 ? 'openjdk-8-jdk' : undefined), (m) => `openjdk-${m[1]}-jdk is replaced by openjdk-8-jdk, older than the project's Java release`, () => ['openjdk-11-jdk', 'openjdk-8-jre']);
  // Pinned packages: pkg==1.2.3 → an ancient release
  add(/\b([A-Za-z][\w.-]*)==(\d+(?:\.\d+)*)\b/, (m) => {
    if (/^python$/i.test(m[1]!)) return undefined;
    const old = OLD_PINS[m[1]!.toLowerCase()] ?? `${Math.max(0, Number(m[2]!.split('.')[0]) - 1)}.0.0`;
    return old === m[2] ? undefined : `${m[1]}==${old}`;
  }, (m, r) => `${m[1]} ${m[2]} is pinned to ${r.split('==')[1]}, a release incompatible with the project`, (m) => [`${m[1]}==${m[2]}.post0`, `${m[1]}<${m[2]}`]);
  // No version written: an interpreter or compiler release that cannot work.
  add(/^(python3?|py)(\s+-m\s+venv\b)/, (m) => `python2${m[2]}`, () => 'the environment is created with python2, which has no venv module and is incompatible with the project', (m) => [`python3.5${m[2]}`, `python2.7${m[2]}`]);
  add(/^((?:\.\/)?mvnw?\s.*)$/, (m) => (/maven\.compiler\.release/.test(m[1]!) ? undefined : `${m[1]} -Dmaven.compiler.release=7`), () => 'Maven is told to compile for Java 7, a release the JDK no longer supports', (m) => [`${m[1]} -Dmaven.compiler.release=8`, `${m[1]} -Dmaven.compiler.source=7`]);
  add(/^(conda|mamba)(\s+create\s+(?!.*\bpython[=\s]).*)$/, (m) => `${m[1]}${m[2]} python=2.7`, () => 'the environment is created with Python 2.7, which the project does not support', (m) => [`${m[1]}${m[2]} python=3.5`, `${m[1]}${m[2]} python=2`]);
  if (edits.length === 0) return undefined;
  const e = rng.pick(edits);
  return mutation('E7', 'incompatible_version', s, e.injected, `${e.what[0]!.toUpperCase()}${e.what.slice(1)}.`, e.alts);
};

// ---------------------------------------------------------------- E8 other

const misspellEnvVar: Op = (s, rng) => {
  const m = /^(?:export\s+|set\s+|setx\s+|\$env:)?([A-Z][A-Z0-9_]{3,})(=)/.exec(s.command) ?? /(?:^|\s)([A-Z][A-Z0-9_]{3,})=\S/.exec(s.command);
  const name = m?.[1];
  if (!m || !name) return undefined;
  const variants = [
    ...[...name.matchAll(/_/g)].map((u) => name.slice(0, u.index) + name.slice(u.index + 1)),
    ...misspellings(name).filter((v) => /^[A-Z0-9_]+$/.test(v)),
  ];
  if (variants.length === 0) return undefined;
  const chosen = rng.shuffle([...new Set(variants)]);
  const at = s.command.indexOf(name, m.index);
  const put = (v: string) => s.command.slice(0, at) + v + s.command.slice(at + name.length);
  return mutation('E8', 'misspell_env_var', s, put(chosen[0]!), `The environment variable "${name}" is set as "${chosen[0]}", a name nothing reads.`, chosen.slice(1, 3).map(put));
};

const sshCloneUrl: Op = (s) => {
  const m = /https:\/\/(github\.com|gitlab\.com|bitbucket\.org)\/([\w.-]+)\/([\w.-]+?)(\.git)?(?=\s|$)/.exec(s.command);
  if (!m || s.program !== 'git clone') return undefined;
  const ssh = `git@${m[1]}:${m[2]}/${m[3]}.git`;
  const put = (u: string) => s.command.slice(0, m.index) + u + s.command.slice(m.index + m[0].length);
  return mutation('E8', 'ssh_clone_url', s, put(ssh), `The HTTPS clone URL is replaced by the SSH URL ${ssh}, which needs an SSH key the environment does not have.`, [
    put(`ssh://git@${m[1]}/${m[2]}/${m[3]}.git`),
    put(`https://${m[1]}/${m[2]}/${m[3]}.git`.replace(`/${m[2]}/`, `/${m[3]}/`)),
  ]);
};

const misspellVarReference: Op = (s, rng) => {
  const refs = [...s.command.matchAll(/\$\{?([A-Z][A-Z0-9_]{3,})\}?/g)].filter((r) => !['HOME', 'PATH', 'USER', 'PWD'].includes(r[1]!));
  if (refs.length === 0) return undefined;
  const r = rng.pick(refs);
  const name = r[1]!;
  const variants = [...name.matchAll(/_/g)].map((u) => name.slice(0, u.index) + name.slice(u.index + 1)).concat(misspellings(name).filter((v) => /^[A-Z0-9_]+$/.test(v)));
  if (variants.length === 0) return undefined;
  const at = r.index + r[0].indexOf(name);
  const put = (v: string) => s.command.slice(0, at) + v + s.command.slice(at + name.length);
  const chosen = rng.shuffle([...new Set(variants)]);
  return mutation('E8', 'misspell_env_reference', s, put(chosen[0]!), `The command reads "$${chosen[0]}" instead of "$${name}", a variable that is not set.`, chosen.slice(1, 3).map(put));
};

// ---------------------------------------------------------------- E6 logical order

/** How strongly step b depends on step a (0: no known dependency). */
export function dependency(a: StepView, b: StepView): number {
  const ac = a.command;
  const bc = b.command;
  if (a.program === 'git clone' && b.program === 'cd') return 3;
  if (/(-m\s+venv|virtualenv|conda\s+create|conda\s+env\s+create|mamba\s+create|poetry\s+env\s+use|uv\s+venv)\b/.test(ac) && /^(source|\.|conda activate|workon)$/.test(b.program)) return 3;
  if (/^(source|\.|conda activate)$/.test(a.program) && (b.category === 'install' || b.category === 'build' || b.category === 'run')) return 2;
  const installed = /\b(?:pipx?|pip3|brew|sdk)\s+install\s+(?:-\S+\s+)*([A-Za-z][\w-]*)/.exec(ac)?.[1];
  if (installed && !/^(pip3?|setuptools|wheel)$/.test(installed) && new RegExp(`(^|\\s|/)${installed}(\\s|$)`).test(bc)) return 3;
  if (a.program === 'cd') return 1;
  if (/^chmod\s/.test(ac) && bc.startsWith('./')) return 3;
  const exported = /^export\s+([A-Z_][A-Z0-9_]*)=/.exec(ac)?.[1];
  if (exported && bc.includes(`$${exported}`)) return 3;
  if ((a.category === 'install' || a.category === 'build') && b.category === 'run') return 2;
  if (a.category === 'install' && b.category === 'install' && /requirements|-e\s+\.|install\s+\./.test(bc)) return 1;
  return 0;
}

export function swapSteps(a: StepView, b: StepView): Mutation {
  return {
    type: 'E6',
    operator: 'swap_dependent_steps',
    steps: [a, b],
    original: `${a.command}\n${b.command}`,
    injected: `${b.command}\n${a.command}`,
    description: `"${b.command}" now runs before "${a.command}", which it depends on.`,
    wrongFixes: [`${b.command} && ${a.command}`, a.command, b.command],
  };
}

export const OPERATORS: Record<Exclude<ErrorType, 'E6'>, Op[]> = {
  E1: [misspellPackage, offlineInstall],
  E2: [misspellSubcommand, invalidFlag, invalidChmod],
  E4: [wrongPath],
  E7: [incompatibleVersion],
  E8: [misspellEnvVar, sshCloneUrl, misspellVarReference],
};
