import { afterAll, describe, expect, it } from 'vitest';
import { expected, GitFixtures, withoutCounters } from './git-fixture.js';

const fixtures = new GitFixtures();
afterAll(() => fixtures.cleanup());

describe('setup documents', () => {
  it('README, INSTALL, docs install pages and CONTRIBUTING guides, in that order', async () => {
    const facts = await fixtures.inspect({
      'README.md': '# demo\n',
      'README.txt': 'demo\n',
      INSTALL: 'make install\n',
      'CONTRIBUTING.rst': 'Contributing\n',
      'docs/installation.rst': 'Installation\n',
      'docs/usage.md': 'usage\n',
      'docs/source/getting-started.md': 'start\n',
      '.github/CONTRIBUTING.md': 'hi\n',
      'installer.sh': '#!/bin/sh\n',
    });
    expect(withoutCounters(facts)).toEqual(
      expected({
        readme_path: 'README.md',
        setup_docs: ['README.md', 'INSTALL', 'docs/installation.rst', 'docs/source/getting-started.md', 'CONTRIBUTING.rst', '.github/CONTRIBUTING.md'],
      }),
    );
  });

  it.each([
    ['README.rst', ['README.rst', 'README']],
    ['README.adoc', ['README.adoc', 'readme.org']],
    ['README', ['README']],
  ])('prefers %s among %j', async (winner, names) => {
    const facts = await fixtures.inspect(Object.fromEntries(names.map((n) => [n, 'text\n'])));
    expect(facts.readme_path).toBe(winner);
    expect(facts.setup_docs).toEqual([winner]);
  });

  it('no README at all', async () => {
    const facts = await fixtures.inspect({ 'main.py': 'print(1)\n' });
    expect([facts.readme_path, facts.setup_docs]).toEqual([null, []]);
  });
});
