import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inspectRepository } from './inspect-repository.js';
import type { InspectOptions, RepoFacts } from './repo-facts.js';

/**
 * Real git repositories for the inspect tests: each fixture is a committed working tree, as
 * the clone stage would hand it over. Every repository sits in its own temporary parent that
 * also holds `outside.txt` (and any `outside` files), so symlinks can point just outside it.
 */

const run = promisify(execFile);

export type FixtureFile = string | Buffer | { symlink: string } | { sparseBytes: number };

export const TEST_OPTIONS: InspectOptions = {
  nested_depth: 3,
  docker_depth: 3,
  max_file_bytes: 1024 * 1024,
};

export class GitFixtures {
  private readonly parents: string[] = [];

  /** `outside` files are written next to the repository, for symlinks that escape it. */
  async repo(files: Record<string, FixtureFile>, outside: Record<string, string> = {}): Promise<string> {
    const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'envforge-inspect-'));
    this.parents.push(parent);
    const root = path.join(parent, 'repo');
    await fs.mkdir(root);
    for (const [rel, content] of Object.entries({ 'outside.txt': 'secret outside the repository\n', ...outside })) {
      await fs.mkdir(path.dirname(path.join(parent, rel)), { recursive: true });
      await fs.writeFile(path.join(parent, rel), content);
    }
    for (const [rel, content] of Object.entries(files)) {
      const abs = path.join(root, rel);
      await fs.mkdir(path.dirname(abs), { recursive: true });
      if (typeof content === 'string' || Buffer.isBuffer(content)) {
        await fs.writeFile(abs, content);
      } else if ('symlink' in content) {
        await fs.symlink(content.symlink, abs);
      } else {
        // Sparse: the size is real, the disk blocks are not.
        const handle = await fs.open(abs, 'w');
        await handle.truncate(content.sparseBytes);
        await handle.close();
      }
    }
    const git = (...args: string[]): Promise<unknown> =>
      run('git', ['-c', 'user.name=envforge-test', '-c', 'user.email=test@envforge.invalid', '-c', 'commit.gpgsign=false', ...args], {
        cwd: root,
      });
    await git('init', '-q', '-b', 'main');
    await git('add', '-A');
    await git('commit', '-q', '--allow-empty', '-m', 'fixture');
    return root;
  }

  async inspect(files: Record<string, FixtureFile>, options: Partial<InspectOptions> = {}): Promise<RepoFacts> {
    return inspectRepository(await this.repo(files), { ...TEST_OPTIONS, ...options });
  }

  async cleanup(): Promise<void> {
    await Promise.all(this.parents.splice(0).map((p) => fs.rm(p, { recursive: true, force: true })));
  }
}

/** The facts of a repository with nothing in it, so tests can state only what differs. */
export const EMPTY_FACTS: RepoFacts = {
  managers: [],
  manager_files: [],
  python_managers: [],
  jvm_managers: [],
  is_monorepo: false,
  monorepo_signals: [],
  nested_build_files: [],
  nested_build_files_ignored: [],
  has_docker: false,
  docker_files: [],
  python_version_spec: null,
  python_version_specs: [],
  python_version_sources: [],
  java_version: null,
  java_versions: [],
  java_version_sources: [],
  gradle_version: null,
  gradle_version_source: null,
  maven_version: null,
  maven_version_source: null,
  readme_path: null,
  setup_docs: [],
  findings: [],
  malformed_files: [],
  entries_visited: 0,
  walk_truncated: false,
};

/** Facts without the walk counter, which depends on every file a fixture happens to hold. */
export function withoutCounters(facts: RepoFacts): Omit<RepoFacts, 'entries_visited'> {
  const { entries_visited: _ignored, ...rest } = facts;
  return rest;
}

export function expected(overrides: Partial<RepoFacts>): Omit<RepoFacts, 'entries_visited'> {
  return withoutCounters({ ...EMPTY_FACTS, ...overrides });
}
