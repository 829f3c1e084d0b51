import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A fake GitHub on 127.0.0.1 that speaks the wire format of the endpoints envforge uses, so the
 * real octokit client talks to it with only the base URL changed:
 *   POST /graphql                           `search(query:, type: REPOSITORY, first:, after:)` fields
 *                                           (any number, aliased), repositoryCount, pageInfo, cursors,
 *                                           Repository nodes; `rateLimit`; GraphQL errors; RATE_LIMITED
 *   GET  /search/repositories               total_count, incomplete_results, items, Link (first/prev/next/last),
 *                                           422 beyond the first 1,000 results
 *   GET  /repos/{owner}/{repo}/contributors per_page/page/anon, Link with rel="last", 204 when empty,
 *                                           403 "too large to list contributors", 404
 *   GET  /rate_limit
 * Both searches return at most 1,000 results whatever they count. Every answer carries
 * `x-ratelimit-{limit,remaining,used,reset,resource}`; a token out of quota gets GitHub's
 * refusal (REST 403 with remaining 0, GraphQL RATE_LIMITED); an unknown token gets 401.
 * Faults are queued per kind of request: a status (5xx, optionally as an HTML page), an HTML
 * page with 200, a 403 secondary limit with `retry-after`, a reset connection, or a page that
 * echoes the caller's Authorization header (to test redaction). Every request is logged with a
 * signature (what was asked) and a token label, never the token, and whether it was answered.
 */

export interface FakeRepo {
  id: number;
  /** owner/name */
  fullName: string;
  createdAt: string;
  pushedAt: string;
  language: string | null;
  stars: number;
  forks: number;
  fork: boolean;
  archived: boolean;
  license: { spdx: string; name: string; key: string } | null;
  /** null: an empty repository (no default branch). */
  defaultBranch: string | null;
  headSha: string;
  committedDate: string;
  commits: number;
  issues: number;
  closedIssues: number;
  contributors: number;
  diskUsage: number;
  topics: string[];
  /** GitHub refuses to list the contributors of some huge histories. */
  contributorsTooLarge?: boolean;
}

export type RequestKind = 'graphql-count' | 'graphql-search' | 'graphql-other' | 'rest-search' | 'contributors' | 'other';

export interface RequestRecord {
  seq: number;
  kind: RequestKind;
  method: string;
  path: string;
  /** `t1`, `t2`, ... by the order of the tokens given; `anonymous`; `unknown`. */
  token: string;
  /** What was asked: GraphQL query + variables, or method + URL. Equal signatures = the same request. */
  signature: string;
  status: number;
  /** Search parts of a GraphQL request: query, first, repositoryCount. */
  parts: { query: string; first: number; count: number; after: string | null }[];
  at: number;
  answered: boolean;
}

export type FaultOn = RequestKind | 'graphql' | 'any';
export type Fault =
  | { on: FaultOn; status: number; html?: boolean; times?: number }
  | { on: FaultOn; html200: true; times?: number }
  | { on: FaultOn; secondary: number; times?: number }
  | { on: FaultOn; reset: true; times?: number }
  | { on: FaultOn; echoToken: true; times?: number };

export interface TokenQuota {
  /** Requests per resource (core, graphql, search) before the token is exhausted. */
  quota?: number;
  /** Seconds from server start to the reset (the tests use far-away resets). */
  resetInSeconds?: number;
}

export interface FakeGitHubOptions {
  repos: FakeRepo[];
  /** Token value → quota; only these tokens are accepted. */
  tokens: Record<string, TokenQuota>;
  /** Milliseconds added before every answer. */
  delayMs?: number;
}

export interface FakeGitHub {
  url: string;
  port: number;
  requests: RequestRecord[];
  fault(f: Fault): void;
  /** After `n` more answered requests of this kind, hold every further one of it unanswered. */
  holdAfter(n: number, on: FaultOn): void;
  /** Requests held so far (unanswered). */
  held(): number;
  count(kind?: FaultOn): number;
  close(): Promise<void>;
}

const CAP = 1000;
const HTML_PAGE = (extra = '') =>
  `<!DOCTYPE html>\n<html><head><title>Unicorn! · GitHub</title></head><body><h1>No server is currently available to service your request.</h1>${extra}<p>Sorry about that.</p></body></html>\n`;

