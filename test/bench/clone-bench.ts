import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCheckout, type Checkout } from '../../pipeline/git/clone-cache.js';
import { buildHistoryRemote, git, setAllowFilter, type HistoryOptions, type HistoryRemote } from './git-history.js';
import { median, percentile, round } from './stats.js';

/**
 * Clone cost: `ensureCheckout` of one repository with a real history over file://, shallow
 * (depth 1), full, and full with a blob filter (partial clone), then a cache hit.
 */

export interface CloneBenchOptions extends HistoryOptions {
  /** Fresh checkouts per mode; the median wall time is reported. */
  reps: number;
  cacheHits: number;
}

export interface CloneModeResult {
  mode: string;
  depth: number;
  blobFilter: boolean;
  serverAllowFilter: boolean;
  /** `gitBytes` of the checkout: bytes under .git/objects (what was transferred, roughly). */
  objectBytes: number;
  worktreeBytes: number;
  files: number;
  /** Commits reachable locally from HEAD. */
  commits: number;
  /** Objects the local repository knows of but does not hold (promised by the remote). */
  missingObjects: number;
  /** true when the checkout really is a partial clone (a promisor remote with missing blobs). */
  partialClone: boolean;
  wallMsMedian: number;
  wallMs: number[];
}

export interface CloneBenchResult {
  remote: Omit<HistoryRemote, 'bare'> & { textFiles: number; binaryEvery: number; binaryBytes: number; seed: number };
  modes: CloneModeResult[];
  ratios: {
    objectBytesFullOverShallow: number;
    wallFullOverShallow: number;
    objectBytesFullOverFiltered: number;
  };
  /** Whether depth 0 + blobFilter gave a real partial clone (server allowFilter=true). */
  filterEffective: boolean;
  cacheHit: { cached: boolean; calls: number; msMedian: number; msP95: number };
  note: string;
}

interface Mode {
  mode: string;
  depth: number;
  blobFilter: boolean;
  serverAllowFilter: boolean;
}

const MODES: Mode[] = [
  { mode: 'shallow (depth 1)', depth: 1, blobFilter: false, serverAllowFilter: true },
  { mode: 'full (depth 0)', depth: 0, blobFilter: false, serverAllowFilter: true },
  { mode: 'full + blob filter', depth: 0, blobFilter: true, serverAllowFilter: true },
  { mode: 'full + blob filter, server allowFilter=false (control)', depth: 0, blobFilter: true, serverAllowFilter: false },
];

function inspectCheckout(dir: string): { commits: number; missingObjects: number; promisor: boolean } {
  const commits = Number(git(dir, 'rev-list', '--count', 'HEAD'));
  const listed = git(dir, 'rev-list', '--objects', '--all', '--missing=print');
  const missingObjects = listed.split('\n').filter((l) => l.startsWith('?')).length;
  let promisor = false;
  try {
    promisor = git(dir, 'config', '--get', 'remote.origin.promisor') === 'true';
  } catch {
    promisor = false;
  }
  return { commits, missingObjects, promisor };
}

export async function runCloneBench(opts: CloneBenchOptions, log: (line: string) => void): Promise<CloneBenchResult> {
  const work = await mkdtemp(join(tmpdir(), 'envforge-bench-clone-'));
  try {
    const t0 = performance.now();
    const remote = buildHistoryRemote(join(work, 'remotes', 'bench', 'history.git'), opts);
    log(`clone: built ${remote.commits}-commit remote (pack ${(remote.packBytes / 1024).toFixed(0)} KiB, head ${remote.head.slice(0, 12)}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const url = `file://${remote.bare}`;

    const modes: CloneModeResult[] = [];
    let lastFullRoot = '';
    for (const m of MODES) {
      setAllowFilter(remote.bare, m.serverAllowFilter);
      const times: number[] = [];
      let last: Checkout | undefined;
      let probe: ReturnType<typeof inspectCheckout> | undefined;
      for (let r = 0; r < opts.reps; r += 1) {
        const root = await mkdtemp(join(work, 'cache-'));
        const started = performance.now();
        last = await ensureCheckout({ url, owner: 'bench', repo: 'history', revision: null, depth: m.depth, blobFilter: m.blobFilter, root, timeoutMs: 120_000 });
        times.push(performance.now() - started);
        if (last.cached) throw new Error(`${m.mode}: a fresh cache root reported a cache hit`);
        if (last.sha !== remote.head) throw new Error(`${m.mode}: checked out ${last.sha}, expected ${remote.head}`);
        probe = inspectCheckout(join(root, last.path));
        if (m.mode === 'full (depth 0)') lastFullRoot = root;
        else if (r < opts.reps - 1) await rm(root, { recursive: true, force: true });
      }
      const c = last!;
      const p = probe!;
      modes.push({
        ...m,
        objectBytes: c.gitBytes,
        worktreeBytes: c.worktreeBytes,
        files: c.files,
        commits: p.commits,
        missingObjects: p.missingObjects,
        partialClone: p.promisor && p.missingObjects > 0,
        wallMsMedian: round(median(times)),
        wallMs: times.map((t) => round(t)),
      });
      log(`clone: ${m.mode}: ${c.gitBytes} object bytes, median ${median(times).toFixed(0)} ms`);
    }
    setAllowFilter(remote.bare, true);

    // Cache hit: the pinned SHA is already checked out under the full run's root.
    const hitTimes: number[] = [];
    let allCached = true;
    for (let i = 0; i < opts.cacheHits; i += 1) {
      const started = performance.now();
      const hit = await ensureCheckout({ url, owner: 'bench', repo: 'history', revision: remote.head, depth: 0, blobFilter: false, root: lastFullRoot, timeoutMs: 120_000 });
      hitTimes.push(performance.now() - started);
      allCached &&= hit.cached;
    }

    const byMode = (name: string): CloneModeResult => modes.find((m) => m.mode === name)!;
    const shallow = byMode('shallow (depth 1)');
    const full = byMode('full (depth 0)');
    const filtered = byMode('full + blob filter');
    const { bare: _bare, ...remoteFacts } = remote;
    return {
      remote: { ...remoteFacts, textFiles: opts.textFiles, binaryEvery: opts.binaryEvery, binaryBytes: opts.binaryBytes, seed: opts.seed },
      modes,
      ratios: {
        objectBytesFullOverShallow: round(full.objectBytes / shallow.objectBytes),
        wallFullOverShallow: round(full.wallMsMedian / shallow.wallMsMedian),
        objectBytesFullOverFiltered: round(full.objectBytes / filtered.objectBytes),
      },
      filterEffective: filtered.partialClone,
      cacheHit: { cached: allCached, calls: opts.cacheHits, msMedian: round(median(hitTimes), 3), msP95: round(percentile(hitTimes, 95), 3) },
      note:
        'file:// transport (local git upload-pack, no network): wall time is git process and disk cost only. ' +
        'revision unset, so each fresh checkout includes an ls-remote to resolve HEAD. ' +
        'object bytes = bytes under .git/objects of the checkout (clone-cache gitBytes).',
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
