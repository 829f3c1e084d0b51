import type { GitHubClient } from '../../pipeline/github/client.js';
import { SEARCH_CAP, dayRange, partsFor, rangeText, splitRange, type DateRange } from '../../pipeline/github/search-slices.js';
import type { Logger } from '../../pipeline/log/logger.js';
import { issueKey, repoFromApiUrl, withSiblings, type IssueComment, type IssueItem } from './issue-item.js';
import type { CompiledEcosystem } from './match-text.js';

/**
 * SetupBench's mining through GitHub's issue search (appendix C.1), with the engine's client
 * (pipeline/github: token pool, throttling, retries). Search returns at most 1,000 results per
 * query whatever `total_count` says, so a query that counts more is split by `created:` ranges
 * (the same slicing as the repository crawl, pipeline/github/search-slices.ts) until each range
 * fits. Newest ranges first, and each ecosystem stops at its bound (SetupBench: 500).
 */

const PER_PAGE = 100;

interface SearchIssue {
  id: number;
  number: number;
  html_url: string;
  repository_url: string;
  title?: string;
  body?: string | null;
  state: string;
  created_at: string;
  comments?: number;
  pull_request?: unknown;
}

export interface IssueSearchOptions {
  client: GitHubClient;
  ecosystems: readonly CompiledEcosystem[];
  /** Per ecosystem; 0: no bound. */
  maxPerEcosystem: number;
  createdAfter: string;
  createdBefore: string;
  log: Logger;
  signal?: AbortSignal;
}

export interface IssueSearchResult {
  items: IssueItem[];
  requests: number;
  /** Ranges of one second that still counted more than 1,000: only their first 1,000 were reachable. */
  overfull: number;
}

export async function searchClosedIssues(o: IssueSearchOptions): Promise<IssueSearchResult> {
  const found = new Map<string, IssueItem>();
  let requests = 0;
  let overfull = 0;
  const page = async (q: string, n: number, perPage: number) => {
    requests++;
    const res = await o.client.rest<{ total_count: number; items: SearchIssue[] }>('GET /search/issues', { q, per_page: perPage, page: n }, o.signal);
    return res.data;
  };
  for (const eco of o.ecosystems) {
    const bound = o.maxPerEcosystem > 0 ? o.maxPerEcosystem : Infinity;
    let taken = 0;
    const take = (hit: SearchIssue) => {
      const repo = repoFromApiUrl(hit.repository_url);
      if (!repo) return;
      const key = issueKey(repo, hit.number);
      const known = found.get(key);
      if (known) {
        if (!known.found_by.includes(eco.name)) known.found_by.push(eco.name);
      } else found.set(key, toItem(repo, hit, eco.name));
      taken++;
    };
    // Depth-first over date ranges, newest first: a range under the cap is paged through.
    const visit = async (range: DateRange, knownCount?: number): Promise<void> => {
      if (taken >= bound) return;
      const q = `${eco.query} created:${rangeText(range)}`;
      let count = knownCount;
      let first: SearchIssue[] | undefined;
      if (count === undefined) {
        const d = await page(q, 1, PER_PAGE);
        count = d.total_count;
        first = d.items;
      }
      const oneSecond = range.hi - range.lo < 1000;
      if (count > SEARCH_CAP && !oneSecond) {
        for (const part of splitRange(range, partsFor(count)).reverse()) await visit(part);
        return;
      }
      if (count > SEARCH_CAP) {
        overfull++;
        o.log.warn(`conflicts: ${eco.name}: ${count} issues created in the one second ${rangeText(range)}; only the first ${SEARCH_CAP} are reachable`);
      }
      const pages = Math.ceil(Math.min(count, SEARCH_CAP) / PER_PAGE);
      for (let n = 1; n <= pages && taken < bound; n++) {
        const items = n === 1 && first ? first : (await page(q, n, PER_PAGE)).items;
        for (const hit of items) {
          if (taken >= bound) break;
          take(hit);
        }
        if (items.length < PER_PAGE) break;
      }
    };
    await visit(dayRange(o.createdAfter, o.createdBefore));
    o.log.info(`conflicts: ${eco.name}: ${taken} issues from the issue search`);
  }
  return { items: withSiblings([...found.values()].sort((a, b) => (issueKey(a.repo, a.issue_number) < issueKey(b.repo, b.issue_number) ? -1 : 1))), requests, overfull };
}

function toItem(repo: string, hit: SearchIssue, ecosystem: string): IssueItem {
  return {
    source: 'github',
    repo,
    issue_number: hit.number,
    issue_id: hit.id,
    issue_url: hit.html_url,
    title: hit.title ?? '',
    created_at: hit.created_at,
    closed: hit.state === 'closed',
    is_pull_request: hit.pull_request !== undefined && hit.pull_request !== null,
    body: hit.body ?? '',
    comments: null,
    comments_count: hit.comments ?? 0,
    siblings: [],
    found_by: [ecosystem],
  };
}

interface ApiComment {
  id: number;
  html_url: string;
  created_at: string;
  body?: string | null;
}

/** Every comment of an issue, oldest first, following the pagination (`Link: rel="next"`). */
export async function fetchComments(client: GitHubClient, repo: string, number: number, signal?: AbortSignal): Promise<{ comments: IssueComment[]; requests: number }> {
  const [owner, name] = repo.split('/') as [string, string];
  const out: IssueComment[] = [];
  let requests = 0;
  for (let page = 1; ; page++) {
    requests++;
    const res = await client.rest<ApiComment[]>('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner, repo: name, issue_number: number, per_page: PER_PAGE, page }, signal);
    const items = Array.isArray(res.data) ? res.data : [];
    for (const c of items) out.push({ id: c.id, url: c.html_url, created_at: c.created_at, body: c.body ?? '' });
    const next = /<[^>]+>;\s*rel="next"/.test(res.headers.link ?? '');
    if (!next || items.length === 0) break;
  }
  return { comments: out, requests };
}
