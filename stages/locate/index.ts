import type { LocateSettings } from '../../pipeline/config/conflict-sections.js';
import { githubClientFor, type GitHubClient } from '../../pipeline/github/client.js';
import { GitHubError } from '../../pipeline/github/errors.js';
import { GitFailure } from '../../pipeline/git/git-failure.js';
import { accept, fail, reject, type Cells, type Columns, type Item, type Outcome, type Stage, type StageContext } from '../../pipeline/stage.js';
import { cloneUrl } from '../clone/index.js';
import { apiCommitAtOrBefore, apiRootEntries, repoInfo, type RepoInfo } from './api-history.js';
import { commitAtOrBefore, ensureHistory, historyRoot, rootEntries, type History } from './git-history.js';

/**
 * locate: SetupBench's base commit (appendix C.1) — the newest commit of the default branch at
 * or before the issue was opened — and the ecosystem's files there: the manifest and at least
 * one lockfile must exist. Through a partial clone (no file contents fetched) or the REST API.
 *
 * Duplicates: an issue's later match is a duplicate of an earlier one that locates too (same
 * repository and commit; an earlier match of another ecosystem whose files are missing does
 * not count); and an issue whose base commit an earlier-opened issue of the same
 * repository (a sibling the source found) already has is a duplicate of that one. Both are
 * rejected naming what they duplicate, so each repository@commit yields one task.
 */

const columns = {
  ecosystem: 'VARCHAR',
  repo: 'VARCHAR',
  issue_number: 'BIGINT',
  issue_url: 'VARCHAR',
  issue_created_at: 'VARCHAR',
  comment_id: 'BIGINT',
  snippet: 'VARCHAR',
  matched_at: 'VARCHAR',
  default_branch: 'VARCHAR',
  base_commit: 'VARCHAR',
  base_commit_date: 'VARCHAR',
  manifest: 'VARCHAR',
  lockfiles_found: 'VARCHAR[]',
  repo_url: 'VARCHAR',
  via: 'VARCHAR',
  duplicate_of: 'VARCHAR',
} satisfies Columns;

interface Finder {
  via: 'git' | 'api';
  branch: string;
  commitAt(at: string): Promise<{ sha: string; date: string } | undefined>;
  entries(sha: string): Promise<Set<string>>;
}

const MAX_SIBLINGS = 50;

