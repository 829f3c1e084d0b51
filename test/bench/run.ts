import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Table from 'cli-table3';
import { runCloneBench, type CloneBenchResult } from './clone-bench.js';
import { githubTables, runGitHubBench, type GitHubBenchResult } from './github-bench.js';
import { runInspectBench, type InspectBenchResult, type InspectPass } from './inspect-bench.js';
import { runSandboxBench, sandboxTables, type SandboxBenchResult } from './sandbox-bench.js';
import { formatBytes } from './stats.js';

/**
 * `npm run bench` / `make bench`: inspect throughput on generated repositories and clone cost
 * (shallow vs full vs partial) on a generated history. A benchmark, not a test: it prints
 * numbers and writes them to data/bench/results.json; it fails only when something breaks.
 *
 * Also: GitHub API requests per 1,000 candidates of a crawl against the fake GitHub (github-bench.ts).
 *
 * Flags: --only=inspect|clone|sandbox|github, --repos=N, --passes=N (defaults: 40 repositories, 3 passes).
 */

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RESULTS = join(REPO_ROOT, 'data', 'bench', 'results.json');

function flag(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.slice(2).find((a) => a.startsWith(prefix))?.slice(prefix.length);
}

function intFlag(name: string, fallback: number): number {
  const raw = flag(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${raw}`);
  return n;
}

function machine() {
  let gitVersion = 'unknown';
  try {
    gitVersion = execFileSync('git', ['--version'], { encoding: 'utf8' }).trim().replace(/^git version /, '');
  } catch {
    // reported as unknown
  }
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    totalMemoryBytes: os.totalmem(),
    git: gitVersion,
  };
}

/** Plain text: no ANSI colours, so the table reads the same in a log file or CI output. */
const PLAIN = { head: [] as string[], border: [] as string[] };

const n = (v: number): string => v.toLocaleString('en-US');
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

function inspectTables(r: InspectBenchResult): string {
  const set = new Table({ head: ['inspect: generated set', 'value'], style: PLAIN });
  set.push(
    ['repositories', `${r.set.repos} (${Object.entries(r.set.kinds).map(([k, c]) => `${k} ${c}`).join(', ')})`],
    ['files on disk', `${n(r.set.files)} (${n(r.set.minFilesPerRepo)}–${n(r.set.maxFilesPerRepo)} per repo, of which ${n(r.set.minProjectFilesPerRepo)}–${n(r.set.maxProjectFilesPerRepo)} project files; ${n(r.set.filesInSkippedDirs)} in total in .git/.venv/.gradle/node_modules)`],
    ['bytes on disk', `${formatBytes(r.set.bytes)} (${r.set.largeFiles} files ≥ 256 KiB)`],
    ['entries visited by the walk (per pass)', n(r.entriesVisited)],
    ['findings (per pass)', n(r.findings)],
    ['facts check (expected manager/monorepo found)', `${r.factsCheck.ok}/${r.factsCheck.of}${r.factsCheck.failures.length ? ` — ${r.factsCheck.failures.join('; ')}` : ''}`],
    ['options', JSON.stringify(r.options)],
    ['generation', `${(r.set.generateMs / 1000).toFixed(1)} s, seed ${r.set.seed}, fingerprint ${r.set.fingerprint}`],
  );
  const passes = new Table({
    head: ['inspect pass', 'wall ms', 'repos/s', 'files on disk/s', 'walk entries/s', 'ms/repo p50', 'ms/repo p95', 'ms/repo max'],
    colAligns: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
    style: PLAIN,
  });
  const row = (label: string, p: InspectPass): string[] => [
    label,
    p.wallMs.toFixed(0),
    p.reposPerSec.toFixed(1),
    n(p.filesPerSec),
    n(p.entriesPerSec),
    p.msPerRepoP50.toFixed(1),
    p.msPerRepoP95.toFixed(1),
    p.msPerRepoMax.toFixed(1),
  ];
  for (const p of r.passes) passes.push(row(p.pass === 1 ? `${p.pass} (cold process)` : String(p.pass), p));
  passes.push(row(`MEDIAN of ${r.passes.length} (= pass ${r.median.pass})`, r.median));
  if (r.passes.length > 2) passes.push(row(`median of warm passes (= pass ${r.warmMedian.pass})`, r.warmMedian));
  return [
    set.toString(),
    passes.toString(),
    `note: ${r.note}`,
    `note: files on disk/s = all files of the set / wall time; the walk stops at depth ${Math.max(r.options.nested_depth, r.options.docker_depth)} and never enters skipped dirs, so it lists ${n(r.entriesVisited)} entries per pass (walk entries/s).`,
  ].join('\n');
}

function cloneTables(r: CloneBenchResult): string {
  const t = new Table({
    head: ['clone mode', 'object bytes', 'worktree bytes', 'files', 'commits', 'missing objs', 'partial clone', 'wall ms (median)'],
    colAligns: ['left', 'right', 'right', 'right', 'right', 'right', 'left', 'right'],
    style: PLAIN,
  });
  for (const m of r.modes) {
    t.push([
      m.mode,
      `${n(m.objectBytes)} (${formatBytes(m.objectBytes)})`,
      `${n(m.worktreeBytes)}`,
      String(m.files),
      String(m.commits),
      String(m.missingObjects),
      m.partialClone ? 'yes' : 'no',
      m.wallMsMedian.toFixed(0),
    ]);
  }
  t.push([
    `cache hit (pinned sha, ${r.cacheHit.calls} calls)`,
    '-',
    '-',
    '-',
    '-',
    '-',
    `cached: ${r.cacheHit.cached}`,
    `${r.cacheHit.msMedian.toFixed(2)} (p95 ${r.cacheHit.msP95.toFixed(2)})`,
  ]);
  const rem = r.remote;
  return [
    `clone remote: ${rem.commits} commits, ${rem.textFiles} text files edited over time, binary blob of ${formatBytes(rem.binaryBytes)} replaced every ${rem.binaryEvery} commits (${rem.binaryVersions} binary blob versions), server pack ${formatBytes(rem.packBytes)}, head ${rem.head}`,
    t.toString(),
    `ratio full/shallow: object bytes ${r.ratios.objectBytesFullOverShallow}x, wall time ${r.ratios.wallFullOverShallow}x; full/filtered object bytes ${r.ratios.objectBytesFullOverFiltered}x`,
    `blob filter: ${r.filterEffective ? 'EFFECTIVE — real partial clone (server uploadpack.allowFilter=true; blobs of older commits stay missing/promised)' : 'IGNORED — the clone holds every blob'}; control row shows the same request with allowFilter=false`,
    `note: ${r.note}`,
  ].join('\n');
}

async function main(): Promise<void> {
  const only = flag('only');
  if (only !== undefined && !['inspect', 'clone', 'sandbox', 'github'].includes(only)) throw new Error(`--only must be inspect, clone, sandbox or github, got ${only}`);
  const started = performance.now();
  const info = machine();
  const results: {
    machine: ReturnType<typeof machine>;
    startedAt: string;
    inspect?: InspectBenchResult;
    clone?: CloneBenchResult;
    sandbox?: SandboxBenchResult;
    github?: GitHubBenchResult;
    totalSeconds?: number;
  } = {
    machine: info,
    startedAt: new Date().toISOString(),
  };

  const wanted = (section: string) => only === undefined || only === section;
  if (wanted('inspect')) {
    results.inspect = await runInspectBench(
      { repos: intFlag('repos', 40), passes: intFlag('passes', 3), seed: 20240601, minFiles: 300, maxFiles: 3000 },
      log,
    );
  }
  if (wanted('clone')) {
    results.clone = await runCloneBench(
      { commits: 300, seed: 7, textFiles: 6, binaryEvery: 20, binaryBytes: 96 * 1024, reps: 5, cacheHits: 10 },
      log,
    );
  }
  if (wanted('sandbox')) results.sandbox = await runSandboxBench({ noopRuns: 10, items: 6 }, log);
  if (wanted('github')) results.github = await runGitHubBench({ repos: 10_000, seed: 20240901 }, log);
  results.totalSeconds = Math.round((performance.now() - started) / 100) / 10;

  const out: string[] = [];
  out.push(
    `envforge bench — node ${info.node}, ${info.platform}, ${info.cpus} CPUs (${info.cpuModel}), ${formatBytes(info.totalMemoryBytes)} RAM, git ${info.git}`,
  );
  if (results.inspect) out.push('', inspectTables(results.inspect));
  if (results.clone) out.push('', cloneTables(results.clone));
  if (results.sandbox) out.push('', sandboxTables(results.sandbox));
  if (results.github) out.push('', githubTables(results.github, Table));
  out.push('', `total ${results.totalSeconds} s; results written to ${relative(process.cwd(), RESULTS) || RESULTS}`);

  await mkdir(dirname(RESULTS), { recursive: true });
  await writeFile(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${out.join('\n')}\n`);

  if (results.inspect && results.inspect.factsCheck.ok !== results.inspect.factsCheck.of) process.exitCode = 1;
  if (results.clone && !results.clone.cacheHit.cached) process.exitCode = 1;
  if (results.github?.scenarios.some((s) => s.contributorRequestsForNonFinalists > 0)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
