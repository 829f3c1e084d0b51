import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoadedConfig } from '../pipeline/config/load.js';
import { SetupError } from '../pipeline/errors.js';
import type { StageGraph } from '../pipeline/graph-types.js';
import { silentLogger } from '../pipeline/log/logger.js';
import { runStage } from '../pipeline/runner/run-stage.js';
import type { Item, Outcome, Source, Stage, StageContext } from '../pipeline/stage.js';
import { cloneStage, cloneUrl, clonesRoot } from '../stages/clone/index.js';
import { fixtureConfig, fixtureEnv } from './helpers/fixture-graph.js';
import {
  authRequiredServer,
  closedPort,
  git,
  makeEmptyRemote,
  makeRemote,
  silentServer,
  type Snapshot,
  type TestServer,
} from './helpers/git-fixtures.js';
import { tempDirs } from './helpers/temp-dir.js';

const dirs = tempDirs();
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  dirs.cleanup();
});

const TWO_COMMITS: Snapshot[] = [
  { 'setup.py': 'version = 1\n', 'README.md': '# first\n' },
  { 'setup.py': 'version = 2\n', 'README.md': '# second\n', 'pkg/__init__.py': '' },
];

/** A clone config: file:// remotes under `remotes`, no disk budget unless asked. */
function cloneConfig(dataDir: string, clone: Record<string, string | number | boolean>): LoadedConfig {
  const body = Object.entries({ min_free_gb: 0, ...clone })
    .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
    .join('\n');
  return fixtureConfig(dataDir, `[clone]\n${body}\n`);
}

function ctxFor(config: LoadedConfig, cacheDir: string, dataset = 't', signal = new AbortController().signal): StageContext {
  return { config, dataset, cacheDir, log: silentLogger, signal };
}

async function runOne(row: Item, config: LoadedConfig, cacheDir: string, dataset = 't'): Promise<Outcome> {
  const out = await cloneStage.run(row, ctxFor(config, cacheDir, dataset));
  expect(Array.isArray(out)).toBe(false);
  return out as Outcome;
}

const checkoutOf = (cacheDir: string, o: Outcome) => {
  const rel = String(o.cells?.clone_path);
  return join(clonesRoot(cacheDir), rel);
};

function devNull(): NodeJS.WritableStream {
  return { write: () => true } as unknown as NodeJS.WritableStream;
}

describe('clone: url template', () => {
  it('fills {owner}, {repo} and {cwd}', () => {
    expect(cloneUrl('https://example.org/{owner}/{repo}.git', 'octo/cat')).toBe('https://example.org/octo/cat.git');
    expect(cloneUrl('file://{cwd}/remotes/{owner}/{repo}.git', 'o/r', '/w')).toBe('file:///w/remotes/o/r.git');
  });
});

