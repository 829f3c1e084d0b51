import { join } from 'node:path';
import type { CloneSettings } from '../../pipeline/config/schema.js';
import { ensureCheckout } from '../../pipeline/git/clone-cache.js';
import { GitFailure } from '../../pipeline/git/git-failure.js';
import { accept, fail, type Columns, type Item, type Stage } from '../../pipeline/stage.js';
import { assertFreeSpace } from './disk-budget.js';

/** clone: a pinned checkout of every accepted repository, in the clone cache shared by all datasets. */

const columns = {
  repository: 'VARCHAR',
  language: 'VARCHAR',
  revision: 'VARCHAR',
  default_branch: 'VARCHAR',
  commit_date: 'VARCHAR',
  clone_path: 'VARCHAR',
  cached: 'BOOLEAN',
  clone_mode: 'VARCHAR',
  object_bytes: 'BIGINT',
  worktree_bytes: 'BIGINT',
  files: 'BIGINT',
  submodules: 'VARCHAR[]',
} satisfies Columns;

export function cloneUrl(template: string, repository: string, cwd = process.cwd()): string {
  const [owner = '', repo = ''] = repository.split('/');
  return template.replaceAll('{owner}', owner).replaceAll('{repo}', repo).replaceAll('{cwd}', cwd);
}

export function clonesRoot(cacheDir: string): string {
  return join(cacheDir, 'clones');
}

export const cloneStage: Stage<Item> = {
  name: 'clone',
  version: 1,
  description: 'check out each accepted repository at a pinned revision (clone cache shared by datasets)',
  input: 'search',
  columns,
  key: (row) => String(row.repository),
  async run(row, ctx) {
    const s: CloneSettings = ctx.config.config.clone;
    const repository = String(row.repository);
    const [owner, repo] = repository.split('/') as [string, string];
    const root = clonesRoot(ctx.cacheDir);
    const revision = typeof row.revision === 'string' && row.revision !== '' ? row.revision : null;
    const base = { repository, language: (row.language as string | null) ?? null };
    await assertFreeSpace(root, s.min_free_gb);
    try {
      const c = await ensureCheckout({
        url: cloneUrl(s.url_template, repository),
        owner,
        repo,
        revision,
        depth: s.depth,
        blobFilter: s.blob_filter,
        root,
        timeoutMs: s.timeout_seconds * 1000,
        signal: ctx.signal,
      });
      return accept({
        ...base,
        revision: c.sha,
        default_branch: c.defaultBranch ?? (row.default_branch as string | null) ?? null,
        commit_date: c.commitDate,
        clone_path: c.path,
        cached: c.cached,
        clone_mode: c.mode,
        object_bytes: c.gitBytes,
        worktree_bytes: c.worktreeBytes,
        files: c.files,
        submodules: c.submodules,
      });
    } catch (err) {
      if (err instanceof GitFailure) return fail(err.code, err.message, { ...base, revision });
      throw err;
    }
  },
};
