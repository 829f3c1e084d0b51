import { createReadStream, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../pipeline/cli/commands/run.js';
import { sqlCommand } from '../pipeline/cli/commands/query.js';
import type { Io } from '../pipeline/cli/context.js';
import { buildHistoryRemotes } from '../pipeline/git/history-remotes.js';
import { GRAPH } from '../pipeline/graph.js';
import { silentLogger } from '../pipeline/log/logger.js';
import { readArchive } from '../stages/conflicts/gharchive-source.js';
import { compileEcosystems } from '../stages/conflicts/match-text.js';
import { REFERENCE_CONFLICT_ECOSYSTEMS } from '../pipeline/config/conflict-sections.js';
import { git } from './helpers/git-fixtures.js';
import { tempDirs } from './helpers/temp-dir.js';

/** conflicts → locate on the committed GH Archive sample and the demo's repositories with history (through file://). */
const dirs = tempDirs();
const io: Io = { out: () => {}, err: { write: () => true } as unknown as NodeJS.WritableStream, tty: false };
const ecosystems = compileEcosystems({ ecosystems: REFERENCE_CONFLICT_ECOSYSTEMS });
let dir = '';
let config = '';

function writeConfig(name: string, gharchive: string[]): string {
  const file = join(dir, `${name}.toml`);
  writeFileSync(
    file,
    `dataset = "${name}"\ndata_dir = ${JSON.stringify(join(dir, 'data'))}\n[run]\nlog_level = "silent"\n` +
      `[conflicts]\ngharchive = ${JSON.stringify(gharchive)}\n` +
      `[clone]\nurl_template = "file://${dir}/remotes/{owner}/{repo}.git"\nmin_free_gb = 0\ntimeout_seconds = 60\n[locate]\ntimeout_seconds = 60\n`,
  );
  return file;
}

beforeAll(async () => {
  dir = dirs.make('envforge-conflicts-');
  await buildHistoryRemotes(resolve('data/samples/conflict-repos'), join(dir, 'remotes'));
  config = writeConfig('demo', [resolve('data/samples/gharchive')]);
});
afterAll(() => dirs.cleanup());

describe('GH Archive source', () => {
  it('streams the hourly files, keeps issues with a matching text, their comments and whether they closed', async () => {
    const { items, stats } = await readArchive([resolve('data/samples/gharchive')], ecosystems, silentLogger);
    expect(stats).toEqual({ files: 4, lines: 34, malformed: 1, issueEvents: 26 });
    expect(items.map((i) => `${i.repo}#${i.issue_number}:${i.closed ? 'closed' : 'open'}${i.is_pull_request ? ':pr' : ''}`)).toEqual([
      'acme-web/checkout#4:open',
      'acme-web/storefront#14:closed',
      'acme-web/storefront#15:closed',
      'acme-web/storefront#17:closed:pr',
      'acme-web/storefront#7:closed',
      'acme-web/storefront#9:closed',
      'acme-web/widgets-kit#31:closed',
      'pyutils/dataflow#5:closed',
      'pyutils/ingest#12:closed',
      'rubyshop/storefront-api#3:closed',
    ]);
    const i14 = items.find((i) => i.issue_number === 14 && i.repo === 'acme-web/storefront')!;
    expect(i14.comments?.map((c) => c.id)).toEqual([1503300001, 1503300002]);
    // Siblings: the other closed issues (not pull requests) of the repository, for duplicates.
    expect(i14.siblings).toEqual(['15@2023-04-18T09:12:40Z', '7@2022-12-01T08:15:00Z', '9@2023-02-01T10:03:12Z']);
  });

  it('reads the same hours over HTTP (gzip decided by content) and plain JSON lines', async () => {
    const plain = join(dir, 'plain.json');
    writeFileSync(plain, '{"type":"WatchEvent"}\n');
    const server: Server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/gzip' });
      createReadStream(resolve('data/samples/gharchive', req.url!.slice(1))).pipe(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { items, stats } = await readArchive([`${base}/2023-04-11-15.json.gz`, `${base}/2023-05-02-12.json.gz`, plain], ecosystems, silentLogger);
      expect(stats.files).toBe(3);
      expect(items.filter((i) => i.closed).map((i) => i.issue_number).sort((a, b) => a - b)).toEqual([3, 5, 12, 14, 15, 17, 31]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('an edited comment keeps its newest text; a deleted one is gone', async () => {
    const repo = { id: 1, name: 'o/r', url: '' };
    const issue = { id: 9, number: 1, state: 'closed', created_at: '2024-01-01T00:00:00Z', body: 'install fails', html_url: 'https://github.com/o/r/issues/1' };
    const c = (id: number, body: string, action: string, at: string) =>
      JSON.stringify({ type: 'IssueCommentEvent', repo, created_at: at, payload: { action, issue, comment: { id, body, created_at: '2024-01-01T01:00:00Z', html_url: '' } } });
    const file = join(dir, 'edits.json.gz');
    writeFileSync(
      file,
      gzipSync([c(1, 'npm ERR! code ERESOLVE', 'created', '2024-01-01T01:00:00Z'), c(1, 'npm ERR! code ERESOLVE (edited)', 'edited', '2024-01-01T02:00:00Z'), c(2, 'npm ERR! peer dep missing: x', 'created', '2024-01-01T02:00:00Z'), c(2, '', 'deleted', '2024-01-01T03:00:00Z')].join('\n')),
    );
    const { items } = await readArchive([file], ecosystems, silentLogger);
    expect(items[0]!.comments).toEqual([{ id: 1, url: '', created_at: '2024-01-01T01:00:00Z', body: 'npm ERR! code ERESOLVE (edited)' }]);
  });
});

describe('conflicts → locate on the demo sample', () => {
  it('one row per matching comment; base commits, manifests, lockfiles and duplicates decided with reasons', async () => {
    const summaries = await runCommand(['conflicts', 'locate'], { config }, GRAPH, io);
    expect(summaries.map((s) => [s.stage, s.counts])).toEqual([
      ['conflicts', { accepted: 11, rejected: 2, error: 0 }],
      ['locate', { accepted: 4, rejected: 6, error: 1 }],
    ]);
    const conflicts = await sqlCommand(`select key, status, reason, matched_in, match_rank, snippet from conflicts order by key`, { config, format: 'json' }, GRAPH, io);
    const c = Object.fromEntries(conflicts.map((r) => [String(r.key), r.status === 'accepted' ? `${r.matched_in}:${r.match_rank}` : r.reason]));
    expect(c).toEqual({
      'acme-web/checkout#4': 'not_closed',
      'acme-web/storefront#14/npm-eresolve/1503300001': 'comment:1',
      'acme-web/storefront#14/npm-peer-dep/1503300002': 'comment:2',
      'acme-web/storefront#15/npm-eresolve/1600101015': 'body:1',
      'acme-web/storefront#17': 'pull_request',
      'acme-web/storefront#7/npm-eresolve/1600101007': 'body:1',
      'acme-web/storefront#9/npm-eresolve/1600101009': 'body:1',
      'acme-web/widgets-kit#31/npm-peer-dep/1600102031': 'body:1',
      'pyutils/dataflow#5/pip-conflict/1503300010': 'comment:1',
      'pyutils/dataflow#5/poetry-conflict/1503300010': 'comment:2',
      'pyutils/ingest#12/pip-conflict/1600202012': 'body:1',
      'pyutils/ingest#12/poetry-conflict/1600202012': 'body:2',
      'rubyshop/storefront-api#3/bundler-compat/1600301003': 'body:1',
    });
    expect(conflicts.find((r) => String(r.key).includes('#14/npm-eresolve'))!.snippet).toBe('npm ERR! code ERESOLVE');

    const located = await sqlCommand(`select key, status, reason, base_commit, manifest, lockfiles_found, duplicate_of from locate order by key`, { config, format: 'json' }, GRAPH, io);
    const l = Object.fromEntries(located.map((r) => [String(r.key).replace(/\/\d+$/, ''), r.status === 'accepted' ? `accepted:${(r.lockfiles_found as string[]).join(',')}` : r.reason]));
    expect(l).toEqual({
      'acme-web/storefront#14/npm-eresolve': 'accepted:package-lock.json',
      'acme-web/storefront#14/npm-peer-dep': 'duplicate_comment',
      'acme-web/storefront#15/npm-eresolve': 'duplicate_base_commit',
      'acme-web/storefront#7/npm-eresolve': 'no_commit_before_issue',
      'acme-web/storefront#9/npm-eresolve': 'accepted:package-lock.json',
      'acme-web/widgets-kit#31/npm-peer-dep': 'accepted:yarn.lock',
      'pyutils/dataflow#5/pip-conflict': 'no_lockfile',
      'pyutils/dataflow#5/poetry-conflict': 'no_manifest',
      'pyutils/ingest#12/pip-conflict': 'no_manifest',
      'pyutils/ingest#12/poetry-conflict': 'accepted:poetry.lock',
      'rubyshop/storefront-api#3/bundler-compat': 'repo_unavailable',
    });
    // The base commit is the newest default-branch commit at or before the issue was opened.
    const bare = join(dir, 'remotes/acme-web/storefront.git');
    const [third, second, first] = git(bare, 'rev-list', 'main').split('\n');
    const by = (k: string) => located.find((r) => String(r.key).startsWith(k))!;
    expect(by('acme-web/storefront#14/npm-eresolve').base_commit).toBe(second);
    expect(by('acme-web/storefront#9/').base_commit).toBe(first);
    expect(by('acme-web/storefront#15/').duplicate_of).toBe('acme-web/storefront#14');
    expect(by('acme-web/storefront#14/npm-peer-dep').duplicate_of).toBe('acme-web/storefront#14/npm-eresolve/1503300001');
    expect(located.map((r) => r.base_commit)).not.toContain(third);
  });

  it('does no work on a rerun', async () => {
    const summaries = await runCommand(['conflicts', 'locate'], { config }, GRAPH, io);
    expect(summaries.map((s) => [s.stage, s.processed])).toEqual([
      ['conflicts', 0],
      ['locate', 0],
    ]);
  });

  it('a missing GH Archive input stops the run with one message (exit 3)', async () => {
    const bad = writeConfig('bad', [join(dir, 'nope')]);
    await expect(runCommand(['conflicts'], { config: bad }, GRAPH, io)).rejects.toThrow(/conflicts\.gharchive: .*nope does not exist/);
  });
});