describe('clone: pinned checkouts from real git remotes', () => {
  it('checks out a pinned revision (not the branch head) and records its facts', async () => {
    const dataDir = dirs.make();
    const remotes = dirs.make();
    const remote = makeRemote(remotes, 'o/r', TWO_COMMITS);
    const config = cloneConfig(dataDir, { url_template: `file://${remotes}/{owner}/{repo}.git` });
    const cacheDir = join(dataDir, 'cache');

    const o = await runOne({ repository: 'o/r', revision: remote.shas[0], language: 'Python' }, config, cacheDir);
    expect(o.status).toBe('accepted');
    const c = o.cells!;
    expect(c.repository).toBe('o/r');
    expect(c.language).toBe('Python');
    expect(c.revision).toBe(remote.shas[0]);
    expect(c.commit_date).toMatch(/^2024-01-01T12:00:00(Z|[+-]00:00)$/);
    expect(c.clone_mode).toBe('shallow');
    expect(c.cached).toBe(false);
    expect(c.clone_path).toBe(join('o', 'r', remote.shas[0]!));
    expect(isAbsolute(String(c.clone_path))).toBe(false);
    expect(String(c.clone_path)).not.toContain(dataDir);
    expect(Number(c.files)).toBe(2);
    expect(Number(c.worktree_bytes)).toBeGreaterThan(0);
    expect(Number(c.object_bytes)).toBeGreaterThan(0);
    expect(c.submodules).toEqual([]);

    const dir = checkoutOf(cacheDir, o);
    expect(readFileSync(join(dir, 'setup.py'), 'utf8')).toBe('version = 1\n');
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('# first\n');
    expect(existsSync(join(dir, 'pkg'))).toBe(false);
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(remote.shas[0]);
    // The facts file marks the checkout complete; no temporary folder is left behind.
    expect(existsSync(join(clonesRoot(cacheDir), 'o', 'r', `${remote.shas[0]}.json`))).toBe(true);
    expect(readdirSync(join(clonesRoot(cacheDir), 'o', 'r')).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
  });

  it('without a revision, pins the default-branch head and records the branch', async () => {
    const dataDir = dirs.make();
    const remotes = dirs.make();
    const remote = makeRemote(remotes, 'o/r', TWO_COMMITS, { branch: 'trunk' });
    const config = cloneConfig(dataDir, { url_template: `file://${remotes}/{owner}/{repo}.git` });
    const cacheDir = join(dataDir, 'cache');

    const o = await runOne({ repository: 'o/r', language: 'Python' }, config, cacheDir);
    expect(o.status).toBe('accepted');
    expect(o.cells!.revision).toBe(remote.shas[1]);
    expect(o.cells!.default_branch).toBe('trunk');
    expect(o.cells!.commit_date).toMatch(/^2024-01-02T12:00:00/);
    expect(Number(o.cells!.files)).toBe(3);
    expect(readFileSync(join(checkoutOf(cacheDir, o), 'setup.py'), 'utf8')).toBe('version = 2\n');
  });

  it('reuses a cached pinned checkout without touching the remote', async () => {
    const dataDir = dirs.make();
    const remotes = dirs.make();
    const remote = makeRemote(remotes, 'o/r', TWO_COMMITS);
    const cacheDir = join(dataDir, 'cache');
    const row = { repository: 'o/r', revision: remote.shas[0], language: 'Python' };

    const first = await runOne(row, cloneConfig(dataDir, { url_template: `file://${remotes}/{owner}/{repo}.git` }), cacheDir, 'one');
    expect(first.status).toBe('accepted');
    expect(first.cells!.cached).toBe(false);

    // The remote is gone and the template points nowhere: only the cache can answer.
    rmSync(remote.bare, { recursive: true, force: true });
    const elsewhere = cloneConfig(dataDir, { url_template: `file://${remotes}/nowhere/{owner}/{repo}.git` });
    const second = await runOne(row, elsewhere, cacheDir, 'two');
    expect(second.status).toBe('accepted');
    expect(second.cells!.cached).toBe(true);
    expect(second.cells!.revision).toBe(remote.shas[0]);
    expect(second.cells!.clone_path).toBe(first.cells!.clone_path);
    expect(second.cells!.files).toBe(first.cells!.files);
    expect(second.cells!.commit_date).toBe(first.cells!.commit_date);
  });

  it('fetches one commit with depth 1 and the whole history with depth 0 (with and without a blob filter)', async () => {
    const remotes = dirs.make();
    const snaps = [...TWO_COMMITS, { ...TWO_COMMITS[1], 'CHANGES.md': 'three\n' }];
    const remote = makeRemote(remotes, 'o/r', snaps);
    // Let the server honour --filter, so blob_filter really makes a partial clone.
    git(remote.bare, 'config', 'uploadpack.allowFilter', 'true');
    const url_template = `file://${remotes}/{owner}/{repo}.git`;
    const head = remote.shas[2]!;

    const cases = [
      { depth: 1, blob_filter: false, commits: 1, mode: 'shallow' },
      { depth: 0, blob_filter: false, commits: 3, mode: 'full' },
      { depth: 0, blob_filter: true, commits: 3, mode: 'full' },
    ];
    for (const k of cases) {
      const dataDir = dirs.make();
      const cacheDir = join(dataDir, 'cache');
      const config = cloneConfig(dataDir, { url_template, depth: k.depth, blob_filter: k.blob_filter });
      const o = await runOne({ repository: 'o/r', revision: head }, config, cacheDir);
      expect(o.status, JSON.stringify(o)).toBe('accepted');
      expect(o.cells!.clone_mode).toBe(k.mode);
      const dir = checkoutOf(cacheDir, o);
      expect(git(dir, 'rev-list', '--count', 'HEAD')).toBe(String(k.commits));
      expect(existsSync(join(dir, '.git', 'shallow'))).toBe(k.depth > 0);
      expect(readFileSync(join(dir, 'CHANGES.md'), 'utf8')).toBe('three\n');
      if (k.blob_filter) expect(git(dir, 'config', 'remote.origin.partialclonefilter')).toBe('blob:none');
    }

    // The oldest commit of a full clone is the remote's first commit.
    const dataDir = dirs.make();
    const cacheDir = join(dataDir, 'cache');
    const o = await runOne({ repository: 'o/r', revision: head }, cloneConfig(dataDir, { url_template, depth: 0 }), cacheDir);
    expect(git(checkoutOf(cacheDir, o), 'rev-list', '--max-parents=0', 'HEAD')).toBe(remote.shas[0]);
  });

  it('records submodules without cloning them', async () => {
    const remotes = dirs.make();
    const sub = makeRemote(remotes, 'o/sub', [{ 'lib.py': 'x = 1\n' }]);
    const parent = makeRemote(remotes, 'o/parent', [{ 'setup.py': 'version = 1\n' }], {
      prepare: (work) => git(work, '-c', 'protocol.file.allow=always', 'submodule', 'add', '--quiet', sub.url, 'libs/sub'),
    });
    const dataDir = dirs.make();
    const cacheDir = join(dataDir, 'cache');
    const config = cloneConfig(dataDir, { url_template: `file://${remotes}/{owner}/{repo}.git` });

    const o = await runOne({ repository: 'o/parent', revision: parent.shas[0] }, config, cacheDir);
    expect(o.status, JSON.stringify(o)).toBe('accepted');
    expect(o.cells!.submodules).toEqual(['libs/sub']);
    const dir = checkoutOf(cacheDir, o);
    expect(existsSync(join(dir, '.gitmodules'))).toBe(true);
    expect(existsSync(join(dir, 'libs', 'sub'))).toBe(true);
    expect(readdirSync(join(dir, 'libs', 'sub'))).toEqual([]);
    expect(existsSync(join(dir, '.git', 'modules'))).toBe(false);
  });
});

describe('clone: failures become error rows with a reason', () => {
  it('reports a vanished remote, an empty repository and an unknown revision', async () => {
    const remotes = dirs.make();
    const remote = makeRemote(remotes, 'o/r', TWO_COMMITS);
    makeEmptyRemote(remotes, 'o/empty');
    const dataDir = dirs.make();
    const cacheDir = join(dataDir, 'cache');
    const config = cloneConfig(dataDir, { url_template: `file://${remotes}/{owner}/{repo}.git` });

    const gone = await runOne({ repository: 'o/gone', language: 'Python' }, config, cacheDir);
    expect(gone).toMatchObject({ status: 'error', reason: 'repo_unavailable' });
    expect(gone.cells).toMatchObject({ repository: 'o/gone', language: 'Python', revision: null });
    const gonePinned = await runOne({ repository: 'o/gone', revision: remote.shas[0] }, config, cacheDir);
    expect(gonePinned).toMatchObject({ status: 'error', reason: 'repo_unavailable' });

    const empty = await runOne({ repository: 'o/empty' }, config, cacheDir);
    expect(empty).toMatchObject({ status: 'error', reason: 'empty_repository' });

    const missing = 'ab'.repeat(20);
    const unknown = await runOne({ repository: 'o/r', revision: missing }, config, cacheDir);
    expect(unknown).toMatchObject({ status: 'error', reason: 'revision_unavailable' });
    expect(unknown.cells!.revision).toBe(missing);
    // A failed clone leaves neither a checkout nor a temporary folder in the cache.
    expect(readdirSync(join(clonesRoot(cacheDir), 'o', 'r'))).toEqual([]);
  });

  it('times out against a server that never answers', async () => {
    const server = await silentServer();
    servers.push(server);
    const dataDir = dirs.make();
    const config = cloneConfig(dataDir, { url_template: `http://127.0.0.1:${server.port}/{owner}/{repo}.git`, timeout_seconds: 1 });
    const t0 = Date.now();
    const o = await runOne({ repository: 'o/r', revision: 'ab'.repeat(20) }, config, join(dataDir, 'cache'));
    const elapsed = Date.now() - t0;
    expect(o).toMatchObject({ status: 'error', reason: 'clone_timeout' });
    expect(server.hits()).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(8_000);
  });

  it('fails fast instead of prompting when the server asks for credentials', async () => {
    const server = await authRequiredServer();
    servers.push(server);
    const dataDir = dirs.make();
    const config = cloneConfig(dataDir, { url_template: `http://127.0.0.1:${server.port}/{owner}/{repo}.git`, timeout_seconds: 30 });
    const t0 = Date.now();
    const o = await runOne({ repository: 'o/private' }, config, join(dataDir, 'cache'));
    expect(o).toMatchObject({ status: 'error', reason: 'repo_unavailable' });
    expect(server.hits()).toBeGreaterThan(0);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('stops the run with a SetupError when the disk budget is reached', async () => {
    const remotes = dirs.make();
    const remote = makeRemote(remotes, 'o/r', TWO_COMMITS);
    const dataDir = dirs.make();
    const cacheDir = join(dataDir, 'cache');
    const config = cloneConfig(dataDir, { url_template: `file://${remotes}/{owner}/{repo}.git`, min_free_gb: 1_000_000 });
    const run = cloneStage.run({ repository: 'o/r', revision: remote.shas[0] }, ctxFor(config, cacheDir));
    await expect(run).rejects.toBeInstanceOf(SetupError);
    await expect(run).rejects.toThrow(/clone\.min_free_gb/);
    expect(existsSync(join(clonesRoot(cacheDir), 'o'))).toBe(false);
  });
});

describe('clone: through the runner', () => {
  function rowsGraph(rows: Item[]): { graph: StageGraph; stage: Stage } {
    const source: Source = { name: 'rows', description: 'search-like rows', read: () => rows };
    const stage: Stage = { ...cloneStage, input: 'rows' };
    return { graph: { sources: [source], stages: [stage] }, stage };
  }

  it('writes one error row for a missing remote and accepts the others', async () => {
    const remotes = dirs.make();
    const a = makeRemote(remotes, 'o/a', TWO_COMMITS);
    const b = makeRemote(remotes, 'o/b', [{ 'pom.xml': '<project/>\n' }]);
    const c = makeRemote(remotes, 'p/c', [{ 'build.gradle': '\n' }], { branch: 'develop' });
    const { graph, stage } = rowsGraph([
      { repository: 'o/a', revision: a.shas[0], language: 'Python' },
      { repository: 'o/b', language: 'Java' },
      { repository: 'o/missing', language: 'Python' },
      { repository: 'p/c', language: 'Java' },
    ]);
    const dataDir = dirs.make();
    const config = cloneConfig(dataDir, { url_template: `file://${remotes}/{owner}/{repo}.git` });
    const env = await fixtureEnv(dataDir, graph, config);
    try {
      const summary = await runStage(stage, env, { progressStream: devNull() });
      expect(summary.counts).toEqual({ accepted: 3, rejected: 0, error: 1 });
      expect(summary.reasons).toEqual({ 'error:repo_unavailable': 1 });
      expect(summary.interrupted).toBe(false);

      const rows = await env.store.latestRows(stage);
      const byKey = Object.fromEntries(rows.map((r) => [String(r.key), r]));
      expect(Object.keys(byKey)).toEqual(['o/a', 'o/b', 'o/missing', 'p/c']);
      expect(byKey['o/a']).toMatchObject({ status: 'accepted', revision: a.shas[0], clone_mode: 'shallow', cached: false });
      expect(byKey['o/b']).toMatchObject({ status: 'accepted', revision: b.shas[0], default_branch: 'main' });
      expect(byKey['p/c']).toMatchObject({ status: 'accepted', revision: c.shas[0], default_branch: 'develop' });
      expect(byKey['o/missing']).toMatchObject({ status: 'error', reason: 'repo_unavailable', language: 'Python' });
      for (const r of rows.filter((r) => r.status === 'accepted')) {
        expect(isAbsolute(String(r.clone_path))).toBe(false);
        expect(existsSync(join(env.store.layout.cacheDir, 'clones', String(r.clone_path), '.git'))).toBe(true);
      }

      // A rerun has nothing pending except (by default) nothing: the work is done.
      const again = await runStage(stage, env, { progressStream: devNull() });
      expect(again.counts.accepted).toBe(0);
    } finally {
      env.store.close();
    }
  });

  it('leaves a clone cut short by an interrupt pending instead of recording an error', async () => {
    const server = await silentServer();
    servers.push(server);
    const { graph, stage } = rowsGraph([{ repository: 'o/slow', language: 'Python' }]);
    const dataDir = dirs.make();
    const config = cloneConfig(dataDir, { url_template: `http://127.0.0.1:${server.port}/{owner}/{repo}.git`, timeout_seconds: 30 });
    const env = await fixtureEnv(dataDir, graph, config);
    try {
      const interrupt = new AbortController();
      const timer = setTimeout(() => interrupt.abort(new Error('SIGINT')), 500);
      const t0 = Date.now();
      const summary = await runStage(stage, env, { signal: interrupt.signal, progressStream: devNull() });
      clearTimeout(timer);
      expect(Date.now() - t0).toBeLessThan(5_000);
      expect(server.hits()).toBeGreaterThan(0);
      expect(summary.interrupted).toBe(true);
      expect(summary.processed).toBe(0);
      expect(await env.store.latestRows(stage)).toEqual([]);
    } finally {
      env.store.close();
    }
  });

  it('never writes the credentials of the url template into an artifact', async () => {
    const port = await closedPort();
    const { graph, stage } = rowsGraph([
      { repository: 'o/r', language: 'Python' },
      { repository: 'o/s', revision: 'cd'.repeat(20), language: 'Python' },
    ]);
    const dataDir = dirs.make();
    const config = cloneConfig(dataDir, { url_template: `https://user:s3cr3tpass@127.0.0.1:${port}/{owner}/{repo}.git`, timeout_seconds: 20 });
    const env = await fixtureEnv(dataDir, graph, config);
    try {
      const summary = await runStage(stage, env, { progressStream: devNull() });
      expect(summary.counts.error).toBe(2);
      const rows = await env.store.latestRows(stage);
      expect(rows).toHaveLength(2);
      for (const r of rows) {
        expect(r).toMatchObject({ status: 'error', reason: 'repo_unavailable' });
        expect(String(r.reason_text).length).toBeGreaterThan(0);
        expect(JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('s3cr3tpass');
      }
      expect(JSON.stringify(summary)).not.toContain('s3cr3tpass');
    } finally {
      env.store.close();
    }
  });
});
