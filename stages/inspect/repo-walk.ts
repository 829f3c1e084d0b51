import type { EntryBudget, EntryType, RepoFiles } from './safe-files.js';

/**
 * One breadth-first walk of the repository shared by every detector that looks below the root
 * (nested build files, Docker files). Breadth-first so that, when the entry cap cuts the walk,
 * what is lost is the deepest and least telling part of the tree.
 */

export interface WalkEntry {
  /** Repository-relative path with `/` separators. */
  path: string;
  name: string;
  /** Number of directories between the root and this entry (root entries: 0). */
  depth: number;
  type: EntryType;
}

export interface WalkResult {
  entries: WalkEntry[];
  visited: number;
  truncated: boolean;
}

/**
 * Never entered: VCS metadata, installed third-party code and tool caches. They are not the
 * project's own configuration, and node_modules or a virtualenv can hold millions of entries.
 */
export const NEVER_ENTERED_DIRS = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'bower_components',
  'vendor',
  '.venv',
  'venv',
  '.tox',
  '.nox',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.gradle',
  '.idea',
  'site-packages',
]);

/**
 * Walks at most `maxDepth` directory levels below the root, never through symlinked
 * directories (a link back to an ancestor would otherwise loop, and links may leave the tree).
 * Symlinks are still reported as entries so that detectors can resolve the ones they care about.
 */
export async function walkRepository(
  files: RepoFiles,
  limits: { maxDepth: number; maxEntries: number },
): Promise<WalkResult> {
  const budget: EntryBudget = { remaining: limits.maxEntries, exhausted: false };
  const entries: WalkEntry[] = [];
  const queue: Array<{ path: string; depth: number }> = [{ path: '', depth: 0 }];

  for (let head = 0; head < queue.length && !budget.exhausted; head += 1) {
    const dir = queue[head]!;
    const listed = await files.listDir(dir.path, budget);
    for (const entry of listed) {
      const rel = dir.path === '' ? entry.name : `${dir.path}/${entry.name}`;
      entries.push({ path: rel, name: entry.name, depth: dir.depth, type: entry.type });
      if (entry.type === 'dir' && dir.depth < limits.maxDepth && !NEVER_ENTERED_DIRS.has(entry.name)) {
        queue.push({ path: rel, depth: dir.depth + 1 });
      }
    }
  }

  const visited = limits.maxEntries - budget.remaining;
  if (budget.exhausted) {
    files.findings.add(
      '(walk)',
      `stopped after ${visited} entries (max_entries ${limits.maxEntries}); deeper build and Docker files may be missing`,
      false,
    );
  }
  return { entries, visited, truncated: budget.exhausted };
}
