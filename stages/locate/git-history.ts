import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gitFor } from '../../pipeline/git/git-client.js';
import { GitFailure, classifyGitError } from '../../pipeline/git/git-failure.js';

/**
 * History without contents: one bare partial clone (`--filter=blob:none`) per repository under
 * `<cache>/history/`, holding the default branch's commits and trees but no file contents. That
 * is all locate needs: the newest commit at a time (`rev-list --before`) and which files exist
 * at it (`ls-tree`). Shared by every dataset, refreshed when the remote's head moved.
 */
export interface History {
  dir: string;
  branch: string;
  head: string;
}

const locks = new Map<string, Promise<unknown>>();

/** One fetch per repository at a time in this process (several issues of one repository run concurrently). */
async function serialized<T>(key: string, job: () => Promise<T>): Promise<T> {
  const prev = locks.get(key) ?? Promise.resolve();
  const next = prev.catch(() => {}).then(job);
  locks.set(key, next);
  try {
    return await next;
  } finally {
    if (locks.get(key) === next) locks.delete(key);
  }
}

export function historyRoot(cacheDir: string): string {
  return join(cacheDir, 'history');
}

export async function ensureHistory(req: { url: string; root: string; owner: string; repo: string; timeoutMs: number; signal?: AbortSignal }): Promise<History> {
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  const dir = join(req.root, req.owner, `${req.repo}.git`);
  try {
    return await serialized(dir, async () => {
      const out = await gitFor({ signal }).raw(['ls-remote', '--symref', req.url, 'HEAD']);
      const head = /^([0-9a-f]{40})\tHEAD$/m.exec(out)?.[1];
      const branch = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(out)?.[1];
      if (!head || !branch) throw new GitFailure('empty_repository', 'the remote has no default branch (an empty repository)');
      if (!existsSync(join(dir, 'HEAD'))) {
        await mkdir(dir, { recursive: true });
        await gitFor({ baseDir: dir, signal }).raw(['init', '--quiet', '--bare']);
      }
      const git = gitFor({ baseDir: dir, signal });
      const have = await git.raw(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).catch(() => '');
      if (have.trim() !== head) {
        await git.raw(['fetch', '--quiet', '--no-tags', '--filter=blob:none', req.url, `+refs/heads/${branch}:refs/heads/${branch}`]);
      }
      return { dir, branch, head };
    });
  } catch (err) {
    if (req.signal?.aborted) throw new Error('history fetch interrupted', { cause: err });
    if (timeout.aborted) throw new GitFailure('clone_timeout', `no history within ${Math.round(req.timeoutMs / 1000)} s`);
    throw classifyGitError(err);
  }
}

/** The newest first-parent commit of the branch committed at or before `at` (ISO 8601); undefined when none is. */
export async function commitAtOrBefore(h: History, at: string): Promise<{ sha: string; date: string } | undefined> {
  const seconds = Math.floor(Date.parse(at) / 1000);
  if (!Number.isFinite(seconds)) throw new Error(`not a time: ${JSON.stringify(at)}`);
  // --before compares committer dates; @<seconds> avoids any parsing of time zones.
  const out = (await gitFor({ baseDir: h.dir }).raw(['rev-list', '-1', '--first-parent', `--before=@${seconds}`, '--format=%cI', `refs/heads/${h.branch}`])).trim();
  const m = /^commit ([0-9a-f]{40})\n(\S+)/.exec(out);
  return m ? { sha: m[1]!, date: m[2]! } : undefined;
}

/** Which of `names` exist in the root of the commit's tree (no blob is fetched). */
export async function rootEntries(h: History, sha: string): Promise<Set<string>> {
  const out = await gitFor({ baseDir: h.dir }).raw(['ls-tree', '--name-only', sha]);
  return new Set(out.split('\n').filter(Boolean));
}
