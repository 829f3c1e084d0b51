import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig, type LoadedConfig } from '../pipeline/config/load.js';
import { SetupError } from '../pipeline/errors.js';
import { resetGitHubClients } from '../pipeline/github/client.js';
import { GRAPH } from '../pipeline/graph.js';
import { createLogger } from '../pipeline/log/logger.js';
import { clearSecrets } from '../pipeline/log/secrets.js';
import { runStage } from '../pipeline/runner/run-stage.js';
import { ArtifactStore } from '../pipeline/store/artifact-store.js';
import { layoutFor } from '../pipeline/store/layout.js';
import type { StageContext } from '../pipeline/stage.js';
import { closeContributorJournals } from '../stages/search/github-contributors.js';
import { searchStage } from '../stages/search/index.js';
import type { RawRecord } from '../stages/search/seart-export.js';
import { fakeRepo, generateRepos, LICENSES, startFakeGitHub, type FakeGitHub, type FakeRepo, type TokenQuota } from './servers/github-server.js';
import { tempDirs } from './helpers/temp-dir.js';

/**
 * The GitHub source of `search` end to end: the real octokit client against the fake GitHub
 * of test/servers/github-server.ts, the real runner and Parquet store.
 */

const dirs = tempDirs();
const servers: FakeGitHub[] = [];
afterEach(async () => {
  closeContributorJournals();
  resetGitHubClients();
  clearSecrets();
  for (const s of servers.splice(0)) await s.close();
  dirs.cleanup();
});

// Token-shaped values, so a leak would be visible.
const TOKENS = ['ghp_AAAAaaaa1111bbbb2222cccc3333dddd4444', 'ghp_BBBBeeee5555ffff6666gggg7777hhhh8888', 'ghp_CCCCiiii9999jjjj0000kkkk1111llll2222'];
const ALLOWED = ['MIT', 'Apache-2.0', 'BSD-3-Clause'];

async function server(repos: FakeRepo[], quotas: TokenQuota[] = [{}, {}], delayMs = 0): Promise<FakeGitHub> {
  const s = await startFakeGitHub({ repos, tokens: Object.fromEntries(quotas.map((q, i) => [TOKENS[i]!, q])), delayMs });
  servers.push(s);
  return s;
}

interface Setup {
  dataDir: string;
  config: LoadedConfig;
  text: string;
  env: NodeJS.ProcessEnv;
}

function setup(s: FakeGitHub, opts: { search?: string; github?: string; tokens?: number; viaEnvUrl?: boolean } = {}): Setup {
  const dataDir = dirs.make('envforge-gh-');
  const text = [
    'dataset = "gh"',
    `data_dir = ${JSON.stringify(dataDir)}`,
    '[run]',
    'jobs = 4',
    'batch_size = 25',
    'flush_seconds = 0.2',
    'progress_seconds = 60',
    'log_level = "silent"',
    '[search]',
    'source = "github"',
    `licenses = ${JSON.stringify(ALLOWED)}`,
    opts.search ?? '',
    '[github]',
    opts.viaEnvUrl ? 'api_url = "https://api.github.com"' : `api_url = ${JSON.stringify(s.url)}`,
    'tokens = "${GITHUB_TOKENS:-}"',
    'graphql_interval_ms = 0',
    'retry_base_ms = 20',
    'retries = 3',
    opts.github ?? '',
    '',
  ].join('\n');
  const env: NodeJS.ProcessEnv = { GITHUB_TOKENS: TOKENS.slice(0, opts.tokens ?? 2).join(','), ...(opts.viaEnvUrl ? { ENVFORGE_GITHUB_API_URL: s.url } : {}) };
  return { dataDir, text, env, config: parseConfig(text, 'gh.toml', env) };
}

