import { Octokit } from 'octokit';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeRepo, generateRepos, startFakeGitHub, type FakeGitHub } from './servers/github-server.js';

/** The fake GitHub itself speaks the REST wire format octokit expects (it is reused by other tests). */

const TOKEN = 'ghp_serverserverserverserverserverserv1';
const servers: FakeGitHub[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function start(quota = 5000) {
  const s = await startFakeGitHub({ repos: [...generateRepos({ n: 1500, seed: 1, languages: ['Python'] }), fakeRepo(99_999, { fullName: 'solo/empty', contributors: 0, language: 'Go' })], tokens: { [TOKEN]: { quota } } });
  servers.push(s);
  return new Octokit({ auth: TOKEN, baseUrl: s.url, throttle: { enabled: false }, retry: { enabled: false } });
}

describe('fake GitHub: REST', () => {
  it('search/repositories: total_count, incomplete_results, Link pagination, and only the first 1,000 results', async () => {
    const octokit = await start();
    const first = await octokit.request('GET /search/repositories', { q: 'language:Python stars:>=10', per_page: 100 });
    expect(first.data.total_count).toBe(1500);
    expect(first.data.incomplete_results).toBe(false);
    expect(first.data.items).toHaveLength(100);
    expect(first.headers.link).toMatch(/page=2>; rel="next".*page=10>; rel="last"/);
    const all = await octokit.paginate('GET /search/repositories', { q: 'language:Python stars:>=10', per_page: 100 });
    expect(all).toHaveLength(1000);
    expect(new Set(all.map((r) => r.full_name)).size).toBe(1000);
    await expect(octokit.request('GET /search/repositories', { q: 'language:Python', per_page: 100, page: 11 })).rejects.toMatchObject({ status: 422 });
  });

  it('contributors: the Link header names the last page; an empty repository answers 204', async () => {
    const octokit = await start();
    const res = await octokit.request('GET /repos/{owner}/{repo}/contributors', { owner: 'org1', repo: 'project-1', per_page: 1, anon: 'true' });
    expect(res.data).toHaveLength(1);
    expect(res.headers.link).toMatch(/rel="last"/);
    const empty = await octokit.request('GET /repos/{owner}/{repo}/contributors', { owner: 'solo', repo: 'empty', per_page: 1 });
    expect(empty.status).toBe(204);
    await expect(octokit.request('GET /repos/{owner}/{repo}/contributors', { owner: 'no', repo: 'such' })).rejects.toMatchObject({ status: 404 });
  });

  it('rate-limit headers on every answer, 403 with remaining 0 once exhausted, 401 for an unknown token', async () => {
    const octokit = await start(2);
    const a = await octokit.request('GET /rate_limit');
    expect(a.headers['x-ratelimit-remaining']).toBe('1');
    expect(a.headers['x-ratelimit-resource']).toBe('core');
    await octokit.request('GET /rate_limit');
    await expect(octokit.request('GET /rate_limit')).rejects.toMatchObject({ status: 403, response: { headers: { 'x-ratelimit-remaining': '0' } } });
    const stranger = new Octokit({ auth: 'ghp_unknown0000000000000000000000000000', baseUrl: servers[0]!.url, throttle: { enabled: false }, retry: { enabled: false } });
    await expect(stranger.request('GET /rate_limit')).rejects.toMatchObject({ status: 401 });
  });
});
