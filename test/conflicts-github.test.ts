import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../pipeline/config/load.js';
import { githubClientFor, resetGitHubClients } from '../pipeline/github/client.js';
import { silentLogger } from '../pipeline/log/logger.js';
import type { StageContext } from '../pipeline/stage.js';
import { conflictIssuesSource, conflictsStage } from '../stages/conflicts/index.js';
import { fetchComments } from '../stages/conflicts/github-issues.js';
import type { IssueItem } from '../stages/conflicts/issue-item.js';
import { locateStage } from '../stages/locate/index.js';
import { startFakeIssues, type FakeIssue, type FakeIssuesServer } from './servers/github-issues-server.js';

/** Mining and locating through the GitHub API, against a local server speaking its wire format. */
const TOKEN = 'ghp_fakeconflicts000000000000000000000000';
let gh: FakeIssuesServer;
const sha = (n: number) => n.toString(16).padStart(40, '0');

// 1,300 closed JavaScript issues whose comments carry an ERESOLVE error (more than search's 1,000 cap),
// spread over 2021-2023; plus one with 250 comments (pagination), a PR, an open issue.
const issues: FakeIssue[] = Array.from({ length: 1300 }, (_, i) => ({
  repo: `org${i % 7}/app${i % 50}`,
  number: 100 + i,
  id: 5_000_000 + i,
  title: 'install fails',
  body: 'see comments',
  state: 'closed' as const,
  created_at: new Date(Date.parse('2021-01-01T00:00:00Z') + i * 20 * 3600_000).toISOString().replace('.000Z', 'Z'),
  language: 'JavaScript',
  comments: [{ id: 9_000_000 + i, created_at: '2023-06-01T00:00:00Z', body: 'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree' }],
}));
const chatty: FakeIssue = {
  repo: 'acme/shop', number: 7, id: 77, title: 'peer deps', body: 'ci breaks', state: 'closed', created_at: '2023-03-10T12:00:00Z', language: 'JavaScript',
  comments: Array.from({ length: 250 }, (_, i) => ({ id: 70_000 + i, created_at: `2023-03-${String(10 + Math.floor(i / 24)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:30:00Z`, body: i === 233 ? 'finally:\nnpm ERR! code ERESOLVE\nthanks' : `comment ${i}` })),
};
const later: FakeIssue = { ...chatty, number: 8, id: 88, created_at: '2023-03-20T12:00:00Z', comments: [{ id: 80_001, created_at: '2023-03-20T13:00:00Z', body: 'npm ERR! code ERESOLVE' }] };

beforeAll(async () => {
  gh = await startFakeIssues({
    token: TOKEN,
    issues: [...issues, chatty, later, { ...chatty, number: 9, id: 99, pull_request: true }, { ...chatty, number: 10, id: 100, state: 'open' }],
    repos: [
      { fullName: 'acme/shop', defaultBranch: 'trunk', commits: [
        { sha: sha(1), date: '2023-01-01T00:00:00Z', files: ['package.json', 'README.md'] },
        { sha: sha(2), date: '2023-03-01T00:00:00Z', files: ['package.json', 'package-lock.json'] },
        { sha: sha(3), date: '2023-04-01T00:00:00Z', files: ['package.json', 'yarn.lock'] },
      ] },
      { fullName: 'acme/shop-fork', defaultBranch: 'main', fork: 'acme/shop', commits: [] },
      { fullName: 'acme/nolock', defaultBranch: 'main', commits: [{ sha: sha(9), date: '2022-01-01T00:00:00Z', files: ['package.json'] }] },
    ],
  });
});
afterAll(() => gh.close());
afterEach(() => resetGitHubClients());

function ctxFor(extra = ''): StageContext {
  const config = parseConfig(
    `dataset = "t"\n[github]\napi_url = "${gh.url}"\ntoken = "${TOKEN}"\nretries = 0\n` +
      `[conflicts]\nsource = "github"\ncreated_after = "2021-01-01"\ncreated_before = "2023-12-31"\n${extra}\n` +
      `[conflicts.ecosystems.npm-eresolve]\nquery = "\\"npm ERR! code ERESOLVE\\" is:issue in:comments state:closed language:JavaScript"\nregex = "npm ERR! code ERESOLVE"\n` +
      `[locate]\nvia = "api"\n`,
    't.toml',
    {},
  );
  return { config, dataset: 't', cacheDir: '/nonexistent', log: silentLogger, signal: new AbortController().signal };
}

