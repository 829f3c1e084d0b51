import { afterAll, describe, expect, it } from 'vitest';
import { decideContentFilter } from './content-filter.js';
import { expected, GitFixtures, withoutCounters } from './git-fixture.js';
import { findGradleIncludes, stripComments } from './gradle-script.js';

const fixtures = new GitFixtures();
afterAll(() => fixtures.cleanup());

const ALL_FILTERS = { require_single_manager: true, reject_docker: true, reject_monorepo: true } as const;

const pom = (body: string): string =>
  `<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n  <artifactId>demo</artifactId>\n${body}\n</project>\n`;

describe('monorepo signals', () => {
  it('maven <modules> (profiles included); module poms are nested build files', async () => {
    const facts = await fixtures.inspect({
      'pom.xml': pom(
        '  <packaging>pom</packaging>\n  <modules>\n    <module>core</module>\n    <module>api</module>\n  </modules>\n' +
          '  <profiles><profile><id>extra</id><modules><module>extras</module></modules></profile></profiles>',
      ),
      'core/pom.xml': pom(''),
      'api/pom.xml': pom(''),
    });
    expect(withoutCounters(facts)).toEqual(
      expected({
        managers: ['maven'],
        manager_files: ['maven:pom.xml'],
        jvm_managers: ['maven'],
        is_monorepo: true,
        monorepo_signals: ['maven-modules:core,api,extras', 'nested-jvm-build-files:api/pom.xml,core/pom.xml'],
        nested_build_files: ['api/pom.xml', 'core/pom.xml'],
      }),
    );
    expect(decideContentFilter(facts, { family: 'jvm', ...ALL_FILTERS })).toEqual({
      status: 'rejected',
      reason: 'monorepo',
      text: 'jvm monorepo signals: maven-modules:core,api,extras; nested-jvm-build-files:api/pom.xml,core/pom.xml',
    });
    // The paper keeps multi-module builds: without reject_monorepo the repository passes.
    expect(decideContentFilter(facts, { family: 'jvm', ...ALL_FILTERS, reject_monorepo: false })).toEqual({ status: 'accepted' });
  });

  it('gradle include, Groovy command syntax continued over lines', async () => {
    const facts = await fixtures.inspect({
      'settings.gradle': "rootProject.name = 'demo'\n// include 'commented-out'\ninclude ':app', ':lib',\n        ':cli'\nincludeBuild 'build-logic'\n",
    });
    expect(facts.monorepo_signals).toEqual(['gradle-include:app,lib,cli']);
    expect(facts.is_monorepo).toBe(true);
    expect(facts.managers).toEqual(['gradle']);
  });

  it('gradle include, Kotlin call syntax over several lines', async () => {
    const facts = await fixtures.inspect({
      'settings.gradle.kts': 'rootProject.name = "demo"\n/* include("old") */\ninclude(\n    ":core",\n    ":server:http"\n)\ninclude("web")\n',
    });
    expect(facts.monorepo_signals).toEqual(['gradle-include:core,server:http,web']);
    expect(decideContentFilter(facts, { family: 'jvm', ...ALL_FILTERS })).toEqual({
      status: 'rejected',
      reason: 'monorepo',
      text: 'jvm monorepo signals: gradle-include:core,server:http,web',
    });
  });

  it('npm workspaces, both the array and the { packages } form', async () => {
    const array = await fixtures.inspect({ 'package.json': JSON.stringify({ name: 'root', workspaces: ['packages/*', 'apps/web'] }) });
    expect(array.monorepo_signals).toEqual(['npm-workspaces:packages/*,apps/web']);
    const object = await fixtures.inspect({ 'package.json': JSON.stringify({ name: 'root', workspaces: { packages: ['libs/*'] } }) });
    expect(object.monorepo_signals).toEqual(['npm-workspaces:libs/*']);
  });

  it('pnpm-workspace.yaml', async () => {
    const facts = await fixtures.inspect({
      'package.json': '{"name": "root"}',
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
      'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  - '!**/test/**'\n",
    });
    expect(withoutCounters(facts)).toEqual(
      expected({
        managers: ['pnpm'],
        manager_files: ['pnpm:package.json', 'pnpm:pnpm-lock.yaml'],
        is_monorepo: true,
        monorepo_signals: ['pnpm-workspace:packages/*,!**/test/**'],
      }),
    );
  });

  it('js workspaces do not make a Python repository a monorepo for the python filter', async () => {
    const facts = await fixtures.inspect({
      'requirements.txt': 'django\n',
      'package.json': JSON.stringify({ name: 'frontend', workspaces: ['web'] }),
    });
    expect(facts.is_monorepo).toBe(true);
    expect(decideContentFilter(facts, { family: 'python', ...ALL_FILTERS })).toEqual({ status: 'accepted' });
  });

  it('nested build files count to nested_depth, skipping vendored, output and auxiliary dirs', async () => {
    const facts = await fixtures.inspect(
      {
        'pyproject.toml': '[project]\nname = "root"\n',
        'libs/alpha/pyproject.toml': '[project]\nname = "alpha"\n',
        'libs/beta/setup.py': 'from setuptools import setup\nsetup()\n',
        'libs/deep/er/still/setup.py': 'too deep for nested_depth 3\n',
        'web/package.json': '{"name": "web"}',
        'node_modules/left-pad/package.json': '{"name": "left-pad"}',
        'vendor/lib/setup.py': '',
        'build/lib/setup.py': '',
        'demo.egg-info/setup.py': '',
        'tests/fixtures/sample/pyproject.toml': '[project]\nname = "fixture"\n',
        'examples/plugin/setup.py': '',
        'docs/requirements.txt': 'sphinx\n',
      },
      { nested_depth: 3 },
    );
    expect(facts.nested_build_files).toEqual(['libs/alpha/pyproject.toml', 'libs/beta/setup.py', 'web/package.json']);
    expect(facts.nested_build_files_ignored).toEqual(['examples/plugin/setup.py', 'tests/fixtures/sample/pyproject.toml']);
    expect(facts.monorepo_signals).toEqual([
      'nested-python-build-files:libs/alpha/pyproject.toml,libs/beta/setup.py',
      'nested-js-build-files:web/package.json',
    ]);
    expect(decideContentFilter(facts, { family: 'python', ...ALL_FILTERS })).toEqual({
      status: 'rejected',
      reason: 'monorepo',
      text: 'python monorepo signals: nested-python-build-files:libs/alpha/pyproject.toml,libs/beta/setup.py',
    });
  });

  it('nested_depth 1 sees only the first directory level', async () => {
    const facts = await fixtures.inspect(
      { 'pom.xml': pom(''), 'core/pom.xml': pom(''), 'services/auth/pom.xml': pom('') },
      { nested_depth: 1, docker_depth: 0 },
    );
    expect(facts.nested_build_files).toEqual(['core/pom.xml']);
    expect(facts.monorepo_signals).toEqual(['nested-jvm-build-files:core/pom.xml']);
  });

  it('a fixture-only tree is not a monorepo', async () => {
    const facts = await fixtures.inspect({
      'build.gradle': "apply plugin: 'java'\n",
      'src/test/sample/build.gradle': '',
      'buildSrc/build.gradle.kts': 'plugins { `kotlin-dsl` }\n',
    });
    expect(facts.is_monorepo).toBe(false);
    expect(facts.nested_build_files).toEqual([]);
    expect(facts.nested_build_files_ignored).toEqual(['buildSrc/build.gradle.kts', 'src/test/sample/build.gradle']);
  });

  it('two managers of a family in the root: pip and poetry', async () => {
    const facts = await fixtures.inspect({
      'requirements.txt': 'requests\n',
      'pyproject.toml': '[tool.poetry]\nname = "demo"\n',
      'poetry.lock': '# lock\n',
    });
    expect(withoutCounters(facts)).toEqual(
      expected({
        managers: ['pip', 'poetry'],
        manager_files: ['pip:requirements.txt', 'poetry:pyproject.toml', 'poetry:poetry.lock'],
        python_managers: ['pip', 'poetry'],
        is_monorepo: true,
        monorepo_signals: ['multiple-python-managers:pip,poetry'],
      }),
    );
    expect(decideContentFilter(facts, { family: 'python', ...ALL_FILTERS })).toEqual({
      status: 'rejected',
      reason: 'multiple_dependency_managers',
      text: 'root declares pip (requirements.txt) and poetry (pyproject.toml, poetry.lock)',
    });
  });

  it('two managers of a family in the root: maven and gradle', async () => {
    const facts = await fixtures.inspect({ 'pom.xml': pom(''), 'build.gradle': "apply plugin: 'java'\n" });
    expect(facts.jvm_managers).toEqual(['maven', 'gradle']);
    expect(facts.monorepo_signals).toEqual(['multiple-jvm-managers:maven,gradle']);
    expect(decideContentFilter(facts, { family: 'jvm', ...ALL_FILTERS })).toEqual({
      status: 'rejected',
      reason: 'multiple_dependency_managers',
      text: 'root declares maven (pom.xml) and gradle (build.gradle)',
    });
  });
});

describe('gradle settings parsing', () => {
  it('keeps strings that look like comments', () => {
    expect(stripComments('url "https://x/*y"\n/* gone */ a // gone\nb')).toBe('url "https://x/*y"\n a \nb');
  });

  it('reports includes that name no literal project as dynamic', () => {
    expect(findGradleIncludes('file("modules").listFiles().forEach { include(it.name) }\n')).toEqual({ projects: [], dynamic: true });
  });

  it('ignores include used as a named argument or a method of another object', () => {
    expect(findGradleIncludes("fileTree(dir: 'libs', include: ['*.jar'])\nspec.include('x')\n")).toEqual({ projects: [], dynamic: false });
  });
});
