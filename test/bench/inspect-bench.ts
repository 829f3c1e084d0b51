import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectRepository } from '../../stages/inspect/inspect-repository.js';
import type { InspectOptions, RepoFacts } from '../../stages/inspect/repo-facts.js';
import { generateRepos, type GeneratedRepo, type GeneratedSet } from './generate-repos.js';
import { medianIndex, percentile, round } from './stats.js';

/**
 * Inspect throughput: `inspectRepository` over a set of generated repositories, one repository
 * after another (as one runner slot does), several passes over the same set.
 */

export const INSPECT_OPTIONS: Required<InspectOptions> = {
  nested_depth: 3,
  docker_depth: 3,
  max_file_bytes: 1_048_576,
  max_entries: 200_000,
};

export interface InspectBenchOptions {
  repos: number;
  passes: number;
  seed: number;
  minFiles: number;
  maxFiles: number;
}

export interface InspectPass {
  pass: number;
  wallMs: number;
  reposPerSec: number;
  /** Files on disk in the set (skipped directories included) divided by wall time. */
  filesPerSec: number;
  /** Directory entries the walk visited, divided by wall time. */
  entriesPerSec: number;
  msPerRepoP50: number;
  msPerRepoP95: number;
  msPerRepoMax: number;
}

export interface InspectBenchResult {
  options: Required<InspectOptions>;
  set: {
    repos: number;
    kinds: Record<string, number>;
    files: number;
    bytes: number;
    filesInSkippedDirs: number;
    largeFiles: number;
    minFilesPerRepo: number;
    maxFilesPerRepo: number;
    /** Files outside the skipped directories (the project's own tree). */
    minProjectFilesPerRepo: number;
    maxProjectFilesPerRepo: number;
    fingerprint: string;
    generateMs: number;
    seed: number;
  };
  entriesVisited: number;
  findings: number;
  /** Repositories whose facts name the expected manager (and monorepo flag). */
  factsCheck: { ok: number; of: number; failures: string[] };
  passes: InspectPass[];
  /** The pass with the median wall time among ALL passes (the cold first pass included). */
  median: InspectPass;
  /** The pass with the median wall time among the passes after the first. */
  warmMedian: InspectPass;
  cold: InspectPass;
  note: string;
}

function check(repo: GeneratedRepo, facts: RepoFacts): string | null {
  if (!facts.managers.includes(repo.expectManager)) return `${repo.name}: managers ${JSON.stringify(facts.managers)} lack ${repo.expectManager}`;
  if (repo.expectMonorepo && !facts.is_monorepo) return `${repo.name}: expected a monorepo, signals ${JSON.stringify(facts.monorepo_signals)}`;
  if (facts.walk_truncated) return `${repo.name}: walk truncated`;
  return null;
}

async function onePass(set: GeneratedSet, pass: number): Promise<{ stats: InspectPass; facts: RepoFacts[] }> {
  const times: number[] = [];
  const facts: RepoFacts[] = [];
  const started = performance.now();
  for (const repo of set.repos) {
    const t0 = performance.now();
    facts.push(await inspectRepository(repo.dir, INSPECT_OPTIONS));
    times.push(performance.now() - t0);
  }
  const wallMs = performance.now() - started;
  const entries = facts.reduce((acc, f) => acc + f.entries_visited, 0);
  return {
    facts,
    stats: {
      pass,
      wallMs: round(wallMs),
      reposPerSec: round(set.repos.length / (wallMs / 1000)),
      filesPerSec: Math.round(set.files / (wallMs / 1000)),
      entriesPerSec: Math.round(entries / (wallMs / 1000)),
      msPerRepoP50: round(percentile(times, 50)),
      msPerRepoP95: round(percentile(times, 95)),
      msPerRepoMax: round(Math.max(...times)),
    },
  };
}

export async function runInspectBench(opts: InspectBenchOptions, log: (line: string) => void): Promise<InspectBenchResult> {
  const root = await mkdtemp(join(tmpdir(), 'envforge-bench-inspect-'));
  try {
    log(`inspect: generating ${opts.repos} repositories in ${root} ...`);
    const set = await generateRepos(root, { count: opts.repos, seed: opts.seed, minFiles: opts.minFiles, maxFiles: opts.maxFiles });
    log(`inspect: ${set.files} files, ${(set.bytes / 1048576).toFixed(1)} MiB written in ${(set.generateMs / 1000).toFixed(1)} s; ${opts.passes} passes ...`);

    // Flush the freshly written files so that write-back does not run during the timed passes.
    try {
      execFileSync('sync', { stdio: 'ignore' });
    } catch {
      // best effort
    }

    const passes: InspectPass[] = [];
    let firstFacts: RepoFacts[] = [];
    for (let p = 1; p <= opts.passes; p += 1) {
      const { stats, facts } = await onePass(set, p);
      if (p === 1) firstFacts = facts;
      passes.push(stats);
      log(`inspect: pass ${p}: ${stats.wallMs.toFixed(0)} ms, ${stats.reposPerSec} repos/s`);
    }

    const failures = set.repos.map((r, i) => check(r, firstFacts[i]!)).filter((f): f is string => f !== null);
    const kinds: Record<string, number> = {};
    for (const r of set.repos) kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
    const warm = passes.slice(1);
    return {
      options: INSPECT_OPTIONS,
      set: {
        repos: set.repos.length,
        kinds,
        files: set.files,
        bytes: set.bytes,
        filesInSkippedDirs: set.skippedFiles,
        largeFiles: set.largeFiles,
        minFilesPerRepo: Math.min(...set.repos.map((r) => r.files)),
        maxFilesPerRepo: Math.max(...set.repos.map((r) => r.files)),
        minProjectFilesPerRepo: Math.min(...set.repos.map((r) => r.files - r.skippedFiles)),
        maxProjectFilesPerRepo: Math.max(...set.repos.map((r) => r.files - r.skippedFiles)),
        fingerprint: set.fingerprint,
        generateMs: round(set.generateMs),
        seed: opts.seed,
      },
      entriesVisited: firstFacts.reduce((acc, f) => acc + f.entries_visited, 0),
      findings: firstFacts.reduce((acc, f) => acc + f.findings.length, 0),
      factsCheck: { ok: set.repos.length - failures.length, of: set.repos.length, failures },
      passes,
      median: passes[medianIndex(passes.map((p) => p.wallMs))]!,
      warmMedian: warm.length > 0 ? warm[medianIndex(warm.map((p) => p.wallMs))]! : passes[0]!,
      cold: passes[0]!,
      note:
        'sequential, one repository at a time. Pass 1 is "cold" for the process (JIT, lazily loaded parsers) ' +
        'but NOT for the OS page cache: the files were just written (then sync-ed) and caches are not dropped (that needs root).',
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