describe('issue search (GitHub API)', () => {
  it('slices by creation date past the 1,000-result cap and finds every issue', async () => {
    const items = (await conflictIssuesSource.read(ctxFor('max_issues_per_ecosystem = 0'))) as IssueItem[];
    expect(items.length).toBe(1300 + 2);
    expect(new Set(items.map((i) => `${i.repo}#${i.issue_number}`)).size).toBe(items.length);
    const searches = gh.requests.filter((r) => r.path === '/search/issues');
    expect(searches.every((r) => /created:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\.\.\d{4}/.test(r.query.q!))).toBe(true);
    expect(searches.every((r) => Number(r.query.page) <= 10)).toBe(true);
    expect(items.find((i) => i.issue_number === 7)).toMatchObject({ comments: null, comments_count: 250, found_by: ['npm-eresolve'], siblings: ['8@2023-03-20T12:00:00Z'] });
  });

  it('stops each ecosystem at its bound', async () => {
    const items = (await conflictIssuesSource.read(ctxFor('max_issues_per_ecosystem = 120'))) as IssueItem[];
    expect(items.length).toBe(120);
  });

  it('pages through every comment of an issue (Link rel="next") and matches the one that carries the error', async () => {
    const ctx = ctxFor();
    const { comments, requests } = await fetchComments(githubClientFor(ctx.config.config.github, silentLogger), 'acme/shop', 7);
    expect([comments.length, requests]).toEqual([250, 3]);
    const item: IssueItem = {
      source: 'github', repo: 'acme/shop', issue_number: 7, issue_id: 77, issue_url: 'https://github.com/acme/shop/issues/7', title: 'peer deps',
      created_at: chatty.created_at, closed: true, is_pull_request: false, body: chatty.body, comments: null, comments_count: 250, siblings: [], found_by: ['npm-eresolve'],
    };
    const rows = (await conflictsStage.run(item, ctx)) as { key?: string; cells?: Record<string, unknown> }[];
    expect(rows.map((r) => [r.key, r.cells?.snippet, r.cells?.comment_id, r.cells?.comments_scanned])).toEqual([['acme/shop#7/npm-eresolve/70233', 'npm ERR! code ERESOLVE', 70233, 250]]);
  });
});

describe('locate through the API', () => {
  const row = (repo: string, number: number, created: string, extra: Record<string, unknown> = {}) => ({
    key: `${repo}#${number}/npm-eresolve/1`, ecosystem: 'npm-eresolve', repo, issue_number: number, issue_url: `https://github.com/${repo}/issues/${number}`,
    issue_created_at: created, comment_id: 1, snippet: 'npm ERR! code ERESOLVE', matched_at: created, match_rank: 1, earlier_matches: [], siblings: [], ...extra,
  });

  it('the newest default-branch commit at or before the issue (commits until=), files from contents at that ref', async () => {
    const out = await locateStage.run(row('acme/shop', 7, '2023-03-10T12:00:00Z'), ctxFor());
    expect(out).toMatchObject({ status: 'accepted', cells: { base_commit: sha(2), default_branch: 'trunk', manifest: 'package.json', lockfiles_found: ['package-lock.json'], via: 'api' } });
    const commits = gh.requests.filter((r) => r.path === '/repos/acme/shop/commits').at(-1)!;
    expect(commits.query).toMatchObject({ sha: 'trunk', until: '2023-03-10T12:00:00Z', per_page: '1' });
    expect(gh.requests.some((r) => r.path.startsWith('/repos/acme/shop/contents') && r.query.ref === sha(2))).toBe(true);
  });

  it('rejects forks, vanished repositories, missing lockfiles, issues before the first commit and duplicates of an earlier issue', async () => {
    const ctx = ctxFor();
    const decide = async (r: Record<string, unknown>) => {
      const o = await locateStage.run(r, ctx);
      return 'status' in o ? `${o.status}:${o.reason ?? ''}` : '';
    };
    expect(await decide(row('acme/shop-fork', 1, '2023-03-10T12:00:00Z'))).toBe('rejected:fork');
    expect(await decide(row('acme/gone', 1, '2023-03-10T12:00:00Z'))).toBe('rejected:repo_unavailable');
    expect(await decide(row('acme/nolock', 1, '2023-03-10T12:00:00Z'))).toBe('rejected:no_lockfile');
    expect(await decide(row('acme/shop', 2, '2022-06-01T00:00:00Z'))).toBe('rejected:no_commit_before_issue');
    expect(await decide(row('acme/shop', 8, '2023-03-20T12:00:00Z', { siblings: ['7@2023-03-10T12:00:00Z'] }))).toBe('rejected:duplicate_base_commit');
    // An earlier issue with another base commit is no duplicate.
    expect(await decide(row('acme/shop', 11, '2023-04-02T00:00:00Z', { siblings: ['7@2023-03-10T12:00:00Z'] }))).toBe('accepted:');
  });
});