async function runSearch(st: Setup, logLines: string[] = []) {
  const saved = { ...process.env };
  if (st.env.ENVFORGE_GITHUB_API_URL) {
    process.env.ENVFORGE_GITHUB_API_URL = st.env.ENVFORGE_GITHUB_API_URL;
    process.env.GITHUB_TOKENS = st.env.GITHUB_TOKENS;
  }
  const store = await ArtifactStore.open(layoutFor(st.dataDir, 'gh'));
  const log = createLogger('debug', (l) => logLines.push(l));
  try {
    const summary = await runStage(searchStage, { graph: GRAPH, store, config: st.config, log }, { progressStream: devNull() });
    return summary;
  } finally {
    store.close();
    for (const k of ['ENVFORGE_GITHUB_API_URL', 'GITHUB_TOKENS']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
}

async function rows(st: Setup): Promise<Record<string, unknown>[]> {
  const store = await ArtifactStore.open(layoutFor(st.dataDir, 'gh'));
  try {
    return store.hasParts('search') ? await store.latestRows(searchStage) : [];
  } finally {
    store.close();
  }
}

async function historyCount(st: Setup): Promise<{ rows: number; keys: number }> {
  const store = await ArtifactStore.open(layoutFor(st.dataDir, 'gh'));
  try {
    if (!store.hasParts('search')) return { rows: 0, keys: 0 };
    const [r] = await store.duck.all(`SELECT count(*) AS rows, count(DISTINCT key) AS keys FROM (${store.historySql(searchStage)})`);
    return { rows: Number(r!.rows), keys: Number(r!.keys) };
  } finally {
    store.close();
  }
}

function devNull(): NodeJS.WritableStream {
  return { write: () => true } as unknown as NodeJS.WritableStream;
}

/** What the default search families match: the candidates. */
const isCandidate = (r: FakeRepo) =>
  ['python', 'java', 'kotlin'].includes((r.language ?? '').toLowerCase()) && r.stars >= 10 && !r.fork && !r.archived && r.pushedAt >= '2024-01-01';

/** EnvBench's criteria, written out independently of criteria.ts. */
const passes = (r: FakeRepo) =>
  isCandidate(r) &&
  r.defaultBranch !== null &&
  r.commits >= 1000 &&
  r.issues >= 10 &&
  r.contributors >= 10 &&
  r.committedDate.slice(0, 10) >= '2024-01-01' &&
  r.license !== null &&
  ALLOWED.includes(r.license.spdx);

/** Everything but contributors: who gets a contributor request. */
const finalist = (r: FakeRepo) => passes({ ...r, contributors: 10 });

const contributorPaths = (s: FakeGitHub) => s.requests.filter((r) => r.kind === 'contributors').map((r) => r.path.split('/').slice(2, 4).join('/'));

/** Repositories the search families do NOT match: they must never become candidates. */
function noise(firstId: number): FakeRepo[] {
  return [
    fakeRepo(firstId, { language: 'Go' }),
    fakeRepo(firstId + 1, { fork: true }),
    fakeRepo(firstId + 2, { archived: true }),
    fakeRepo(firstId + 3, { stars: 9 }),
    fakeRepo(firstId + 4, { pushedAt: '2023-12-31T23:59:59Z', committedDate: '2023-12-31T23:00:00Z' }),
  ];
}

describe('github source: a complete crawl', () => {
  it('crawls a query above 1,000 hits completely by date slicing, and selects exactly the expected set', async () => {
    const repos = [
      ...generateRepos({ n: 2600, seed: 11, languages: ['Python'] }),
      ...generateRepos({ n: 450, seed: 12, languages: ['Java', 'Kotlin'], firstId: 5001 }),
      ...noise(9001),
    ];
    const s = await server(repos);
    const st = setup(s);
    const summary = await runSearch(st);
    const candidates = repos.filter(isCandidate);
    expect(candidates.length).toBeGreaterThan(3000);
    expect(summary.inputs).toBe(candidates.length);

    const out = await rows(st);
    expect(out.map((r) => r.key).sort()).toEqual(candidates.map((r) => r.fullName).sort());
    const accepted = out.filter((r) => r.status === 'accepted').map((r) => String(r.key)).sort();
    expect(accepted).toEqual(repos.filter(passes).map((r) => r.fullName).sort());
    expect(out.filter((r) => r.status === 'error')).toEqual([]);

    // Slicing: no page was ever asked of a query GitHub would have cut at 1,000.
    const parts = s.requests.flatMap((r) => r.parts.filter((p) => p.first > 0));
    expect(parts.length).toBeGreaterThan(0);
    expect(parts.every((p) => p.count <= 1000)).toBe(true);
    // The Python family alone counts more than 1,000, so it was split.
    expect(s.requests.some((r) => r.kind === 'graphql-count' && r.parts.some((p) => p.query.startsWith('language:Python') && p.count > 1000))).toBe(true);

    // Contributors were asked for the finalists and nobody else, once each.
    expect(contributorPaths(s).sort()).toEqual(repos.filter(finalist).map((r) => r.fullName).sort());

    // Every row pins the head SHA at crawl time and says when the crawl read it.
    const byName = new Map(repos.map((r) => [r.fullName, r]));
    for (const r of out.filter((x) => x.status === 'accepted').slice(0, 50)) {
      expect(r.revision).toBe(byName.get(String(r.key))!.headSha);
      expect(r.source).toBe('github');
      expect(r.crawled_at).toBeTruthy();
      expect(r.github_id).toBe(byName.get(String(r.key))!.id);
    }

    // Discovery + enrichment stay near one request per 100 candidates.
    const pages = s.count('graphql-search');
    expect(pages).toBeLessThanOrEqual(Math.ceil(candidates.length / 100) + 2);

    // A rerun asks GitHub nothing: the finished crawl is reused and every row is done.
    const before = s.requests.length;
    const again = await runSearch(st);
    expect(again.processed).toBe(0);
    expect(again.done).toBe(candidates.length);
    expect(s.requests.length).toBe(before);
  });

  it('decontamination knobs become search qualifiers and bound the date slicing', async () => {
    const repos = [
      fakeRepo(1, { createdAt: '2023-12-31T23:59:59Z' }),
      fakeRepo(2, { createdAt: '2024-01-01T00:00:00Z', pushedAt: '2024-07-01T00:00:00Z', committedDate: '2024-07-01T00:00:00Z' }),
      fakeRepo(3, { createdAt: '2024-02-01T00:00:00Z', pushedAt: '2024-05-31T10:00:00Z', committedDate: '2024-05-31T10:00:00Z' }),
      fakeRepo(4, { createdAt: '2024-03-01T00:00:00Z', pushedAt: '2024-08-01T00:00:00Z', committedDate: '2024-05-01T00:00:00Z' }),
      fakeRepo(5, { createdAt: '2025-02-01T00:00:00Z', pushedAt: '2025-03-01T00:00:00Z', committedDate: '2025-03-01T00:00:00Z' }),
    ];
    const s = await server(repos);
    const st = setup(s, { search: 'created_after = "2024-01-01"\ncreated_before = "2024-12-31"\npushed_after = "2024-06-01"\nlast_commit_after = "2024-06-01"' });
    await runSearch(st);
    const out = await rows(st);
    expect(out.map((r) => [r.key, r.status, r.reason])).toEqual([
      [repos[1]!.fullName, 'accepted', null],
      [repos[3]!.fullName, 'rejected', 'last_commit_too_old'],
    ].sort());
    const queries = s.requests.flatMap((r) => r.parts.map((p) => p.query));
    expect(queries.every((q) => q.includes('pushed:>=2024-06-01') && /created:2024-01-01T00:00:00Z\.\.2024-12-31T23:59:59Z/.test(q))).toBe(true);
  });

  it('search.max_results caps the crawl', async () => {
    const s = await server(generateRepos({ n: 700, seed: 3, languages: ['Python'] }));
    const st = setup(s, { search: 'max_results = 250', github: 'page_size = 100' });
    const summary = await runSearch(st);
    expect(summary.inputs).toBe(250);
    expect(s.count('graphql-search')).toBe(3);
  });
});

describe('github source: the same criteria and reasons as a SEART-GHS export', () => {
  const cases: [string, Partial<FakeRepo>, string | null][] = [
    ['at every threshold', {}, null],
    ['999 commits', { commits: 999 }, 'too_few_commits'],
    ['9 issues', { issues: 9, closedIssues: 4 }, 'too_few_issues'],
    ['9 contributors', { contributors: 9 }, 'too_few_contributors'],
    ['last commit 2023-12-31', { committedDate: '2023-12-31T23:59:59Z' }, 'last_commit_too_old'],
    ['last commit 2024-01-01', { committedDate: '2024-01-01T00:00:00Z' }, null],
    ['GPL', { license: LICENSES.gpl3 }, 'license_not_allowed'],
    ['Other', { license: LICENSES.other }, 'license_not_allowed'],
    ['no license', { license: null }, 'no_license'],
    ['Apache', { license: LICENSES.apache }, null],
    ['Kotlin', { language: 'Kotlin' }, null],
    ['many commits, few issues and contributors', { commits: 5000, issues: 3, closedIssues: 1, contributors: 2 }, 'too_few_issues'],
  ];

  it.each(cases)('%s', async (_name, overrides, reason) => {
    const repo = fakeRepo(42, overrides);
    const s = await server([repo]);
    const st = setup(s);
    await runSearch(st);
    const [row] = await rows(st);
    expect(row?.status).toBe(reason === null ? 'accepted' : 'rejected');
    expect(row?.reason).toBe(reason);

    // The same facts as a SEART-GHS record, through the SEART path.
    const seart = await searchStage.run(seartRecord(repo), seartCtx());
    const o = Array.isArray(seart) ? seart[0]! : seart;
    expect([o.status, o.reason ?? null]).toEqual([row?.status, row?.reason]);
    if (reason !== null) expect(row?.reason_text).toBe(o.reason_text);
    expect(contributorPaths(s)).toEqual(finalist(repo) ? [repo.fullName] : []);
  });

  it('an empty repository is too_few_commits without a contributor request; a history too large to count is accepted', async () => {
    const empty = fakeRepo(1, { defaultBranch: null, contributors: 0 });
    const huge = fakeRepo(2, { contributorsTooLarge: true, commits: 400_000 });
    const s = await server([empty, huge]);
    const st = setup(s);
    await runSearch(st);
    const out = new Map((await rows(st)).map((r) => [r.key, r]));
    expect(out.get(empty.fullName)).toMatchObject({ status: 'rejected', reason: 'too_few_commits', revision: null });
    expect(out.get(huge.fullName)).toMatchObject({ status: 'accepted', contributors: null });
    expect(contributorPaths(s)).toEqual([huge.fullName]);
  });

  function seartRecord(r: FakeRepo): RawRecord {
    return {
      __row: 1,
      id: r.id,
      name: r.fullName,
      isFork: r.fork,
      commits: r.commits,
      mainLanguage: r.language,
      defaultBranch: r.defaultBranch,
      license: r.license?.name ?? '',
      stargazers: r.stars,
      contributors: r.contributors,
      createdAt: r.createdAt.replace('Z', ''),
      pushedAt: r.pushedAt.replace('Z', ''),
      totalIssues: r.issues,
      openIssues: r.issues - r.closedIssues,
      lastCommit: r.committedDate.replace('Z', ''),
      lastCommitSHA: r.headSha,
      isArchived: r.archived,
    };
  }

  function seartCtx(): StageContext {
    const text = `dataset = "s"\n[search]\nexport = "x.csv"\nlicenses = ${JSON.stringify(ALLOWED)}\n`;
    return { config: parseConfig(text, 's.toml', {}), dataset: 's', cacheDir: '/nonexistent', log: createLogger('silent'), signal: new AbortController().signal };
  }
});

describe('github client: tokens, rate limits, retries, answers that are not JSON', () => {
  it('rotates to the next token when one is exhausted (refused, or reported at 0 remaining)', async () => {
    const repos = generateRepos({ n: 900, seed: 5, languages: ['Java'] });
    // #1 is already exhausted (GitHub refuses its first request), #2 has 4 requests per resource.
    const s = await server(repos, [{ quota: 0 }, { quota: 4 }, {}]);
    const st = setup(s, { tokens: 3, github: 'page_size = 50' });
    const logs: string[] = [];
    const summary = await runSearch(st, logs);
    expect(summary.inputs).toBe(repos.filter(isCandidate).length);
    expect((await rows(st)).filter((r) => r.status === 'accepted').length).toBe(repos.filter(passes).length);
    const by = (t: string, kind: 'graphql' | 'contributors') => s.requests.filter((r) => r.token === t && (kind === 'contributors' ? r.kind === 'contributors' : r.kind.startsWith('graphql')));
    // #1: one refused request per resource (GraphQL is sequential; contributors run `jobs` at
    // once, so up to 4 may be in flight before the first refusal), then never again.
    expect(by('t1', 'graphql').map((r) => r.status)).toEqual([200]);
    expect(by('t1', 'contributors').length).toBeLessThanOrEqual(4);
    expect(by('t1', 'contributors').every((r) => r.status === 403)).toBe(true);
    // #2: its 4 requests, then left alone without being refused (x-ratelimit-remaining said 0).
    expect(by('t2', 'graphql').length).toBe(4);
    expect(by('t2', 'contributors').length).toBe(4);
    expect(s.requests.filter((r) => r.token === 't2' && r.status !== 200).length).toBe(0);
    expect(by('t3', 'graphql').length).toBeGreaterThan(10);
    expect(logs.join('\n')).toContain('switching to token #');
    for (const t of TOKENS) expect(logs.join('\n')).not.toContain(t);
  });

  it('stops with a SetupError naming the reset time when every token is exhausted, and resumes later', async () => {
    const repos = generateRepos({ n: 300, seed: 6, languages: ['Python'] });
    const s = await server(repos, [{ quota: 2, resetInSeconds: 7200 }, { quota: 1, resetInSeconds: 3600 }]);
    const st = setup(s, { github: 'page_size = 50\nmax_rate_limit_wait_seconds = 5' });
    const err = await runSearch(st).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SetupError);
    expect((err as Error).message).toMatch(/rate limit of every GitHub token \(2\) is exhausted until \d{4}-\d\d-\d\dT/);
    expect((err as Error).message).toContain('rerun');
    for (const t of TOKENS) expect((err as Error).message).not.toContain(t);
    expect(await rows(st)).toEqual([]);
    const answered = s.requests.filter((r) => r.status === 200).map((r) => r.signature);
    expect(answered.length).toBe(3);

    // "Later": a server with fresh quotas over the same data; the checkpoint skips what was answered.
    const s2 = await server(repos);
    const st2 = { ...st, config: parseConfig(st.text.replace(s.url, s2.url), 'gh.toml', st.env) };
    await runSearch(st2);
    expect((await rows(st2)).length).toBe(repos.filter(isCandidate).length);
  });

  it('honours retry-after of a secondary rate limit', async () => {
    const repos = generateRepos({ n: 150, seed: 7, languages: ['Python'] });
    const s = await server(repos);
    s.fault({ on: 'graphql-search', secondary: 1 });
    const st = setup(s);
    await runSearch(st);
    const searches = s.requests.filter((r) => r.kind === 'graphql-search');
    expect(searches[0]!.status).toBe(403);
    expect(searches[1]!.signature).toBe(searches[0]!.signature);
    expect(searches[1]!.at - searches[0]!.at).toBeGreaterThanOrEqual(950);
    expect((await rows(st)).length).toBe(repos.filter(isCandidate).length);
  });

  it('retries 5xx answers and reset connections', async () => {
    const repos = generateRepos({ n: 120, seed: 8, languages: ['Python'], passShare: 1 });
    const s = await server(repos);
    s.fault({ on: 'graphql', status: 502, html: true, times: 2 });
    s.fault({ on: 'contributors', status: 503 });
    s.fault({ on: 'contributors', reset: true });
    const st = setup(s);
    await runSearch(st);
    const first = s.requests.find((r) => r.kind.startsWith('graphql'))!;
    expect(s.requests.filter((r) => r.signature === first.signature).map((r) => r.status)).toEqual([502, 502, 200]);
    const out = await rows(st);
    expect(out.filter((r) => r.status === 'accepted').length).toBe(repos.filter(passes).length);
    expect(out.filter((r) => r.status === 'error')).toEqual([]);
  });

  it('an HTML page with status 200 is an error, never "no results"; a rerun resumes', async () => {
    const repos = generateRepos({ n: 250, seed: 9, languages: ['Python'] });
    const s = await server(repos);
    s.fault({ on: 'graphql-search', html200: true });
    const st = setup(s, { github: 'page_size = 100' });
    const err = await runSearch(st).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SetupError);
    expect((err as Error).message).toMatch(/HTTP 200 with text\/html; charset=utf-8 instead of JSON/);
    expect((err as Error).message).toContain('Unicorn');
    expect(await rows(st)).toEqual([]);
    const answeredBefore = s.requests.filter((r) => r.status === 200).length;
    await runSearch(st);
    expect((await rows(st)).length).toBe(repos.filter(isCandidate).length);
    // The count request answered before the HTML page was not asked again.
    const counts = s.requests.filter((r) => r.kind === 'graphql-count');
    expect(new Set(counts.map((r) => r.signature)).size).toBe(counts.length);
    expect(answeredBefore).toBe(2);
  });

  it('a 5xx HTML page that outlasts the retries stops the crawl naming the status', async () => {
    const s = await server(generateRepos({ n: 50, seed: 10 }));
    s.fault({ on: 'graphql', status: 502, html: true, times: 10 });
    const st = setup(s);
    const err = await runSearch(st).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SetupError);
    expect((err as Error).message).toMatch(/HTTP 502 with text\/html.* instead of JSON/);
    expect(s.requests.length).toBe(4); // 1 + 3 retries
  });

  it('ENVFORGE_GITHUB_API_URL points any config at another server', async () => {
    const repos = [fakeRepo(1), fakeRepo(2, { commits: 10 })];
    const s = await server(repos);
    const st = setup(s, { viaEnvUrl: true });
    await runSearch(st);
    expect((await rows(st)).map((r) => r.status).sort()).toEqual(['accepted', 'rejected']);
  });
});

