import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractDoc, formatOf, setupSteps } from './extract.js';
import { parseRst } from './parse-rst.js';
import { categoryOf, isShellBlock, programOf } from './shell-steps.js';

const fixture = (name: string) => readFileSync(resolve('test/fixtures/readmes', name), 'utf8');
const brief = (name: string) => {
  const d = extractDoc(name, fixture(name));
  return {
    d,
    blocks: d.blocks.map((b) => [b.kind, b.tag, b.start_line, b.end_line, b.code_start_line, b.code_end_line, b.shell]),
    steps: d.steps.map((s) => [s.line, s.column, s.source, s.text]),
  };
};

describe('markdown READMEs (micromark positions)', () => {
  it('pip: sections, fenced blocks with exact line ranges and language tags, one step per command line', () => {
    const { d, blocks, steps } = brief('pip.md');
    expect(d.format).toBe('markdown');
    expect(d.lines).toBe(47);
    expect(d.headings.map((h) => [h.title, h.level, h.start_line, h.end_line])).toEqual([
      ['weatherkit', 1, 1, 47],
      ['Requirements', 2, 7, 11],
      ['Installation', 2, 12, 37],
      ['Usage', 2, 38, 44],
      ['License', 2, 45, 47],
    ]);
    expect(d.setup_sections.map((s) => s.title)).toEqual(['Requirements', 'Installation']);
    expect(blocks).toEqual([
      ['fenced', 'bash', 16, 21, 17, 20, true],
      ['fenced', 'bash', 25, 29, 26, 28, true],
      ['fenced', 'bash', 33, 36, 34, 35, true],
      ['fenced', 'python', 40, 43, 41, 42, false],
    ]);
    expect(steps).toEqual([
      [17, 0, 'block', 'git clone https://github.com/acme/weatherkit.git'],
      [18, 0, 'block', 'cd weatherkit'],
      [19, 0, 'block', 'python3.10 -m venv .venv'],
      [20, 0, 'block', 'source .venv/bin/activate'],
      [26, 0, 'block', 'pip install --upgrade pip'],
      [27, 0, 'block', 'pip install -r requirements.txt'],
      [28, 0, 'block', 'pip install -e .'],
      [34, 0, 'block', 'export WEATHERKIT_API_KEY=your-key-here'],
      [35, 0, 'block', 'pytest tests/'],
    ]);
    const lines = fixture('pip.md').split('\n');
    for (const s of d.steps) expect(lines[s.line - 1]!.slice(s.column)).toBe(s.text);
    expect(setupSteps(d)).toHaveLength(8); // pytest runs, it does not set up
  });

  it('poetry: blocks inside a numbered list keep their real lines and columns; console prompts and output', () => {
    const { blocks, steps } = brief('poetry.md');
    expect(blocks).toEqual([
      ['fenced', 'sh', 11, 13, 12, 12, true],
      ['fenced', 'sh', 17, 22, 18, 21, true],
      ['fenced', 'console', 26, 31, 27, 30, true],
    ]);
    expect(steps).toEqual([
      [12, 3, 'block', 'pipx install poetry==1.8.3'],
      [18, 3, 'block', 'git clone https://github.com/ledgerly/ledgerly.git'],
      [19, 3, 'block', 'cd ledgerly'],
      [20, 3, 'block', 'poetry env use python3.11'],
      [21, 3, 'block', 'poetry install --with dev'],
      [27, 5, 'block', 'poetry run alembic upgrade head'],
      [28, 5, 'block', 'export LEDGERLY_CONFIG=config/local.toml'],
      [29, 5, 'block', 'poetry run ledgerly serve --port 8000'],
    ]);
  });

  it('maven: inline code in a setup section is a step, with its column', () => {
    const { d, steps } = brief('maven.md');
    expect(steps[0]).toEqual([7, 37, 'inline', 'sdk install java 17.0.10-tem']);
    expect(d.steps[0]!.section).toBe('Prerequisites');
    expect(d.steps.map((s) => s.program)).toEqual(['sdk', 'git clone', 'cd', 'mvn', 'export', 'java']);
  });

  it('indented code, unclosed fences, tildes, block quotes and CRLF', () => {
    const text = ['# t', '', '## Install', '', '    pip install x', '', '> ```sh', '> make install', '> ```', '', '~~~', 'poetry install', ''].join('\r\n');
    const d = extractDoc('README.md', text);
    expect(d.blocks.map((b) => [b.kind, b.start_line, b.end_line, b.code_start_line, b.code_end_line])).toEqual([
      ['indented', 5, 5, 5, 5],
      ['fenced', 7, 9, 8, 8],
      ['fenced', 11, 12, 12, 12],
    ]);
    expect(d.steps.map((s) => [s.line, s.column, s.text])).toEqual([
      [5, 4, 'pip install x'],
      [8, 2, 'make install'],
      [12, 0, 'poetry install'],
    ]);
  });

  it('backslash continuations make one step over several lines; comments are not steps', () => {
    const d = extractDoc('README.md', '```bash\n# deps\npip install \\\n    numpy \\\n    scipy\npython -m app\n```\n');
    expect(d.steps.map((s) => [s.line, s.end_line, s.text])).toEqual([
      [3, 5, 'pip install \\\nnumpy \\\nscipy'],
      [6, 6, 'python -m app'],
    ]);
  });
});

