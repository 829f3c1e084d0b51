import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A fake GitHub for the dependency-conflict stages, speaking the REST wire format of:
 *   GET /search/issues                            q (free text in quotes or words, is:issue, in:comments,
 *                                                 state:, language:, created: ranges), per_page, page;
 *                                                 total_count, items, Link; 422 beyond 1,000 results
 *   GET /repos/{owner}/{repo}/issues/{n}/comments per_page/page, Link rel="next"/"last"
 *   GET /repos/{owner}/{repo}                     default_branch, fork, parent; 404
 *   GET /repos/{owner}/{repo}/commits             sha (branch), until, per_page: newest first
 *   GET /repos/{owner}/{repo}/contents/{path}     ref: a directory listing (path '') or one file; 404
 * with `x-ratelimit-*` headers. (test/servers/github-server.ts, the repository-search fake, has
 * no way to add routes, so these live in their own server.)
 */
export interface FakeComment {
  id: number;
  created_at: string;
  body: string;
}

export interface FakeIssue {
  repo: string;
  number: number;
  id: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  created_at: string;
  language: string;
  comments: FakeComment[];
  pull_request?: boolean;
}

export interface FakeCommit {
  sha: string;
  date: string;
  /** File names in the root of the tree. */
  files: string[];
}

export interface FakeRepoHistory {
  fullName: string;
  defaultBranch: string;
  fork?: string;
  /** Commits of the default branch, any order. */
  commits: FakeCommit[];
}

export interface FakeIssuesServer {
  url: string;
  requests: { path: string; query: Record<string, string> }[];
  close(): Promise<void>;
}

const CAP = 1000;

