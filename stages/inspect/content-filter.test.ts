import { afterAll, describe, expect, it } from 'vitest';
import { decideContentFilter, familyForLanguage, type ContentFilterOptions } from './content-filter.js';
import { EMPTY_FACTS, GitFixtures } from './git-fixture.js';
import { REPO_FACTS_COLUMNS, type RepoFacts } from './repo-facts.js';

const fixtures = new GitFixtures();
afterAll(() => fixtures.cleanup());

const ALL: Omit<ContentFilterOptions, 'family'> = { require_single_manager: true, reject_docker: true, reject_monorepo: true };
const NONE: Omit<ContentFilterOptions, 'family'> = { require_single_manager: false, reject_docker: false, reject_monorepo: false };

const facts = (overrides: Partial<RepoFacts>): RepoFacts => ({ ...EMPTY_FACTS, ...overrides });

describe('familyForLanguage', () => {
  it('maps the EnvBench primary languages and nothing else', () => {
    expect(familyForLanguage('Python')).toBe('python');
    expect(familyForLanguage('Java')).toBe('jvm');
    expect(familyForLanguage(' kotlin ')).toBe('jvm');
    expect(familyForLanguage('Scala')).toBeNull();
    expect(familyForLanguage('JavaScript')).toBeNull();
    expect(familyForLanguage(null)).toBeNull();
    expect(familyForLanguage(undefined)).toBeNull();
  });
});

describe('decideContentFilter', () => {
  // pip + poetry + Docker + nested projects: every filter has something to say.
  const everything = facts({
    managers: ['pip', 'poetry'],
    manager_files: ['pip:requirements.txt', 'pip:setup.py', 'poetry:poetry.lock'],
    python_managers: ['pip', 'poetry'],
    docker_files: ['Dockerfile'],
    has_docker: true,
    is_monorepo: true,
    monorepo_signals: ['multiple-python-managers:pip,poetry', 'nested-python-build-files:a/setup.py'],
  });

  it('applies the funnel order: managers, then Docker, then monorepo signals', () => {
    expect(decideContentFilter(everything, { family: 'python', ...ALL })).toEqual({
      status: 'rejected',
      reason: 'multiple_dependency_managers',
      text: 'root declares pip (requirements.txt, setup.py) and poetry (poetry.lock)',
    });
    expect(decideContentFilter(everything, { family: 'python', ...ALL, require_single_manager: false })).toEqual({
      status: 'rejected',
      reason: 'has_docker',
      text: 'Docker configuration present: Dockerfile',
    });
    expect(decideContentFilter(everything, { family: 'python', ...NONE, reject_monorepo: true })).toEqual({
      status: 'rejected',
      reason: 'monorepo',
      text: 'python monorepo signals: multiple-python-managers:pip,poetry; nested-python-build-files:a/setup.py',
    });
    expect(decideContentFilter(everything, { family: 'python', ...NONE })).toEqual({ status: 'accepted' });
  });

  it('still requires one manager when single-manager checking is off', () => {
    expect(decideContentFilter(facts({}), { family: 'python', ...NONE })).toMatchObject({ status: 'rejected', reason: 'no_dependency_manager' });
  });

  it('ignores monorepo signals of other families', () => {
    const mixed = facts({
      managers: ['gradle', 'npm'],
      manager_files: ['gradle:build.gradle', 'npm:package.json'],
      jvm_managers: ['gradle'],
      is_monorepo: true,
      monorepo_signals: ['npm-workspaces:web/*', 'nested-python-build-files:scripts/setup.py'],
    });
    expect(decideContentFilter(mixed, { family: 'jvm', ...ALL })).toEqual({ status: 'accepted' });
  });

  it('names at most five Docker files', () => {
    const docker = facts({
      managers: ['maven'],
      manager_files: ['maven:pom.xml'],
      jvm_managers: ['maven'],
      has_docker: true,
      docker_files: ['a/Dockerfile', 'b/Dockerfile', 'c/Dockerfile', 'd/Dockerfile', 'e/Dockerfile', 'f/Dockerfile', 'g/Dockerfile'],
    });
    expect(decideContentFilter(docker, { family: 'jvm', ...ALL })).toEqual({
      status: 'rejected',
      reason: 'has_docker',
      text: 'Docker configuration present: a/Dockerfile, b/Dockerfile, c/Dockerfile, d/Dockerfile, e/Dockerfile and 2 more',
    });
  });
});

describe('RepoFacts columns', () => {
  it('declares a column for exactly the fields inspectRepository returns', async () => {
    const real = await fixtures.inspect({ 'requirements.txt': 'x\n' });
    expect(Object.keys(REPO_FACTS_COLUMNS).sort()).toEqual(Object.keys(real).sort());
  });
});
