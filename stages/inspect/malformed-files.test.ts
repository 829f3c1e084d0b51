import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { decideContentFilter } from './content-filter.js';
import { expected, GitFixtures, TEST_OPTIONS, withoutCounters } from './git-fixture.js';
import { inspectRepository } from './inspect-repository.js';
import { Findings, RepoFiles } from './safe-files.js';

const fixtures = new GitFixtures();
afterAll(() => fixtures.cleanup());

const JVM = { family: 'jvm', require_single_manager: true, reject_docker: true, reject_monorepo: true } as const;
const FIFTY_MB = 50 * 1024 * 1024;

describe('malformed manifests are findings and still evidence by name', () => {
  it('bad TOML in pyproject.toml: reported with the parser message and line, counted as pip', async () => {
    const facts = await fixtures.inspect({ 'pyproject.toml': '[project]\nname = "demo"\nrequires-python = >=3.9\n' });
    expect(withoutCounters(facts)).toEqual(
      expected({
        managers: ['pip'],
        manager_files: ['pip:pyproject.toml'],
        python_managers: ['pip'],
        findings: [
          'pyproject.toml: invalid TOML: Unexpected character, expecting string, number, datetime, boolean, inline array or inline table (line 3)',
        ],
        malformed_files: ['pyproject.toml'],
      }),
    );
  });

  it('bad TOML that still shows a [tool.poetry] table counts as poetry, not pip', async () => {
    const facts = await fixtures.inspect({ 'pyproject.toml': '[tool.poetry]\nname = "demo"\nname = "again"\n' });
    expect(facts.managers).toEqual(['poetry']);
    expect(facts.findings).toEqual(["pyproject.toml: invalid TOML: Can't redefine existing key (line 3)"]);
  });

  it('bad XML in pom.xml: reported once although three detectors read it', async () => {
    const facts = await fixtures.inspect({
      'pom.xml': '<?xml version="1.0"?>\n<project>\n  <artifactId>demo</artifact>\n</project>\n',
    });
    expect(withoutCounters(facts)).toEqual(
      expected({
        managers: ['maven'],
        manager_files: ['maven:pom.xml'],
        jvm_managers: ['maven'],
        findings: ["pom.xml: invalid XML: Expected closing tag 'artifactId' (opened in line 3, col 3) instead of closing tag 'artifact'. (line 3)"],
        malformed_files: ['pom.xml'],
      }),
    );
    // The baseline stage, not this filter, finds out that the build cannot work.
    expect(decideContentFilter(facts, JVM)).toEqual({ status: 'accepted' });
  });

  it('binary junk named pom.xml', async () => {
    const junk = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff, 0x10, 0x00, 0x8a]);
    const facts = await fixtures.inspect({ 'pom.xml': junk });
    expect(facts.managers).toEqual(['maven']);
    expect(facts.findings).toEqual(['pom.xml: binary content (NUL bytes); not parsed']);
    expect(facts.malformed_files).toEqual(['pom.xml']);
  });

  it('invalid UTF-8 without NUL bytes', async () => {
    const facts = await fixtures.inspect({ 'setup.py': Buffer.from([0x73, 0x65, 0x74, 0xc3, 0x28, 0xff, 0x0a]) });
    expect(facts.managers).toEqual(['pip']);
    expect(facts.findings).toEqual(['setup.py: not valid UTF-8 text; not parsed']);
  });

  it('bad YAML in environment.yml and bad JSON in package.json', async () => {
    const facts = await fixtures.inspect({
      'environment.yml': 'name: demo\ndependencies:\n  - numpy\n - scipy: [\n',
      'package.json': '{\n  "name": "demo",\n}\n',
    });
    expect(facts.managers).toEqual(['conda', 'npm']);
    expect(facts.findings).toEqual([
      'environment.yml: invalid YAML: A block sequence may not be used as an implicit map key (line 4)',
      expect.stringMatching(/^package\.json: invalid JSON: /),
    ]);
    expect(facts.malformed_files).toEqual(['environment.yml', 'package.json']);
  });

  it('a 50 MB file over max_file_bytes is not read, and still counts by name', async () => {
    const root = await fixtures.repo({ 'pom.xml': { sparseBytes: FIFTY_MB }, 'README.md': '# big\n' });
    const before = process.memoryUsage().arrayBuffers;
    const facts = await inspectRepository(root, TEST_OPTIONS);
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(grown).toBeLessThan(16 * 1024 * 1024);
    expect(withoutCounters(facts)).toEqual(
      expected({
        managers: ['maven'],
        manager_files: ['maven:pom.xml'],
        jvm_managers: ['maven'],
        readme_path: 'README.md',
        setup_docs: ['README.md'],
        findings: [`pom.xml: ${FIFTY_MB} bytes exceeds max_file_bytes (1048576); not read`],
        malformed_files: ['pom.xml'],
      }),
    );
  });

  it('max_file_bytes is inclusive: a file of exactly the cap is read, one byte more is not', async () => {
    const root = await fixtures.repo({ 'a.txt': 'x'.repeat(100), 'b.txt': 'x'.repeat(101) });
    const findings = new Findings();
    const files = await RepoFiles.open(root, 100, findings);
    expect(await files.readText('a.txt')).toEqual({ ok: true, text: 'x'.repeat(100) });
    expect(await files.readText('b.txt')).toEqual({ ok: false, reason: 'too_large' });
    expect(findings.list()).toEqual(['b.txt: 101 bytes exceeds max_file_bytes (100); not read']);
  });
});

