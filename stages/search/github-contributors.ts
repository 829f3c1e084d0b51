import { mkdirSync } from 'node:fs';
import type { GitHubClient } from '../../pipeline/github/client.js';
import { Journal } from '../../pipeline/github/crawl-journal.js';
import { GitHubError } from '../../pipeline/github/errors.js';

/**
 * Contributor counts are not in GraphQL: REST `GET /repos/{owner}/{repo}/contributors` with
 * `per_page=1&anon=1` answers one contributor per page, so the page number of the `Link`
 * header's `rel="last"` is the count (no Link: 0 or 1 on the only page; 204: empty repository).
 * Asked only for finalists (candidates that passed every other criterion), and journaled next
 * to the crawl's checkpoint, so a rerun after a kill never asks twice for the same revision.
 */

export type ContributorCount = { count: number } | { tooLarge: true };

interface Entry {
  repo: string;
  revision: string | null;
  count: number | null;
  at: string;
}

const journals = new Map<string, { journal: Journal<Entry>; byKey: Map<string, Entry> }>();

function journalFor(crawlDirPath: string) {
  let j = journals.get(crawlDirPath);
  if (!j) {
    mkdirSync(crawlDirPath, { recursive: true });
    const journal = Journal.open<Entry>(crawlDirPath, 'contributors');
    j = { journal, byKey: new Map(journal.entries.map((e) => [`${e.repo}@${e.revision}`, e])) };
    journals.set(crawlDirPath, j);
  }
  return j;
}

/** For tests: close the open contributor journals (the files stay). */
export function closeContributorJournals(): void {
  for (const j of journals.values()) j.journal.close();
  journals.clear();
}

export async function contributorCount(
  client: GitHubClient,
  crawlDirPath: string,
  repository: string,
  revision: string | null,
  signal: AbortSignal,
): Promise<ContributorCount> {
  const j = journalFor(crawlDirPath);
  const key = `${repository}@${revision}`;
  const known = j.byKey.get(key);
  if (known) return known.count === null ? { tooLarge: true } : { count: known.count };
  const [owner, repo] = repository.split('/');
  let answer: ContributorCount;
  try {
    const res = await client.rest<unknown[]>('GET /repos/{owner}/{repo}/contributors', { owner, repo, per_page: 1, anon: 'true' }, signal);
    if (res.status === 204 || res.data === null) answer = { count: 0 };
    else {
      if (!Array.isArray(res.data)) throw new GitHubError(`GET /repos/${repository}/contributors: expected a JSON list`, res.status);
      const last = lastPage(res.headers.link);
      answer = { count: last ?? res.data.length };
    }
  } catch (err) {
    // GitHub refuses to count the contributors of very large histories with this 403.
    if (err instanceof GitHubError && err.status === 403 && /too large to list contributors/i.test(err.message)) answer = { tooLarge: true };
    else throw err;
  }
  const entry: Entry = { repo: repository, revision, count: 'count' in answer ? answer.count : null, at: new Date().toISOString() };
  j.journal.append(entry);
  j.byKey.set(key, entry);
  return answer;
}

/** The `page` of the `rel="last"` link, e.g. `<...contributors?per_page=1&anon=true&page=42>; rel="last"` → 42. */
export function lastPage(link: string | undefined): number | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part.trim());
    if (m && m[2]!.split(/\s+/).includes('last')) {
      const page = Number(new URL(m[1]!, 'http://x').searchParams.get('page'));
      if (Number.isSafeInteger(page) && page > 0) return page;
    }
  }
  return undefined;
}