export const locateStage: Stage<Item> = {
  name: 'locate',
  version: 1,
  description: "find each conflict's base commit (newest default-branch commit before the issue) with its manifest and lockfiles",
  input: 'conflicts',
  configSections: ['locate'],
  columns,
  key: (row) => String(row.key),
  async run(row, ctx): Promise<Outcome> {
    const s: LocateSettings = ctx.config.config.locate;
    const repo = String(row.repo);
    const ecosystem = String(row.ecosystem);
    const base: Cells = {
      ecosystem,
      repo,
      issue_number: Number(row.issue_number),
      issue_url: String(row.issue_url),
      issue_created_at: String(row.issue_created_at),
      comment_id: Number(row.comment_id),
      snippet: String(row.snippet),
      matched_at: String(row.matched_at),
      repo_url: `https://github.com/${repo}`,
      via: s.via,
    };
    const eco = s.ecosystems[ecosystem];
    if (!eco) return fail('unknown_ecosystem', `no [locate.ecosystems.${ecosystem}] in the config (manifest and lockfiles)`, base);
    let finder: Finder;
    try {
      let info: RepoInfo | undefined;
      let client: GitHubClient | undefined;
      if (s.via === 'api' || s.repo_metadata) {
        client = githubClientFor(ctx.config.config.github, ctx.log);
        info = await repoInfo(client, repo, ctx.signal);
        if (!info) return reject('repo_unavailable', `${repo} is gone (the API answers 404)`, base);
        if (info.fork && s.reject_forks) {
          return reject('fork', `${repo} is a fork${info.parent ? ` of ${info.parent}` : ''}: its conflicts are the parent's`, { ...base, default_branch: info.defaultBranch });
        }
      }
      finder = s.via === 'api' ? apiFinder(client!, repo, info!, ctx) : await gitFinder(repo, s, ctx);
    } catch (err) {
      return failure(err, base, ctx);
    }
    Object.assign(base, { default_branch: finder.branch });
    const createdAt = String(row.issue_created_at);
    try {
      const at = await finder.commitAt(createdAt);
      if (!at) return reject('no_commit_before_issue', `no commit of ${finder.branch} at or before ${createdAt}`, base);
      Object.assign(base, { base_commit: at.sha, base_commit_date: at.date });
      const names = await finder.entries(at.sha);
      const lockfiles = eco.lockfiles.filter((f) => names.has(f));
      Object.assign(base, { manifest: names.has(eco.manifest) ? eco.manifest : null, lockfiles_found: lockfiles });
      if (!names.has(eco.manifest)) return reject('no_manifest', `no ${eco.manifest} in the root at ${at.sha.slice(0, 12)}`, base);
      if (lockfiles.length === 0) return reject('no_lockfile', `none of ${eco.lockfiles.join(', ')} in the root at ${at.sha.slice(0, 12)}`, base);
      // An earlier match of the same issue whose ecosystem's files are also here stands for this one.
      const earlier = (Array.isArray(row.earlier_matches) ? (row.earlier_matches as string[]) : []).find((k) => {
        const e = s.ecosystems[k.split('/').at(-2) ?? ''];
        return e !== undefined && names.has(e.manifest) && e.lockfiles.some((f) => names.has(f));
      });
      if (earlier) return reject('duplicate_comment', `an earlier match of the same issue stands for it: ${earlier}`, { ...base, duplicate_of: earlier });
      const dup = await earlierSibling(row, at.sha, finder);
      if (dup) {
        return reject('duplicate_base_commit', `issue #${dup} of ${repo}, opened earlier, has the same base commit ${at.sha.slice(0, 12)}`, { ...base, duplicate_of: `${repo}#${dup}` });
      }
      return accept(base);
    } catch (err) {
      return failure(err, base, ctx);
    }
  },
};

/** The earliest-opened sibling issue with the same base commit, if it was opened before this one. */
async function earlierSibling(row: Item, sha: string, finder: Finder): Promise<number | undefined> {
  const me = { at: Date.parse(String(row.issue_created_at)), n: Number(row.issue_number) };
  const siblings = (Array.isArray(row.siblings) ? (row.siblings as string[]) : [])
    .map((s) => {
      const [n, at] = [s.slice(0, s.indexOf('@')), s.slice(s.indexOf('@') + 1)];
      return { n: Number(n), at: Date.parse(at), text: at };
    })
    .filter((o) => Number.isFinite(o.at) && (o.at < me.at || (o.at === me.at && o.n < me.n)))
    .sort((a, b) => a.at - b.at || a.n - b.n)
    .slice(0, MAX_SIBLINGS);
  for (const o of siblings) {
    const c = await finder.commitAt(o.text);
    if (c?.sha === sha) return o.n;
  }
  return undefined;
}

async function gitFinder(repo: string, s: LocateSettings, ctx: StageContext): Promise<Finder> {
  const [owner, name] = repo.split('/') as [string, string];
  const h: History = await ensureHistory({
    url: cloneUrl(ctx.config.config.clone.url_template, repo),
    root: historyRoot(ctx.cacheDir),
    owner,
    repo: name,
    timeoutMs: s.timeout_seconds * 1000,
    signal: ctx.signal,
  });
  return { via: 'git', branch: h.branch, commitAt: (at) => commitAtOrBefore(h, at), entries: (sha) => rootEntries(h, sha) };
}

function apiFinder(client: GitHubClient, repo: string, info: RepoInfo, ctx: StageContext): Finder {
  return {
    via: 'api',
    branch: info.defaultBranch,
    commitAt: (at) => apiCommitAtOrBefore(client, repo, info.defaultBranch, at, ctx.signal),
    entries: (sha) => apiRootEntries(client, repo, sha, ctx.signal),
  };
}

function failure(err: unknown, cells: Cells, ctx: StageContext): Outcome {
  if (ctx.signal.aborted) throw err;
  if (err instanceof GitFailure) return fail(err.code, err.message, cells);
  if (err instanceof GitHubError) return fail('github_error', err.message, cells);
  throw err;
}
