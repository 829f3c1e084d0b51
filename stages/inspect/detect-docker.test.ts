import { afterAll, describe, expect, it } from 'vitest';
import { decideContentFilter } from './content-filter.js';
import { isDockerFileName } from './detect-docker.js';
import { expected, GitFixtures, withoutCounters } from './git-fixture.js';

const fixtures = new GitFixtures();
afterAll(() => fixtures.cleanup());

const FILTERS = { family: 'python', require_single_manager: true, reject_docker: true, reject_monorepo: true } as const;

describe('docker signals', () => {
  it.each([
    ['Dockerfile', 'Dockerfile'],
    ['lower-case dockerfile in a subdirectory', 'docker/dockerfile'],
    ['Dockerfile.<variant>', 'Dockerfile.gpu'],
    ['<name>.dockerfile', 'ci/test.dockerfile'],
    ['Containerfile', 'Containerfile'],
    ['docker-compose.yml', 'docker-compose.yml'],
    ['docker-compose.<variant>.yaml', 'deploy/docker-compose.prod.yaml'],
    ['compose.yaml', 'compose.yaml'],
    ['.devcontainer.json', '.devcontainer.json'],
  ])('%s', async (_label, file) => {
    const facts = await fixtures.inspect({ 'requirements.txt': 'flask\n', [file]: 'FROM python:3.12\n' });
    expect(withoutCounters(facts)).toEqual(
      expected({
        managers: ['pip'],
        manager_files: ['pip:requirements.txt'],
        python_managers: ['pip'],
        has_docker: true,
        docker_files: [file],
      }),
    );
    expect(decideContentFilter(facts, FILTERS)).toEqual({
      status: 'rejected',
      reason: 'has_docker',
      text: `Docker configuration present: ${file}`,
    });
  });

  it('.devcontainer/ directory', async () => {
    const facts = await fixtures.inspect({ '.devcontainer/devcontainer.json': '{"image": "python:3.12"}\n' });
    expect(facts.docker_files).toEqual(['.devcontainer/']);
    expect(facts.has_docker).toBe(true);
  });

  it('respects docker_depth and skips node_modules and vendor', async () => {
    const files = {
      'requirements.txt': 'flask\n',
      'a/Dockerfile': 'FROM scratch\n',
      'a/b/c/Dockerfile': 'FROM scratch\n',
      'node_modules/pkg/Dockerfile': 'FROM scratch\n',
      'vendor/lib/docker-compose.yml': 'services: {}\n',
    };
    expect((await fixtures.inspect(files, { docker_depth: 1 })).docker_files).toEqual(['a/Dockerfile']);
    expect((await fixtures.inspect(files, { docker_depth: 3 })).docker_files).toEqual(['a/Dockerfile', 'a/b/c/Dockerfile']);
    expect((await fixtures.inspect(files, { docker_depth: 0 })).has_docker).toBe(false);
  });

  it('lists several files and names them in the rejection', async () => {
    const facts = await fixtures.inspect({
      'requirements.txt': 'flask\n',
      Dockerfile: 'FROM python\n',
      'docker-compose.yml': 'services: {}\n',
      'examples/Dockerfile': 'FROM python\n',
    });
    expect(facts.docker_files).toEqual(['Dockerfile', 'docker-compose.yml', 'examples/Dockerfile']);
    expect(decideContentFilter(facts, FILTERS)).toEqual({
      status: 'rejected',
      reason: 'has_docker',
      text: 'Docker configuration present: Dockerfile, docker-compose.yml, examples/Dockerfile',
    });
    expect(decideContentFilter(facts, { ...FILTERS, reject_docker: false })).toEqual({ status: 'accepted' });
  });

  it('a multi-manager repository is rejected for its managers before its Docker files', async () => {
    const facts = await fixtures.inspect({ 'requirements.txt': 'x\n', 'poetry.lock': '', Dockerfile: 'FROM python\n' });
    expect(decideContentFilter(facts, FILTERS)).toMatchObject({ status: 'rejected', reason: 'multiple_dependency_managers' });
  });

  it('does not take look-alike names for Docker files', () => {
    for (const name of ['Dockerfile', 'docker-compose.yml', 'compose.override.yml']) expect(isDockerFileName(name), name).toBe(true);
    for (const name of ['docker', '.dockerignore', 'dockerfile-lint.json', 'composer.json', 'docker-compose.md']) {
      expect(isDockerFileName(name), name).toBe(false);
    }
  });
});