export async function startFakeIssues(o: { issues: FakeIssue[]; repos: FakeRepoHistory[]; token: string }): Promise<FakeIssuesServer> {
  const requests: FakeIssuesServer['requests'] = [];
  let port = 0;
  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (err) {
      send(res, 500, { message: `fake: ${(err as Error).message}` });
    }
  });

  function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ path: url.pathname, query: Object.fromEntries(url.searchParams) });
    const auth = String(req.headers.authorization ?? '').replace(/^(token|bearer)\s+/i, '');
    if (auth !== o.token) return send(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    const p = url.pathname.split('/').filter(Boolean);
    const link = (page: number, last: number) => {
      const mk = (n: number, rel: string) => {
        const u = new URL(url.toString());
        u.searchParams.set('page', String(n));
        return `<http://127.0.0.1:${port}${u.pathname}${u.search}>; rel="${rel}"`;
      };
      const l = [page < last ? mk(page + 1, 'next') : '', page < last ? mk(last, 'last') : '', page > 1 ? mk(1, 'first') : '', page > 1 ? mk(page - 1, 'prev') : ''].filter(Boolean);
      const h: Record<string, string> = {};
      if (l.length) h.link = l.join(', ');
      return h;
    };
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
    const page = Number(url.searchParams.get('page') ?? 1);

    if (url.pathname === '/search/issues') {
      const hits = searchIssues(url.searchParams.get('q') ?? '');
      if ((page - 1) * perPage >= CAP) return send(res, 422, { message: 'Only the first 1000 search results are available', documentation_url: 'https://docs.github.com/v3/search/' }, 'search');
      const visible = hits.slice(0, CAP);
      const items = visible.slice((page - 1) * perPage, page * perPage).map(issueJson);
      return send(res, 200, { total_count: hits.length, incomplete_results: false, items }, 'search', link(page, Math.max(1, Math.ceil(visible.length / perPage))));
    }
    if (p[0] === 'repos' && p.length >= 3) {
      const full = `${p[1]}/${p[2]}`;
      if (p[3] === 'issues' && p[5] === 'comments') {
        const issue = o.issues.find((i) => i.repo === full && i.number === Number(p[4]));
        if (!issue) return send(res, 404, { message: 'Not Found' });
        const all = [...issue.comments].sort((a, b) => a.id - b.id);
        const items = all.slice((page - 1) * perPage, page * perPage).map((c) => ({
          id: c.id,
          html_url: `https://github.com/${full}/issues/${issue.number}#issuecomment-${c.id}`,
          created_at: c.created_at,
          updated_at: c.created_at,
          user: { login: 'someone', type: 'User' },
          body: c.body,
        }));
        return send(res, 200, items, 'core', link(page, Math.max(1, Math.ceil(all.length / perPage))));
      }
      const repo = o.repos.find((r) => r.fullName === full);
      if (!repo) return send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/repos/repos#get-a-repository' });
      if (p.length === 3) {
        return send(res, 200, { full_name: repo.fullName, default_branch: repo.defaultBranch, fork: Boolean(repo.fork), archived: false, ...(repo.fork ? { parent: { full_name: repo.fork } } : {}) });
      }
      if (p[3] === 'commits') {
        if (url.searchParams.get('sha') !== repo.defaultBranch) return send(res, 404, { message: 'No commit found for SHA' });
        const until = url.searchParams.get('until');
        const list = [...repo.commits]
          .filter((c) => !until || Date.parse(c.date) <= Date.parse(until))
          .sort((a, b) => Date.parse(b.date) - Date.parse(a.date))
          .map((c) => ({ sha: c.sha, commit: { committer: { date: c.date }, author: { date: c.date }, message: 'commit' } }));
        const items = list.slice((page - 1) * perPage, page * perPage);
        return send(res, 200, items, 'core', link(page, Math.max(1, Math.ceil(list.length / perPage))));
      }
      if (p[3] === 'contents') {
        const commit = repo.commits.find((c) => c.sha === url.searchParams.get('ref'));
        if (!commit) return send(res, 404, { message: `No commit found for the ref ${url.searchParams.get('ref')}` });
        const path = p.slice(4).join('/');
        if (path === '') return send(res, 200, commit.files.map((f) => ({ name: f, path: f, type: 'file', sha: '0'.repeat(40) })));
        if (!commit.files.includes(path)) return send(res, 404, { message: 'Not Found' });
        return send(res, 200, { name: path, path, type: 'file', encoding: 'base64', content: '' });
      }
    }
    return send(res, 404, { message: 'Not Found' });
  }

  function searchIssues(q: string): FakeIssue[] {
    const terms = [...q.matchAll(/(?:[^\s"]+|"[^"]*")+/g)].map((m) => m[0]);
    const words: string[] = [];
    const preds: ((i: FakeIssue) => boolean)[] = [];
    let inComments = false;
    for (const t of terms) {
      const m = /^(is|in|state|language|created):(.+)$/.exec(t);
      if (!m) {
        words.push(t.replace(/^"|"$/g, '').toLowerCase());
        continue;
      }
      const [, k, v] = m;
      if (k === 'is') preds.push((i) => (v === 'issue' ? !i.pull_request : v === 'pr' ? Boolean(i.pull_request) : true));
      else if (k === 'in') inComments = v === 'comments';
      else if (k === 'state') preds.push((i) => i.state === v);
      else if (k === 'language') preds.push((i) => i.language.toLowerCase() === v!.toLowerCase());
      else if (k === 'created') {
        const [lo, hi] = v!.split('..').map((s) => Date.parse(s));
        preds.push((i) => Date.parse(i.created_at) >= lo! && Date.parse(i.created_at) <= hi!);
      }
    }
    // GitHub's text match is by words; `in:comments` looks at comments only.
    const text = (i: FakeIssue) => (inComments ? i.comments.map((c) => c.body) : [i.title, i.body, ...i.comments.map((c) => c.body)]).join('\n').toLowerCase();
    return o.issues
      .filter((i) => preds.every((p) => p(i)) && words.every((w) => text(i).includes(w)))
      .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function issueJson(i: FakeIssue) {
  return {
    id: i.id,
    number: i.number,
    title: i.title,
    body: i.body,
    state: i.state,
    created_at: i.created_at,
    comments: i.comments.length,
    html_url: `https://github.com/${i.repo}/issues/${i.number}`,
    repository_url: `https://api.github.com/repos/${i.repo}`,
    user: { login: 'reporter', type: 'User' },
    ...(i.pull_request ? { pull_request: { url: `https://api.github.com/repos/${i.repo}/pulls/${i.number}` } } : {}),
    score: 1,
  };
}

function send(res: ServerResponse, status: number, payload: unknown, resource = 'core', headers: Record<string, string> = {}) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '4999',
    'x-ratelimit-used': '1',
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
    'x-ratelimit-resource': resource,
    ...headers,
  });
  res.end(JSON.stringify(payload));
}