describe('configs/default.toml with source = "github"', () => {
  it('selects exactly the expected set from the server ENVFORGE_GITHUB_API_URL names, with tokens from $GITHUB_TOKENS', async () => {
    const repos = [...generateRepos({ n: 40, seed: 31 }), ...noise(9001)];
    const s = await server(repos);
    const dataDir = dirs.make('envforge-gh-default-');
    const shipped = readFileSync('configs/default.toml', 'utf8');
    expect(shipped).toContain('source = "seart"');
    const text = shipped.replace('source = "seart"', 'source = "github"');
    const env = { GITHUB_TOKENS: TOKENS[0]!, ENVFORGE_GITHUB_API_URL: s.url };
    const st: Setup = { dataDir, text, env, config: parseConfig(text, 'configs/default.toml', env) };
    await runSearch(st);
    const out = await rows(st);
    expect(out.filter((r) => r.status === 'accepted').map((r) => String(r.key)).sort()).toEqual(repos.filter(passes).map((r) => r.fullName).sort());
    expect(out.length).toBe(repos.filter(isCandidate).length);
  });
});

describe('github source: secrets', () => {
  it('no token in any artifact, checkpoint, error row or log line, even when the server echoes it', async () => {
    const repos = generateRepos({ n: 60, seed: 13, languages: ['Python'], passShare: 1 });
    const s = await server(repos);
    // Every contributor request is answered by a page that shows the Authorization header.
    s.fault({ on: 'contributors', echoToken: true, times: 10_000 });
    const st = setup(s);
    const logs: string[] = [];
    await runSearch(st, logs);
    const out = await rows(st);
    const errors = out.filter((r) => r.status === 'error');
    expect(errors).toHaveLength(repos.filter(finalist).length);
    for (const e of errors) {
      expect(e.reason).toBe('github_error');
      expect(String(e.reason_text)).toMatch(/HTTP 502 with text\/html.*token \*\*\*/);
    }
    const files = walk(st.dataDir);
    expect(files.some((f) => f.endsWith('journal.jsonl'))).toBe(true);
    expect(files.some((f) => f.endsWith('.parquet'))).toBe(true);
    // Not even a part of one (a message cut after the first characters of a token).
    const pieces = TOKENS.map((t) => t.slice(0, 12));
    for (const f of files) {
      const bytes = readFileSync(f).toString('latin1');
      for (const p of pieces) expect(bytes.includes(p), `${f} holds (part of) a token`).toBe(false);
    }
    // Parquet pages are compressed: read every row back through DuckDB too.
    const store = await ArtifactStore.open(layoutFor(st.dataDir, 'gh'));
    const all = JSON.stringify(await store.duck.all(store.historySql(searchStage)), (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
    store.close();
    expect(all).toContain('token ***');
    for (const p of pieces) expect(all).not.toContain(p);
    expect(logs.length).toBeGreaterThan(0);
    for (const line of logs) for (const p of pieces) expect(line).not.toContain(p);
  });
});

describe('github source: resume after a kill', () => {
  it('a crawl SIGKILLed mid-way resumes without repeating an answered request, losing or duplicating a repository', async () => {
    const repos = [...generateRepos({ n: 2200, seed: 21, languages: ['Python'] }), ...noise(9001)];
    const s = await server(repos);
    const st = setup(s, { github: 'page_size = 100' });
    const cfg = join(st.dataDir, 'gh.toml');
    writeFileSync(cfg, st.text);
    // The 7th page request (and every later one) is never answered: the child is killed while waiting.
    s.holdAfter(6, 'graphql-search');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', `import { main } from './pipeline/cli/main.ts'; process.exitCode = await main(['node', 'envforge', '--config', ${JSON.stringify(cfg)}, 'run', 'search']);`],
      { cwd: process.cwd(), env: { ...process.env, ...st.env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let exited = false;
    child.on('exit', () => (exited = true));
    const deadline = Date.now() + 30_000;
    while (s.held() === 0 && Date.now() < deadline && !exited) await sleep(20);
    expect(s.held(), stderr).toBe(1);
    await sleep(200);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('close', r));
    expect(await historyCount(st)).toEqual({ rows: 0, keys: 0 });

    const answeredBeforeKill = new Set(s.requests.filter((r) => r.answered && r.status === 200).map((r) => r.signature));
    expect(answeredBeforeKill.size).toBeGreaterThanOrEqual(8); // counts + 6 pages
    const seqAtKill = s.requests.length;
    s.holdAfter(Number.MAX_SAFE_INTEGER, 'graphql-search');

    await runSearch(st);
    const after = s.requests.slice(seqAtKill);
    const repeated = after.filter((r) => answeredBeforeKill.has(r.signature));
    expect(repeated).toEqual([]);
    // The held request was never answered, so it is asked again exactly once.
    const heldSig = s.requests.find((r) => r.kind === 'graphql-search' && !r.answered)!.signature;
    expect(after.filter((r) => r.signature === heldSig)).toHaveLength(1);

    const out = await rows(st);
    const candidates = repos.filter(isCandidate).map((r) => r.fullName).sort();
    expect(out.map((r) => String(r.key)).sort()).toEqual(candidates);
    expect(await historyCount(st)).toEqual({ rows: candidates.length, keys: candidates.length });
    expect(out.filter((r) => r.status === 'accepted').map((r) => String(r.key)).sort()).toEqual(repos.filter(passes).map((r) => r.fullName).sort());
    for (const t of TOKENS) expect(stderr).not.toContain(t);
  });
});

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}