export async function startFakeGitHub(o: FakeGitHubOptions): Promise<FakeGitHub> {
  const startedAt = Math.floor(Date.now() / 1000);
  const tokenLabels = new Map(Object.keys(o.tokens).map((t, i) => [t, `t${i + 1}`]));
  const used = new Map<string, number>(); // `${label}|${resource}` → requests
  const faults: (Fault & { left: number })[] = [];
  const requests: RequestRecord[] = [];
  let hold: { after: number; on: FaultOn } | undefined;
  const heldResponses: ServerResponse[] = [];
  const repos = [...o.repos].sort((a, b) => b.stars - a.stars || a.id - b.id);
  const byName = new Map(o.repos.map((r) => [r.fullName.toLowerCase(), r]));

  const matches = (on: FaultOn, kind: RequestKind) => on === 'any' || on === kind || (on === 'graphql' && kind.startsWith('graphql'));

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((err: unknown) => {
        if (!res.headersSent) send(res, 500, { message: `fake github: ${(err as Error).message}` });
      });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, body: string) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const auth = String(req.headers.authorization ?? '');
    const token = auth.replace(/^(token|bearer)\s+/i, '');
    const label = auth === '' ? 'anonymous' : (tokenLabels.get(token) ?? 'unknown');
    let kind: RequestKind = 'other';
    let gql: { query: string; variables: Record<string, unknown> } | undefined;
    if (method === 'POST' && url.pathname === '/graphql') {
      try {
        gql = JSON.parse(body) as { query: string; variables: Record<string, unknown> };
      } catch {
        gql = { query: '', variables: {} };
      }
      const fields = searchFields(gql.query, gql.variables ?? {});
      kind = fields.length === 0 ? 'graphql-other' : fields.every((f) => f.first === 0) ? 'graphql-count' : 'graphql-search';
    } else if (method === 'GET' && url.pathname === '/search/repositories') kind = 'rest-search';
    else if (method === 'GET' && /^\/repos\/[^/]+\/[^/]+\/contributors$/.test(url.pathname)) kind = 'contributors';
    const rec: RequestRecord = {
      seq: requests.length + 1,
      kind,
      method,
      path: url.pathname,
      token: label,
      signature: gql ? sha(`${gql.query}\n${JSON.stringify(gql.variables ?? {})}`) : `${method} ${url.pathname}${url.search}`,
      status: 0,
      parts: [],
      at: Date.now(),
      answered: false,
    };
    requests.push(rec);

    if (hold && matches(hold.on, kind)) {
      if (hold.after <= 0) {
        heldResponses.push(res);
        return;
      }
      hold.after--;
    }
    if (o.delayMs) await new Promise((r) => setTimeout(r, o.delayMs));
    const reply = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      rec.status = status;
      rec.answered = true;
      send(res, status, payload, headers);
    };

    const fault = faults.find((f) => f.left > 0 && matches(f.on, kind));
    if (fault) {
      fault.left--;
      if ('reset' in fault) {
        rec.status = -1;
        rec.answered = true;
        req.socket.destroy();
        return;
      }
      if ('html200' in fault) return reply(200, HTML_PAGE(), { 'content-type': 'text/html; charset=utf-8' });
      if ('echoToken' in fault) return reply(502, HTML_PAGE(`<pre>${auth}</pre>`), { 'content-type': 'text/html; charset=utf-8' });
      if ('secondary' in fault) {
        return reply(
          403,
          {
            message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:1111.',
            documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
            status: '403',
          },
          { 'retry-after': String(fault.secondary) },
        );
      }
      if (fault.html) return reply(fault.status, HTML_PAGE(), { 'content-type': 'text/html; charset=utf-8' });
      return reply(fault.status, { message: 'Server Error' });
    }

    // Authentication and the primary rate limit.
    if (label === 'unknown' || (label === 'anonymous' && kind.startsWith('graphql'))) {
      return reply(401, { message: label === 'unknown' ? 'Bad credentials' : 'This endpoint requires you to be authenticated.', documentation_url: 'https://docs.github.com/graphql', status: '401' });
    }
    const resource = kind.startsWith('graphql') ? 'graphql' : kind === 'rest-search' ? 'search' : 'core';
    const q = label === 'anonymous' ? { quota: 60 } : (o.tokens[token] ?? {});
    const limit = q.quota ?? 5000;
    const reset = startedAt + (q.resetInSeconds ?? 3600);
    const k = `${label}|${resource}`;
    const before = used.get(k) ?? 0;
    const limitHeaders = (n: number): Record<string, string> => ({
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - n)),
      'x-ratelimit-used': String(n),
      'x-ratelimit-reset': String(reset),
      'x-ratelimit-resource': resource,
    });
    if (before >= limit) {
      if (resource === 'graphql') {
        return reply(200, { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit already exceeded for user ID 1.' }] }, limitHeaders(before));
      }
      return reply(403, { message: 'API rate limit exceeded for user ID 1.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api', status: '403' }, limitHeaders(before));
    }
    used.set(k, before + 1);
    const headers = limitHeaders(before + 1);

    if (gql) {
      const r = graphql(gql.query, gql.variables ?? {}, headers, rec);
      return reply(200, r, headers);
    }
    if (kind === 'rest-search') return restSearch(url, headers, reply);
    if (kind === 'contributors') return contributors(url, headers, reply);
    if (method === 'GET' && url.pathname === '/rate_limit') {
      return reply(200, { resources: { [resource]: { limit, remaining: limit - before - 1, reset, used: before + 1 } } }, headers);
    }
    return reply(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' }, headers);
  }

  function graphql(query: string, variables: Record<string, unknown>, headers: Record<string, string>, rec: RequestRecord): unknown {
    const data: Record<string, unknown> = {};
    const errors: { type?: string; message: string; path?: string[] }[] = [];
    for (const f of searchFields(query, variables)) {
      if (f.type !== 'REPOSITORY') errors.push({ message: `fake github: only type: REPOSITORY is supported`, path: [f.alias] });
      if (f.first < 0 || f.first > 100) {
        errors.push({ type: 'EXCESSIVE_PAGINATION', message: `Requesting ${f.first} records on the \`search\` connection exceeds the \`first\` limit of 100 records.`, path: [f.alias] });
        continue;
      }
      let matched: FakeRepo[];
      try {
        matched = search(f.query);
      } catch (err) {
        errors.push({ message: (err as Error).message, path: [f.alias] });
        continue;
      }
      const visible = matched.slice(0, CAP);
      const start = f.after ? decodeCursor(f.after) : 0;
      const page = visible.slice(start, start + f.first);
      rec.parts.push({ query: f.query, first: f.first, count: matched.length, after: f.after });
      data[f.alias] = {
        repositoryCount: matched.length,
        pageInfo: { hasNextPage: start + page.length < visible.length, endCursor: page.length > 0 ? cursor(start + page.length) : null },
        nodes: page.map(node),
      };
    }
    if (/\brateLimit\b/.test(query)) {
      data.rateLimit = { cost: 1, remaining: Number(headers['x-ratelimit-remaining']), resetAt: new Date(Number(headers['x-ratelimit-reset']) * 1000).toISOString() };
    }
    return errors.length > 0 ? { data: null, errors } : { data };
  }

  function restSearch(url: URL, headers: Record<string, string>, reply: (s: number, p: unknown, h?: Record<string, string>) => void) {
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
    const page = Number(url.searchParams.get('page') ?? 1);
    let matched: FakeRepo[];
    try {
      matched = search(url.searchParams.get('q') ?? '');
    } catch (err) {
      return reply(422, { message: 'Validation Failed', errors: [{ message: (err as Error).message, resource: 'Search', field: 'q', code: 'invalid' }] }, headers);
    }
    const visible = matched.slice(0, CAP);
    if ((page - 1) * perPage >= CAP) {
      return reply(422, { message: 'Only the first 1000 search results are available', documentation_url: 'https://docs.github.com/v3/search/' }, headers);
    }
    const items = visible.slice((page - 1) * perPage, page * perPage).map(restItem);
    const last = Math.max(1, Math.ceil(visible.length / perPage));
    const link = (p: number, rel: string) => {
      const u = new URL(url.toString());
      u.searchParams.set('page', String(p));
      return `<http://127.0.0.1:${port}${u.pathname}${u.search}>; rel="${rel}"`;
    };
    const links = [page > 1 ? link(page - 1, 'prev') : '', page < last ? link(page + 1, 'next') : '', page < last ? link(last, 'last') : '', page > 1 ? link(1, 'first') : ''].filter(Boolean);
    reply(200, { total_count: matched.length, incomplete_results: false, items }, { ...headers, ...(links.length ? { link: links.join(', ') } : {}) });
  }

  function contributors(url: URL, headers: Record<string, string>, reply: (s: number, p: unknown, h?: Record<string, string>) => void) {
    const [, , owner, name] = url.pathname.split('/');
    const repo = byName.get(`${owner}/${name}`.toLowerCase());
    if (!repo) return reply(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/repos/repos#list-repository-contributors', status: '404' }, headers);
    if (repo.contributorsTooLarge) {
      return reply(403, { message: 'The history or contributor list is too large to list contributors for this repository via the API.', documentation_url: 'https://docs.github.com/rest/repos/repos#list-repository-contributors', status: '403' }, headers);
    }
    if (repo.contributors === 0 || repo.defaultBranch === null) {
      return reply(204, undefined, headers);
    }
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
    const page = Number(url.searchParams.get('page') ?? 1);
    const last = Math.ceil(repo.contributors / perPage);
    const from = (page - 1) * perPage;
    const items = Array.from({ length: Math.max(0, Math.min(perPage, repo.contributors - from)) }, (_, i) => ({ login: `user${from + i + 1}`, type: 'User', contributions: 100 - i }));
    const link = (p: number, rel: string) => {
      const u = new URL(url.toString());
      u.searchParams.set('page', String(p));
      return `<http://127.0.0.1:${port}${u.pathname}${u.search}>; rel="${rel}"`;
    };
    const links = [page < last ? link(page + 1, 'next') : '', page < last ? link(last, 'last') : ''].filter(Boolean);
    reply(200, items, { ...headers, ...(links.length ? { link: links.join(', ') } : {}) });
  }

  function search(q: string): FakeRepo[] {
    const preds: ((r: FakeRepo) => boolean)[] = [];
    let forks: 'exclude' | 'include' | 'only' = 'exclude';
    for (const term of tokenize(q)) {
      const m = /^(\w+):(.*)$/.exec(term);
      if (!m) throw new Error(`fake github: free text is not supported (${JSON.stringify(term)})`);
      const [, key, raw] = m;
      const value = raw!.replace(/^"(.*)"$/, '$1');
      switch (key) {
        case 'language':
          preds.push((r) => (r.language ?? '').toLowerCase() === value.toLowerCase());
          break;
        case 'stars':
          preds.push(numberPred(value, (r) => r.stars));
          break;
        case 'fork':
          forks = value === 'true' ? 'include' : value === 'only' ? 'only' : 'exclude';
          break;
        case 'archived':
          preds.push((r) => r.archived === (value === 'true'));
          break;
        case 'created':
          preds.push(timePred(value, (r) => r.createdAt));
          break;
        case 'pushed':
          preds.push(timePred(value, (r) => r.pushedAt));
          break;
        case 'topic':
          preds.push((r) => r.topics.includes(value));
          break;
        case 'license':
          preds.push((r) => r.license?.key === value.toLowerCase());
          break;
        default:
          throw new Error(`fake github: unsupported qualifier ${key}:`);
      }
    }
    preds.push((r) => (forks === 'exclude' ? !r.fork : forks === 'only' ? r.fork : true));
    return repos.filter((r) => preds.every((p) => p(r)));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    fault: (f) => faults.push({ ...f, left: f.times ?? 1 }),
    holdAfter: (n, on) => {
      hold = { after: n, on };
    },
    held: () => heldResponses.length,
    count: (kind) => requests.filter((r) => kind === undefined || matches(kind, r.kind)).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) {
  const isText = typeof payload === 'string';
  const body = payload === undefined ? '' : isText ? payload : JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-github-request-id': `FAKE:${Math.random().toString(16).slice(2, 10)}`,
    'x-github-media-type': 'github.v3; format=json',
    ...headers,
  });
  res.end(body);
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 24);
const cursor = (i: number) => Buffer.from(`cursor:${i}`).toString('base64');
function decodeCursor(c: string): number {
  const m = /^cursor:(\d+)$/.exec(Buffer.from(c, 'base64').toString('utf8'));
  if (!m) throw new Error(`fake github: invalid cursor ${JSON.stringify(c)}`);
  return Number(m[1]);
}

interface SearchField {
  alias: string;
  query: string;
  type: string;
  first: number;
  after: string | null;
}

/** Top-level `alias: search(...)` fields of a GraphQL document, with `$var` arguments resolved. */
export function searchFields(query: string, variables: Record<string, unknown>): SearchField[] {
  const out: SearchField[] = [];
  const re = /(?:(\w+)\s*:\s*)?\bsearch\s*\(([^)]*)\)/g;
  for (const m of query.matchAll(re)) {
    const args: Record<string, unknown> = {};
    for (const a of m[2]!.matchAll(/(\w+)\s*:\s*(\$\w+|"(?:[^"\\]|\\.)*"|[\w.-]+)/g)) {
      const raw = a[2]!;
      args[a[1]!] = raw.startsWith('$') ? variables[raw.slice(1)] : raw.startsWith('"') ? JSON.parse(raw) : /^\d+$/.test(raw) ? Number(raw) : raw === 'null' ? null : raw;
    }
    out.push({
      alias: m[1] ?? 'search',
      query: String(args.query ?? ''),
      type: String(args.type ?? ''),
      first: typeof args.first === 'number' ? args.first : 0,
      after: typeof args.after === 'string' ? args.after : null,
    });
  }
  return out;
}