describe('symlinks never lead the stage out of the repository', () => {
  it('a symlink to /etc/passwd named requirements.txt is not read and not evidence', async () => {
    const facts = await fixtures.inspect({ 'requirements.txt': { symlink: '/etc/passwd' } });
    expect(withoutCounters(facts)).toEqual(
      expected({
        findings: ['requirements.txt: symlink leads outside the repository (-> /etc/passwd); not followed'],
        malformed_files: ['requirements.txt'],
      }),
    );
  });

  it('relative symlinks to a file beside the repository: manifest, README and Dockerfile', async () => {
    const facts = await fixtures.inspect({
      'setup.py': { symlink: '../outside.txt' },
      'README.md': { symlink: '../outside.txt' },
      'docker/Dockerfile': { symlink: '../../outside.txt' },
      'requirements.txt': 'flask\n',
    });
    expect(withoutCounters(facts)).toEqual(
      expected({
        managers: ['pip'],
        manager_files: ['pip:requirements.txt'],
        python_managers: ['pip'],
        findings: [
          'setup.py: symlink leads outside the repository (-> ../outside.txt); not followed',
          'docker/Dockerfile: symlink leads outside the repository (-> ../../outside.txt); not followed',
          'README.md: symlink leads outside the repository (-> ../outside.txt); not followed',
        ],
        malformed_files: ['setup.py', 'docker/Dockerfile', 'README.md'],
      }),
    );
  });

  it('a symlinked directory that escapes is not entered, even for a fixed nested path', async () => {
    const root = await fixtures.repo(
      { 'build.gradle': "apply plugin: 'java'\n", gradle: { symlink: '../shared-gradle' }, docs: { symlink: '/etc' } },
      { 'shared-gradle/wrapper/gradle-wrapper.properties': 'distributionUrl=https\\://x/gradle-8.0-bin.zip\n' },
    );
    const facts = await inspectRepository(root, TEST_OPTIONS);
    const escaped = path.join(await fs.realpath(path.dirname(root)), 'shared-gradle/wrapper/gradle-wrapper.properties');
    expect(facts.gradle_version).toBeNull();
    expect(facts.findings).toEqual([
      `gradle/wrapper/gradle-wrapper.properties: symlink leads outside the repository (-> ${escaped}); not followed`,
      'docs: symlink leads outside the repository (-> /etc); not followed',
    ]);
  });

  it('a symlink inside the repository is followed', async () => {
    const facts = await fixtures.inspect({ 'requirements/base.txt': 'flask\n', 'requirements.txt': { symlink: 'requirements/base.txt' } });
    expect(facts.manager_files).toEqual(['pip:requirements.txt']);
    expect(facts.findings).toEqual([]);
  });

  it('symlink loops: a file link cycle is a finding, a directory link to an ancestor is not walked', async () => {
    const facts = await fixtures.inspect({
      'pyproject.toml': { symlink: 'pyproject.toml' },
      'pom.xml': { symlink: 'mvn/pom.xml' },
      'mvn/pom.xml': { symlink: '../pom.xml' },
      'sub/setup.py': 'from setuptools import setup\nsetup()\n',
      'sub/loop': { symlink: '..' },
    });
    expect(withoutCounters(facts)).toEqual(
      expected({
        is_monorepo: true,
        monorepo_signals: ['nested-python-build-files:sub/setup.py'],
        nested_build_files: ['sub/setup.py'],
        findings: [
          'pyproject.toml: symlink loop; not followed',
          'pom.xml: symlink loop; not followed',
          'mvn/pom.xml: symlink loop; not followed',
        ],
        malformed_files: ['pyproject.toml', 'pom.xml', 'mvn/pom.xml'],
      }),
    );
  });
});

describe('bounds on the walk and on special files', () => {
  it('stops at max_entries and says so', async () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`d${String(i).padStart(2, '0')}/f.txt`, 'x']));
    const facts = await fixtures.inspect({ ...many, 'z/Dockerfile': 'FROM x\n' }, { max_entries: 20 });
    expect(facts.walk_truncated).toBe(true);
    expect(facts.entries_visited).toBe(20);
    expect(facts.has_docker).toBe(false);
    expect(facts.findings).toEqual(['(walk): stopped after 20 entries (max_entries 20); deeper build and Docker files may be missing']);
    expect(facts.malformed_files).toEqual([]);
  });

  it('a FIFO named like a manifest is reported, not read (a read would block forever)', async () => {
    const root = await fixtures.repo({ 'README.md': '# x\n' });
    await promisify(execFile)('mkfifo', [path.join(root, 'setup.py')]);
    const facts = await inspectRepository(root, TEST_OPTIONS);
    expect(facts.managers).toEqual([]);
    expect(facts.findings).toEqual(['setup.py: not a regular file; not read']);
  });

  it('throws only when the root itself is unusable', async () => {
    await expect(inspectRepository('/nonexistent/envforge-repo', TEST_OPTIONS)).rejects.toThrow(/ENOENT/);
    await expect(inspectRepository('.', { ...TEST_OPTIONS, max_file_bytes: -1 })).rejects.toThrow(/max_file_bytes/);
  });
});