describe('reStructuredText READMEs (own parser)', () => {
  it('titles with over/underlines and levels, code-block directives with options, :: literal blocks, highlight, inline literals', () => {
    const { d, blocks, steps } = brief('pip.rst');
    expect(d.format).toBe('rst');
    expect(d.headings.map((h) => [h.title, h.level, h.line, h.end_line])).toEqual([
      ['rstpkg', 1, 2, 41],
      ['Installation', 2, 7, 41],
      ['Development', 3, 32, 41],
    ]);
    expect(blocks).toEqual([
      ['literal', '', 12, 12, 12, 12, true],
      ['directive', 'bash', 16, 23, 19, 23, true],
      ['literal', '', 29, 30, 29, 30, true],
      ['literal', '', 41, 41, 41, 41, true],
    ]);
    expect(d.blocks[2]!.lang).toBe('console'); // from `.. highlight:: console`
    expect(d.blocks[1]!.code).toBe('git clone https://github.com/rst/rstpkg.git\ncd rstpkg\npython -m venv venv\n. venv/bin/activate\npip install -r requirements/dev.txt');
    expect(steps).toEqual([
      [12, 4, 'block', 'pip install rstpkg'],
      [19, 3, 'block', 'git clone https://github.com/rst/rstpkg.git'],
      [20, 3, 'block', 'cd rstpkg'],
      [21, 3, 'block', 'python -m venv venv'],
      [22, 3, 'block', '. venv/bin/activate'],
      [23, 3, 'block', 'pip install -r requirements/dev.txt'],
      [27, 26, 'inline', 'tox -e py311'],
      [29, 6, 'block', 'tox -e py311'],
      [35, 6, 'inline', 'pre-commit install'],
      [41, 6, 'block', 'venv\\Scripts\\activate'],
    ]);
  });

  it('a lone :: paragraph, a directive without content, nested literal blocks end at the dedent', () => {
    const text = [
      'Setup', // 1
      '-----', // 2
      '', // 3
      '::', // 4
      '', // 5
      '  pip install a', // 6
      '', // 7
      '  pip install b', // 8
      'back to text', // 9
      '', // 10
      '.. code-block:: shell', // 11
      '', // 12
      'not content', // 13
      '', // 14
      '.. code:: bash', // 15
      '', // 16
      '    make', // 17
    ].join('\n');
    const p = parseRst(text);
    expect(p.blocks.map((b) => [b.kind, b.start_line, b.end_line, b.code])).toEqual([
      ['literal', 6, 8, 'pip install a\n\npip install b'],
      ['directive', 15, 17, 'make'],
    ]);
    expect(p.headings).toEqual([{ title: 'Setup', level: 1, line: 1 }]);
  });
});

describe('AsciiDoc, Org and text', () => {
  it('reads [source,bash] listings, #+BEGIN_SRC blocks and indented text blocks', () => {
    const adoc = extractDoc('README.adoc', '= Tool\n\n== Installation\n\n[source,bash]\n----\npip install tool\n----\n');
    expect(adoc.blocks.map((b) => [b.tag, b.start_line, b.end_line, b.code_start_line, b.code_end_line])).toEqual([['bash', 5, 8, 7, 7]]);
    expect(adoc.steps.map((s) => s.text)).toEqual(['pip install tool']);
    const org = extractDoc('README.org', '* Install\n#+BEGIN_SRC sh\n  ./gradlew build\n#+END_SRC\n');
    expect(org.steps.map((s) => [s.line, s.column, s.text])).toEqual([[3, 2, './gradlew build']]);
    const txt = extractDoc('INSTALL', 'Install\n=======\n\nRun:\n\n    mvn package\n');
    expect(txt.steps.map((s) => [s.line, s.column, s.text, s.in_setup_section])).toEqual([[6, 4, 'mvn package', true]]);
  });
});

describe('shell classification', () => {
  it('knows formats, programs and categories', () => {
    expect(['README.md', 'README.rst', 'README.adoc', 'README.org', 'README.txt', 'INSTALL'].map(formatOf)).toEqual(['markdown', 'rst', 'asciidoc', 'org', 'text', 'text']);
    expect(programOf('python3 -m pip install x')).toBe('python3 -m pip');
    expect(programOf('sudo apt-get install -y git')).toBe('apt-get');
    expect(programOf('FOO=1 ./gradlew build')).toBe('./gradlew');
    expect(categoryOf('poetry run pytest')).toBe('run');
    expect(categoryOf('poetry install')).toBe('install');
    expect(categoryOf('make test')).toBe('run');
    expect(isShellBlock({ lang: '', code: 'mvn package' })).toBe(true);
    expect(isShellBlock({ lang: 'text', code: 'Hello world' })).toBe(false);
    expect(isShellBlock({ lang: '', code: '>>> import x' })).toBe(false);
    expect(isShellBlock({ lang: 'python', code: 'pip install x' })).toBe(false);
  });
});