function tokenize(q: string): string[] {
  return [...q.matchAll(/(?:[^\s"]+|"[^"]*")+/g)].map((m) => m[0]);
}

function numberPred(v: string, get: (r: FakeRepo) => number): (r: FakeRepo) => boolean {
  const m = /^(>=|<=|>|<)?(\d+)(?:\.\.(\d+))?$/.exec(v);
  if (!m) throw new Error(`fake github: bad number range ${v}`);
  const n = Number(m[2]);
  if (m[3] !== undefined) return (r) => get(r) >= n && get(r) <= Number(m[3]);
  switch (m[1]) {
    case '>=':
      return (r) => get(r) >= n;
    case '<=':
      return (r) => get(r) <= n;
    case '>':
      return (r) => get(r) > n;
    case '<':
      return (r) => get(r) < n;
    default:
      return (r) => get(r) === n;
  }
}

/** GitHub's date qualifiers: a date or a time; a date as an upper bound covers its whole day. */
function timePred(v: string, get: (r: FakeRepo) => string): (r: FakeRepo) => boolean {
  const t = (s: string, end: boolean) => {
    const ms = /^\d{4}-\d{2}-\d{2}$/.test(s) ? Date.parse(`${s}T00:00:00Z`) + (end ? 86_400_000 - 1 : 0) : Date.parse(s);
    if (Number.isNaN(ms)) throw new Error(`fake github: bad date ${s}`);
    return ms;
  };
  const range = /^(.+)\.\.(.+)$/.exec(v);
  if (range) {
    const lo = range[1] === '*' ? -Infinity : t(range[1]!, false);
    const hi = range[2] === '*' ? Infinity : t(range[2]!, true);
    return (r) => Date.parse(get(r)) >= lo && Date.parse(get(r)) <= hi;
  }
  const m = /^(>=|<=|>|<)?(.+)$/.exec(v)!;
  const op = m[1] ?? '';
  const s = m[2]!;
  switch (op) {
    case '>=':
      return (r) => Date.parse(get(r)) >= t(s, false);
    case '>':
      return (r) => Date.parse(get(r)) > t(s, true);
    case '<=':
      return (r) => Date.parse(get(r)) <= t(s, true);
    case '<':
      return (r) => Date.parse(get(r)) < t(s, false);
    default:
      return (r) => Date.parse(get(r)) >= t(s, false) && Date.parse(get(r)) <= t(s, true);
  }
}

/** A Repository node as GraphQL returns it for envforge's selection (stages/search/github-record.ts). */
function node(r: FakeRepo): Record<string, unknown> {
  return {
    databaseId: r.id,
    nameWithOwner: r.fullName,
    isFork: r.fork,
    isArchived: r.archived,
    stargazerCount: r.stars,
    forkCount: r.forks,
    diskUsage: r.diskUsage,
    createdAt: r.createdAt,
    pushedAt: r.pushedAt,
    primaryLanguage: r.language ? { name: r.language } : null,
    licenseInfo: r.license ? { spdxId: r.license.spdx, name: r.license.name } : null,
    issues: { totalCount: r.issues },
    closedIssues: { totalCount: r.closedIssues },
    defaultBranchRef: r.defaultBranch
      ? { name: r.defaultBranch, target: { oid: r.headSha, committedDate: r.committedDate, history: { totalCount: r.commits } } }
      : null,
  };
}

function restItem(r: FakeRepo): Record<string, unknown> {
  const [owner, name] = r.fullName.split('/');
  return {
    id: r.id,
    node_id: Buffer.from(`010:Repository${r.id}`).toString('base64'),
    name,
    full_name: r.fullName,
    owner: { login: owner, type: 'User' },
    private: false,
    fork: r.fork,
    archived: r.archived,
    created_at: r.createdAt,
    pushed_at: r.pushedAt,
    stargazers_count: r.stars,
    watchers_count: r.stars,
    forks_count: r.forks,
    language: r.language,
    license: r.license ? { key: r.license.key, name: r.license.name, spdx_id: r.license.spdx } : null,
    default_branch: r.defaultBranch ?? 'main',
    size: r.diskUsage,
    topics: r.topics,
    score: 1,
  };
}

// ---------------------------------------------------------------------------------------------
// Data: repositories for tests and the bench.

export const LICENSES = {
  mit: { spdx: 'MIT', name: 'MIT License', key: 'mit' },
  apache: { spdx: 'Apache-2.0', name: 'Apache License 2.0', key: 'apache-2.0' },
  bsd3: { spdx: 'BSD-3-Clause', name: 'BSD 3-Clause "New" or "Revised" License', key: 'bsd-3-clause' },
  gpl3: { spdx: 'GPL-3.0', name: 'GNU General Public License v3.0', key: 'gpl-3.0' },
  other: { spdx: 'NOASSERTION', name: 'Other', key: 'other' },
} as const;

/** One repository that passes every EnvBench criterion (default thresholds), with overrides. */
export function fakeRepo(id: number, overrides: Partial<FakeRepo> = {}): FakeRepo {
  return {
    id,
    fullName: `owner${id % 97}/repo-${id}`,
    createdAt: '2019-03-04T10:20:30Z',
    pushedAt: '2024-06-11T15:12:44Z',
    language: 'Python',
    stars: 10,
    forks: 3,
    fork: false,
    archived: false,
    license: LICENSES.mit,
    defaultBranch: 'main',
    headSha: createHash('sha1').update(`head-${id}`).digest('hex'),
    committedDate: '2024-06-11T15:10:00Z',
    commits: 1000,
    issues: 10,
    closedIssues: 7,
    contributors: 10,
    diskUsage: 2048,
    topics: [],
    ...overrides,
  };
}

/** A small seeded PRNG (mulberry32): the same seed gives the same repositories. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GenerateOptions {
  n: number;
  seed: number;
  /** Creation times spread from..to (ISO dates), skewed toward recent years like GitHub's. */
  from?: string;
  to?: string;
  languages?: string[];
  /** Share of candidates that pass every criterion (the rest fail one, spread over the criteria). */
  passShare?: number;
  firstId?: number;
}

/**
 * `n` repositories that all match the default search families (language, stars, not fork,
 * not archived, pushed ≥ 2024-01-01), each either passing every criterion or failing exactly
 * one of those search cannot express (commits, issues, contributors, last commit, license).
 */
export function generateRepos(o: GenerateOptions): FakeRepo[] {
  const rnd = prng(o.seed);
  const lo = Date.parse(`${o.from ?? '2012-01-01'}T00:00:00Z`);
  const hi = Date.parse(`${o.to ?? '2023-12-31'}T23:59:59Z`);
  const langs = o.languages ?? ['Python', 'Java', 'Kotlin'];
  const pass = o.passShare ?? 0.4;
  const out: FakeRepo[] = [];
  for (let i = 0; i < o.n; i++) {
    const id = (o.firstId ?? 1) + i;
    // sqrt skews toward the end of the range: more repositories were created recently.
    const created = new Date(lo + Math.sqrt(rnd()) * (hi - lo));
    created.setUTCMilliseconds(0);
    const r = fakeRepo(id, {
      fullName: `org${id % 211}/project-${id}`,
      createdAt: created.toISOString().replace('.000Z', 'Z'),
      language: langs[Math.floor(rnd() * langs.length)]!,
      stars: 10 + Math.floor(rnd() * 5000),
      commits: 1000 + Math.floor(rnd() * 20000),
      issues: 10 + Math.floor(rnd() * 900),
      contributors: 10 + Math.floor(rnd() * 300),
    });
    if (rnd() >= pass) {
      switch (Math.floor(rnd() * 6)) {
        case 0:
          r.commits = Math.floor(rnd() * 1000);
          break;
        case 1:
          r.issues = Math.floor(rnd() * 10);
          r.closedIssues = Math.min(r.closedIssues, r.issues);
          break;
        case 2:
          r.contributors = Math.floor(rnd() * 10);
          break;
        case 3:
          // pushed recently (another branch), but the default branch's last commit is old
          r.committedDate = '2023-08-01T09:00:00Z';
          break;
        case 4:
          r.license = LICENSES.gpl3;
          break;
        default:
          r.license = rnd() < 0.5 ? null : LICENSES.other;
      }
    }
    out.push(r);
  }
  return out;
}
