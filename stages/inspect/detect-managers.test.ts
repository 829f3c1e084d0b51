import { afterAll, describe, expect, it } from 'vitest';
import { decideContentFilter } from './content-filter.js';
import { expected, GitFixtures, withoutCounters, type FixtureFile } from './git-fixture.js';

const fixtures = new GitFixtures();
afterAll(() => fixtures.cleanup());

const SINGLE = { require_single_manager: true, reject_docker: true, reject_monorepo: true } as const;

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example</groupId>
  <artifactId>demo</artifactId>
  <version>1.0</version>
</project>
`;

interface Case {
  name: string;
  files: Record<string, FixtureFile>;
  managers: string[];
  manager_files: string[];
  python_managers?: string[];
  jvm_managers?: string[];
}

const cases: Case[] = [
  {
    name: 'pip: requirements.txt',
    files: { 'requirements.txt': 'requests==2.31.0\n' },
    managers: ['pip'],
    manager_files: ['pip:requirements.txt'],
    python_managers: ['pip'],
  },
  {
    name: 'pip: every root *requirements*.txt, as EnvBench installs them all',
    files: { 'requirements.txt': 'flask\n', 'dev-requirements.txt': 'pytest\n', 'requirements-docs.txt': 'sphinx\n' },
    managers: ['pip'],
    manager_files: ['pip:dev-requirements.txt', 'pip:requirements-docs.txt', 'pip:requirements.txt'],
    python_managers: ['pip'],
  },
  {
    name: 'pip: setup.py',
    files: { 'setup.py': 'from setuptools import setup\nsetup(name="demo")\n' },
    managers: ['pip'],
    manager_files: ['pip:setup.py'],
    python_managers: ['pip'],
  },
  {
    name: 'pip: declarative setup.cfg',
    files: { 'setup.cfg': '[metadata]\nname = demo\n\n[options]\npackages = find:\n' },
    managers: ['pip'],
    manager_files: ['pip:setup.cfg'],
    python_managers: ['pip'],
  },
  {
    name: 'no manager: setup.cfg that only configures tools',
    files: { 'setup.cfg': '[flake8]\nmax-line-length = 100\n' },
    managers: [],
    manager_files: [],
  },
  {
    name: 'pip: pyproject.toml with setuptools backend',
    files: {
      'pyproject.toml': '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "demo"\n',
    },
    managers: ['pip'],
    manager_files: ['pip:pyproject.toml'],
    python_managers: ['pip'],
  },
  {
    name: 'pip: pyproject.toml with flit backend',
    files: { 'pyproject.toml': '[build-system]\nrequires = ["flit_core>=3.2"]\nbuild-backend = "flit_core.buildapi"\n' },
    managers: ['pip'],
    manager_files: ['pip:pyproject.toml'],
    python_managers: ['pip'],
  },
  {
    name: 'pip + hatch: hatchling backend and [tool.hatch]',
    files: {
      'pyproject.toml':
        '[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n\n[project]\nname = "demo"\n\n[tool.hatch.envs.default]\ndependencies = ["pytest"]\n',
    },
    managers: ['pip', 'hatch'],
    manager_files: ['pip:pyproject.toml', 'hatch:pyproject.toml'],
    python_managers: ['pip'],
  },
  {
    name: 'pip + pdm: pdm backend, [tool.pdm] and pdm.lock',
    files: {
      'pyproject.toml': '[build-system]\nrequires = ["pdm-backend"]\nbuild-backend = "pdm.backend"\n\n[project]\nname = "demo"\n\n[tool.pdm]\ndistribution = true\n',
      'pdm.lock': '# pdm lock\n',
    },
    managers: ['pip', 'pdm'],
    manager_files: ['pip:pyproject.toml', 'pdm:pyproject.toml', 'pdm:pdm.lock'],
    python_managers: ['pip'],
  },
  {
    name: 'pip: a bare [project] table (setuptools by default)',
    files: { 'pyproject.toml': '[project]\nname = "demo"\nversion = "0.1"\n' },
    managers: ['pip'],
    manager_files: ['pip:pyproject.toml'],
    python_managers: ['pip'],
  },
  {
    name: 'no manager: pyproject.toml holding only tool configuration',
    files: { 'pyproject.toml': '[tool.black]\nline-length = 100\n' },
    managers: [],
    manager_files: [],
  },
  {
    name: 'poetry: [tool.poetry] and poetry.lock',
    files: {
      'pyproject.toml':
        '[tool.poetry]\nname = "demo"\nversion = "0.1.0"\n\n[tool.poetry.dependencies]\nrequests = "^2.31"\n\n[build-system]\nrequires = ["poetry-core"]\nbuild-backend = "poetry.core.masonry.api"\n',
      'poetry.lock': '# poetry lock\n',
    },
    managers: ['poetry'],
    manager_files: ['poetry:pyproject.toml', 'poetry:poetry.lock'],
    python_managers: ['poetry'],
  },
  {
    name: 'poetry, not pip: a [project] table built by poetry-core (Poetry 2)',
    files: {
      'pyproject.toml': '[project]\nname = "demo"\nversion = "0.1.0"\n\n[build-system]\nrequires = ["poetry-core>=2"]\nbuild-backend = "poetry.core.masonry.api"\n',
    },
    managers: ['poetry'],
    manager_files: ['poetry:pyproject.toml'],
    python_managers: ['poetry'],
  },
  {
    name: 'pip + uv: uv.lock next to a [project] table',
    files: { 'pyproject.toml': '[project]\nname = "demo"\n', 'uv.lock': 'version = 1\n' },
    managers: ['pip', 'uv'],
    manager_files: ['pip:pyproject.toml', 'uv:uv.lock'],
    python_managers: ['pip'],
  },
  {
    name: 'pipenv: Pipfile and Pipfile.lock',
    files: { Pipfile: '[packages]\nrequests = "*"\n', 'Pipfile.lock': '{}\n' },
    managers: ['pipenv'],
    manager_files: ['pipenv:Pipfile', 'pipenv:Pipfile.lock'],
  },
  {
    name: 'conda: environment.yml',
    files: { 'environment.yml': 'name: demo\ndependencies:\n  - numpy\n' },
    managers: ['conda'],
    manager_files: ['conda:environment.yml'],
  },
  {
    name: 'maven: pom.xml and mvnw',
    files: { 'pom.xml': POM, mvnw: '#!/bin/sh\n' },
    managers: ['maven'],
    manager_files: ['maven:pom.xml', 'maven:mvnw'],
    jvm_managers: ['maven'],
  },
  {
    name: 'gradle: Kotlin DSL build, settings and wrapper',
    files: {
      'build.gradle.kts': 'plugins { java }\n',
      'settings.gradle.kts': 'rootProject.name = "demo"\n',
      gradlew: '#!/bin/sh\n',
    },
    managers: ['gradle'],
    manager_files: ['gradle:build.gradle.kts', 'gradle:settings.gradle.kts', 'gradle:gradlew'],
    jvm_managers: ['gradle'],
  },
  {
    name: 'gradle: Groovy build.gradle and settings.gradle',
    files: { 'build.gradle': "apply plugin: 'java'\n", 'settings.gradle': "rootProject.name = 'demo'\n" },
    managers: ['gradle'],
    manager_files: ['gradle:build.gradle', 'gradle:settings.gradle'],
    jvm_managers: ['gradle'],
  },
  {
    name: 'npm: package.json and package-lock.json',
    files: { 'package.json': '{"name": "demo"}\n', 'package-lock.json': '{}\n' },
    managers: ['npm'],
    manager_files: ['npm:package.json', 'npm:package-lock.json'],
  },
  {
    name: 'npm: package.json without a lockfile',
    files: { 'package.json': '{"name": "demo"}\n' },
    managers: ['npm'],
    manager_files: ['npm:package.json'],
  },
  {
    name: 'yarn: yarn.lock',
    files: { 'package.json': '{"name": "demo"}\n', 'yarn.lock': '# yarn lockfile v1\n' },
    managers: ['yarn'],
    manager_files: ['yarn:package.json', 'yarn:yarn.lock'],
  },
  {
    name: 'pnpm: pnpm-lock.yaml',
    files: { 'package.json': '{"name": "demo"}\n', 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n" },
    managers: ['pnpm'],
    manager_files: ['pnpm:package.json', 'pnpm:pnpm-lock.yaml'],
  },
  {
    name: 'pnpm: named by the packageManager field when no lockfile is committed',
    files: { 'package.json': '{"name": "demo", "packageManager": "pnpm@9.1.0"}\n' },
    managers: ['pnpm'],
    manager_files: ['pnpm:package.json'],
  },
  {
    name: 'bundler: Gemfile and Gemfile.lock',
    files: { Gemfile: "source 'https://rubygems.org'\ngem 'rails'\n", 'Gemfile.lock': 'GEM\n' },
    managers: ['bundler'],
    manager_files: ['bundler:Gemfile', 'bundler:Gemfile.lock'],
  },
  {
    name: 'only the root counts: a manifest in a subdirectory is not a root manager',
    files: { 'tools/requirements.txt': 'black\n' },
    managers: [],
    manager_files: [],
  },
];

describe('detectManagers (through inspectRepository)', () => {
  it.each(cases)('$name', async (c) => {
    const facts = await fixtures.inspect(c.files);
    expect(withoutCounters(facts)).toEqual(
      expected({
        managers: c.managers,
        manager_files: c.manager_files,
        python_managers: c.python_managers ?? [],
        jvm_managers: c.jvm_managers ?? [],
      }),
    );
  });
});

describe('content filter on single-manager repositories', () => {
  it('accepts a pip repository for the python family', async () => {
    const facts = await fixtures.inspect({ 'requirements.txt': 'requests\n' });
    expect(decideContentFilter(facts, { family: 'python', ...SINGLE })).toEqual({ status: 'accepted' });
  });

  it('accepts a maven repository for the jvm family', async () => {
    const facts = await fixtures.inspect({ 'pom.xml': POM });
    expect(decideContentFilter(facts, { family: 'jvm', ...SINGLE })).toEqual({ status: 'accepted' });
  });

  it('accepts pip + uv: uv is recorded for information, not counted as a second manager', async () => {
    const facts = await fixtures.inspect({ 'pyproject.toml': '[project]\nname = "demo"\n', 'uv.lock': 'version = 1\n' });
    expect(decideContentFilter(facts, { family: 'python', ...SINGLE })).toEqual({ status: 'accepted' });
  });

  it('rejects a Pipfile-only repository: pipenv is not one of the benchmark managers', async () => {
    const facts = await fixtures.inspect({ Pipfile: '[packages]\nrequests = "*"\n' });
    expect(decideContentFilter(facts, { family: 'python', ...SINGLE })).toEqual({
      status: 'rejected',
      reason: 'no_dependency_manager',
      text: 'root declares no pip or poetry configuration; found only pipenv (Pipfile)',
    });
  });

  it('rejects an empty repository', async () => {
    const facts = await fixtures.inspect({ 'README.md': '# demo\n' });
    expect(decideContentFilter(facts, { family: 'jvm', ...SINGLE })).toEqual({
      status: 'rejected',
      reason: 'no_dependency_manager',
      text: 'root declares no maven or gradle configuration',
    });
  });

  it('rejects a "Python" repository that is built with Maven', async () => {
    const facts = await fixtures.inspect({ 'pom.xml': POM });
    expect(decideContentFilter(facts, { family: 'python', ...SINGLE })).toEqual({
      status: 'rejected',
      reason: 'wrong_family',
      text: 'root declares maven (pom.xml) but no pip or poetry configuration for a python repository',
    });
  });
});
