import type { Logger } from '../log/logger.js';
import type { GitHubClient } from './client.js';
import { crawlDir, Journal, lockCrawl } from './crawl-journal.js';
import { GitHubError } from './errors.js';
import { planSlices, rangeText, SEARCH_CAP, type DateRange, type Slice } from './search-slices.js';

/**
 * A complete, resumable crawl of GitHub repository search through GraphQL, where discovery
 * and enrichment are the same request: every page of `search(type: REPOSITORY)` carries the
 * fields the caller asks for (`nodeFields`), so 100 candidates cost one request.
 *
 * 1. Count: `repositoryCount` of each family's whole range, several ranges per request
 *    (aliases, `first: 0`). A range above 1,000 is split by creation date and its parts are
 *    counted in the next request, until every leaf is at most 1,000 (search-slices.ts).
 * 2. Fetch: pages of up to `pageSize` nodes, packed across slices: a request may carry the
 *    tail of one slice and the head of the next (one alias each), so partial pages cost no
 *    extra requests. Each slice keeps its cursor.
 * 3. Every answer is journaled before the next request (crawl-journal.ts): a rerun replays
 *    counts, cursors and nodes and continues; a finished crawl is reused without a request.
 * A slice whose count grew past the cap while crawling is split again (its nodes are kept).
 */

export interface CrawlSpec {
  apiUrl: string;
  /** Base queries (qualifiers without `created:`), one per family, e.g. one per language. */
  families: string[];
  /** Earliest creation date (YYYY-MM-DD). */
  createdFrom: string;
  /** Latest creation date (YYYY-MM-DD); undefined: the day the crawl starts (recorded). */
  createdTo?: string;
  maxResults: number;
  snapshot: string;
  /** GraphQL selection of a Repository node: part of the spec, so other fields are another crawl. */
  nodeFields: string;
}

export interface CrawlOptions {
  client: GitHubClient;
  cacheDir: string;
  pageSize: number;
  countBatch: number;
  log: Logger;
  signal: AbortSignal;
  /** Tests: called after each journaled answer (e.g. to count, or to stop). */
  onProgress?: (p: CrawlProgress) => void;
}

export interface CrawlProgress {
  requests: number;
  nodes: number;
  slicesDone: number;
  slices: number;
}

export interface CrawledNode {
  node: Record<string, unknown>;
  /** When the answer carrying this node arrived (ISO). */
  crawledAt: string;
}

export interface CrawlResult {
  key: string;
  nodes: CrawledNode[];
  /** Requests this call made (0 when the journal already held a finished crawl). */
  requests: { count: number; fetch: number };
  /** Slices whose one second holds more than 1,000 repositories: only 1,000 of each were reachable. */
  overfull: string[];
  truncated: boolean;
  startedAt: string;
  until: string;
}

type Entry =
  | { t: 'start'; at: string; until: string }
  | { t: 'count'; at: string; counts: { key: string; n: number }[] }
  | {
      t: 'page';
      at: string;
      parts: { key: string; after: string | null; end: string | null; next: boolean; n: number; nodes: Record<string, unknown>[] }[];
    }
  | { t: 'done'; at: string; nodes: number; truncated: boolean };

interface SliceState {
  after: string | null;
  fetched: number;
  done: boolean;
}

const NAME = 'nameWithOwner';

export async function crawlRepositories(spec: CrawlSpec, o: CrawlOptions): Promise<CrawlResult> {
  if (!spec.nodeFields.includes(NAME)) throw new TypeError(`crawl: nodeFields must select ${NAME}`);
  const { key, dir } = crawlDir(o.cacheDir, spec);
  const lock = await lockCrawl(dir, o.signal, (holder) => o.log.info(`github crawl ${key}: another process (${holder}) is crawling the same query; waiting for it`));
  const journal = Journal.open<Entry>(dir, 'journal');
  try {
    return await run(spec, o, key, journal);
  } finally {
    journal.close();
    lock.release();
  }
}

