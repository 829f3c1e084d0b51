import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gitFor } from './git-client.js';
import { GitFailure, classifyGitError } from './git-failure.js';

/**
 * The clone cache: `<root>/<owner>/<repo>/<sha>/` is a shallow checkout of exactly that commit
 * (`<sha>-full/` one with history), shared by every dataset; `<entry>.json` beside it records
 * its facts and marks it complete. A pinned
 * revision that is already cached costs no network at all.
 */
export interface CheckoutRequest {
  url: string;
  owner: string;
  repo: string;
  /** A commit SHA to pin; when absent, the remote's default-branch head is resolved and pinned. */
  revision?: string | null;
  /** 0 = full history; otherwise a shallow fetch of this many commits. */
  depth: number;
  /** Ask the server for no blobs beyond what the checkout needs (partial clone). */
  blobFilter: boolean;
  root: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface Checkout {
  sha: string;
  /** Relative to the cache root: artifacts never record host paths. */
  path: string;
  cached: boolean;
  defaultBranch: string | null;
  commitDate: string;
  gitBytes: number;
  worktreeBytes: number;
  files: number;
  submodules: string[];
  mode: 'shallow' | 'full';
}

type Facts = Omit<Checkout, 'cached'>;

export async function ensureCheckout(req: CheckoutRequest): Promise<Checkout> {
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  try {
    return await checkout(req, signal);
  } catch (err) {
    // Cut short by the run's interrupt: that says nothing about the repository, so it must not
    // become a GitFailure (an `error` row the next run would count as done). The runner leaves
    // work that throws after an abort pending.
    if (req.signal?.aborted) throw new Error('clone interrupted', { cause: err });
    if (timeout.aborted) {
      throw new GitFailure('clone_timeout', `no result within ${Math.round(req.timeoutMs / 1000)} s`);
    }
    throw classifyGitError(err);
  }
}

async function checkout(req: CheckoutRequest, signal: AbortSignal): Promise<Checkout> {
  const repoDir = join(req.root, req.owner, req.repo);
  let sha = req.revision?.toLowerCase() ?? null;
  let defaultBranch: string | null = null;
  if (sha) {
    const hit = await readFacts(repoDir, entryName(sha, req));
    if (hit) return { ...hit, cached: true };
  } else {
    ({ sha, branch: defaultBranch } = await resolveHead(req.url, signal));
    const hit = await readFacts(repoDir, entryName(sha, req));
    if (hit) return { ...hit, defaultBranch: hit.defaultBranch ?? defaultBranch, cached: true };
  }

  await mkdir(repoDir, { recursive: true });
  const tmp = join(repoDir, `.tmp-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(tmp);
    const git = gitFor({ baseDir: tmp, signal });
    await git.init();
    await git.addRemote('origin', req.url);
    const base = ['fetch', '--no-tags', '--quiet', ...(req.blobFilter ? ['--filter=blob:none'] : [])];
    const depth = req.depth > 0 ? [`--depth=${req.depth}`] : [];
    try {
      await git.raw([...base, ...depth, 'origin', sha]);
    } catch (err) {
      // Servers that refuse to serve a commit by id (no allowReachableSHA1InWant) still serve
      // branches: fetch those and look for the commit among them.
      if (classifyGitError(err).code !== 'revision_unavailable') throw err;
      await git.raw([...base, 'origin', '+refs/heads/*:refs/remotes/origin/*']);
    }
    await git.raw(['-c', 'core.longpaths=true', 'checkout', '--quiet', '--detach', sha]);
    const facts: Facts = {
      sha,
      path: join(req.owner, req.repo, entryName(sha, req)),
      defaultBranch,
      commitDate: (await git.raw(['show', '-s', '--format=%cI', sha])).trim(),
      ...(await measure(tmp)),
      submodules: await submodulePaths(tmp),
      mode: req.depth > 0 ? 'shallow' : 'full',
    };
    // The checkout is copied into sandboxes: it must not carry the credentials of the URL.
    await git.remote(['set-url', 'origin', withoutCredentials(req.url)]);
    const final = join(repoDir, entryName(sha, req));
    try {
      await rename(tmp, final);
    } catch (err) {
      // Another process finished the same checkout first: theirs is as good as ours.
      if (!existsSync(final)) throw err;
    }
    await writeFile(join(repoDir, `${entryName(sha, req)}.json`), JSON.stringify(facts, null, 2));
    return { ...facts, cached: false };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

async function resolveHead(url: string, signal: AbortSignal): Promise<{ sha: string; branch: string | null }> {
  const out = await gitFor({ signal }).raw(['ls-remote', '--symref', url, 'HEAD']);
  const sha = /^([0-9a-f]{40})\tHEAD$/m.exec(out)?.[1];
  if (!sha) throw new GitFailure('empty_repository', 'the remote has no HEAD commit (an empty repository)');
  const branch = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(out)?.[1] ?? null;
  return { sha, branch };
}

/** Shallow and full checkouts of one commit are different cache entries: a full one has history. */
function entryName(sha: string, req: Pick<CheckoutRequest, 'depth'>): string {
  return req.depth > 0 ? sha : `${sha}-full`;
}

function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}

async function readFacts(repoDir: string, entry: string): Promise<Facts | undefined> {
  const marker = join(repoDir, `${entry}.json`);
  if (!existsSync(marker) || !existsSync(join(repoDir, entry))) return undefined;
  try {
    return JSON.parse(await readFile(marker, 'utf8')) as Facts;
  } catch {
    return undefined;
  }
}

/** Bytes of the object store (≈ what was transferred; hooks and config excluded) and of the checked-out files. */
async function measure(dir: string): Promise<{ gitBytes: number; worktreeBytes: number; files: number }> {
  let gitBytes = 0;
  let worktreeBytes = 0;
  let files = 0;
  const walk = async (d: string, inGit: boolean): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const isGit = inGit || (d === dir && e.name === '.git');
      if (e.isDirectory()) await walk(p, isGit);
      else {
        const { size } = await lstat(p);
        if (isGit) {
          if (p.startsWith(join(dir, '.git', 'objects'))) gitBytes += size;
        }
        else {
          worktreeBytes += size;
          files++;
        }
      }
    }
  };
  await walk(dir, false);
  return { gitBytes, worktreeBytes, files };
}

async function submodulePaths(dir: string): Promise<string[]> {
  if (!existsSync(join(dir, '.gitmodules'))) return [];
  try {
    const out = await gitFor({ baseDir: dir }).raw(['config', '--file', '.gitmodules', '--get-regexp', '^submodule\\..*\\.path$']);
    return out.split('\n').filter(Boolean).map((l) => l.split(' ').slice(1).join(' ')).sort();
  } catch {
    return [];
  }
}
