import type { GitHubClient } from '../../pipeline/github/client.js';
import { GitHubError } from '../../pipeline/github/errors.js';

/**
 * The same facts through the REST API, without cloning: the repository (default branch, fork,
 * gone), the newest commit of the default branch at or before a time (`commits?sha=&until=`),
 * and the root of the tree at a commit (`contents/?ref=`).
 */
export interface RepoInfo {
  fullName: string;
  defaultBranch: string;
  fork: boolean;
  parent: string | null;
  archived: boolean;
}

/** undefined: the repository is gone (404, or 451 blocked). */
export async function repoInfo(client: GitHubClient, repo: string, signal?: AbortSignal): Promise<RepoInfo | undefined> {
  const [owner, name] = repo.split('/') as [string, string];
  try {
    const res = await client.rest<{ full_name: string; default_branch: string; fork: boolean; parent?: { full_name: string }; archived?: boolean }>(
      'GET /repos/{owner}/{repo}',
      { owner, repo: name },
      signal,
    );
    const d = res.data;
    return { fullName: d.full_name, defaultBranch: d.default_branch, fork: Boolean(d.fork), parent: d.parent?.full_name ?? null, archived: Boolean(d.archived) };
  } catch (err) {
    if (err instanceof GitHubError && (err.status === 404 || err.status === 451)) return undefined;
    throw err;
  }
}

export async function apiCommitAtOrBefore(client: GitHubClient, repo: string, branch: string, at: string, signal?: AbortSignal): Promise<{ sha: string; date: string } | undefined> {
  const [owner, name] = repo.split('/') as [string, string];
  try {
    const res = await client.rest<{ sha: string; commit: { committer?: { date?: string } } }[]>(
      'GET /repos/{owner}/{repo}/commits',
      { owner, repo: name, sha: branch, until: at, per_page: 1 },
      signal,
    );
    const c = res.data[0];
    return c ? { sha: c.sha, date: c.commit.committer?.date ?? '' } : undefined;
  } catch (err) {
    // 409: "Git Repository is empty."
    if (err instanceof GitHubError && err.status === 409) return undefined;
    throw err;
  }
}

/** Names in the root of the tree at `ref`. */
export async function apiRootEntries(client: GitHubClient, repo: string, ref: string, signal?: AbortSignal): Promise<Set<string>> {
  const [owner, name] = repo.split('/') as [string, string];
  const res = await client.rest<{ name: string; type: string }[] | { name: string }>('GET /repos/{owner}/{repo}/contents/{path}', { owner, repo: name, path: '', ref }, signal);
  return new Set(Array.isArray(res.data) ? res.data.map((e) => e.name) : [res.data.name]);
}