async function run(spec: CrawlSpec, o: CrawlOptions, key: string, journal: Journal<Entry>): Promise<CrawlResult> {
  const requests = { count: 0, fetch: 0 };
  let start = journal.entries.find((e): e is Extract<Entry, { t: 'start' }> => e.t === 'start');
  if (!start) {
    const now = new Date();
    start = { t: 'start', at: now.toISOString(), until: spec.createdTo ?? now.toISOString().slice(0, 10) };
    journal.append(start);
  }
  const whole: DateRange = { lo: Date.parse(`${spec.createdFrom}T00:00:00Z`), hi: Date.parse(`${start.until}T23:59:59Z`) };

  // Replay the journal: counts, slice cursors, nodes (by repository, the latest answer wins).
  const counts = new Map<string, number>();
  const states = new Map<string, SliceState>();
  const nodes = new Map<string, CrawledNode>();
  let finished: Extract<Entry, { t: 'done' }> | undefined;
  const absorbPage = (e: Extract<Entry, { t: 'page' }>) => {
    for (const p of e.parts) {
      const s = states.get(p.key) ?? { after: null, fetched: 0, done: false };
      s.after = p.end ?? s.after;
      s.fetched += p.nodes.length;
      s.done = !p.next || s.fetched >= SEARCH_CAP;
      states.set(p.key, s);
      // A slice that grew past the cap since it was counted: record the new count, so the
      // planner splits it; its progress no longer applies to the parts.
      if (p.n > SEARCH_CAP && (counts.get(p.key) ?? 0) <= SEARCH_CAP) counts.set(p.key, p.n);
      for (const node of p.nodes) {
        const name = String(node[NAME]);
        nodes.delete(name); // re-insert: keep the crawl order of the latest answer
        nodes.set(name, { node, crawledAt: e.at });
      }
    }
  };
  for (const e of journal.entries) {
    if (e.t === 'count') for (const c of e.counts) counts.set(c.key, c.n);
    else if (e.t === 'page') absorbPage(e);
    else if (e.t === 'done') finished = e;
  }
  const result = (plan: Slice[], truncated: boolean): CrawlResult => {
    let list = [...nodes.values()];
    if (spec.maxResults > 0) list = list.slice(0, spec.maxResults);
    return {
      key,
      nodes: list,
      requests,
      overfull: plan.filter((s) => s.overfull).map((s) => `${spec.families[s.family]} created:${rangeText(s.range)} (${s.count})`),
      truncated,
      startedAt: start.at,
      until: start.until,
    };
  };
  if (finished) {
    o.log.info(`github crawl ${key}: reusing the finished crawl of ${start.at} (${nodes.size} repositories; set search.snapshot to crawl afresh)`);
    return result(planSlices(spec.families.length, whole, counts).slices, finished.truncated);
  }
  if (journal.entries.length > 1) o.log.info(`github crawl ${key}: resuming (${nodes.size} repositories already crawled)`);

  const queryOf = (family: number, r: DateRange) => `${spec.families[family]} created:${rangeText(r)}`;
  let lastLog = Date.now();
  for (;;) {
    o.signal.throwIfAborted();
    const plan = planSlices(spec.families.length, whole, counts);
    if (plan.toCount.length > 0) {
      const batch = plan.toCount.slice(0, o.countBatch);
      const vars: Record<string, unknown> = {};
      const fields = batch.map((c, i) => {
        vars[`q${i}`] = queryOf(c.family, c.range);
        return `c${i}: search(query: $q${i}, type: REPOSITORY, first: 0) { repositoryCount }`;
      });
      const query = `query(${batch.map((_, i) => `$q${i}: String!`).join(', ')}) {\n  ${fields.join('\n  ')}\n}`;
      requests.count++;
      const data = await o.client.graphql<Record<string, { repositoryCount?: unknown }>>(query, vars, o.signal);
      const got = batch.map((c, i) => ({ key: c.key, n: countOf(data[`c${i}`], `c${i}`) }));
      journal.append({ t: 'count', at: new Date().toISOString(), counts: got });
      for (const g of got) counts.set(g.key, g.n);
      continue;
    }

    const pending = plan.slices.filter((s) => !states.get(s.key)?.done);
    const truncated = spec.maxResults > 0 && nodes.size >= spec.maxResults;
    if (pending.length === 0 || truncated) {
      journal.append({ t: 'done', at: new Date().toISOString(), nodes: nodes.size, truncated });
      const r = result(plan.slices, truncated);
      if (r.overfull.length > 0) o.log.warn(`github crawl ${key}: ${r.overfull.length} one-second slices hold more than 1,000 repositories; only 1,000 of each were reachable`);
      return r;
    }

    // Pack up to pageSize nodes from consecutive slices into one request.
    const parts: { slice: Slice; first: number; after: string | null }[] = [];
    let room = o.pageSize;
    for (const s of pending) {
      if (room <= 0 || parts.length >= MAX_PARTS) break;
      const st = states.get(s.key) ?? { after: null, fetched: 0, done: false };
      const expected = Math.min(s.count, SEARCH_CAP) - st.fetched;
      const first = Math.min(room, expected > 0 ? expected : o.pageSize);
      parts.push({ slice: s, first, after: st.after });
      room -= first;
    }
    const vars: Record<string, unknown> = {};
    const fields = parts.map((p, i) => {
      vars[`q${i}`] = queryOf(p.slice.family, p.slice.range);
      vars[`f${i}`] = p.first;
      vars[`a${i}`] = p.after;
      return `p${i}: search(query: $q${i}, type: REPOSITORY, first: $f${i}, after: $a${i}) {\n    repositoryCount\n    pageInfo { hasNextPage endCursor }\n    nodes { ...Repo }\n  }`;
    });
    const query =
      `query(${parts.map((_, i) => `$q${i}: String!, $f${i}: Int!, $a${i}: String`).join(', ')}) {\n  ${fields.join('\n  ')}\n}\n` +
      `fragment Repo on Repository {\n  ${spec.nodeFields.trim()}\n}`;
    requests.fetch++;
    const data = await o.client.graphql<Record<string, unknown>>(query, vars, o.signal);
    const entry: Extract<Entry, { t: 'page' }> = {
      t: 'page',
      at: new Date().toISOString(),
      parts: parts.map((p, i) => pageOf(data[`p${i}`], `p${i}`, p.slice.key, p.after)),
    };
    journal.append(entry);
    absorbPage(entry);
    const done = plan.slices.filter((s) => states.get(s.key)?.done).length;
    o.onProgress?.({ requests: requests.count + requests.fetch, nodes: nodes.size, slicesDone: done, slices: plan.slices.length });
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      o.log.info(`github crawl ${key}: ${nodes.size} repositories, ${done}/${plan.slices.length} date slices done`);
    }
  }
}

/** Aliases per fetch request: packing a few slices saves partial pages; more would only add search cost. */
const MAX_PARTS = 8;

function countOf(v: { repositoryCount?: unknown } | undefined, alias: string): number {
  const n = v?.repositoryCount;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new GitHubError(`POST /graphql: unexpected answer: ${alias}.repositoryCount is not a count: ${JSON.stringify(n)}`, 200);
  return n;
}

function pageOf(v: unknown, alias: string, key: string, after: string | null): Extract<Entry, { t: 'page' }>['parts'][number] {
  const s = v as { repositoryCount?: unknown; pageInfo?: { hasNextPage?: unknown; endCursor?: unknown }; nodes?: unknown } | undefined;
  const n = countOf(s, alias);
  if (!s?.pageInfo || typeof s.pageInfo.hasNextPage !== 'boolean') throw new GitHubError(`POST /graphql: unexpected answer: ${alias}.pageInfo.hasNextPage is missing`, 200);
  if (!Array.isArray(s.nodes)) throw new GitHubError(`POST /graphql: unexpected answer: ${alias}.nodes is not a list`, 200);
  const nodes = s.nodes.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object' && typeof (x as Record<string, unknown>)[NAME] === 'string');
  const end = typeof s.pageInfo.endCursor === 'string' ? s.pageInfo.endCursor : null;
  return { key, after, end, next: s.pageInfo.hasNextPage && nodes.length > 0, n, nodes };
}

