import Table from 'cli-table3';
import pLimit from 'p-limit';
import { runContainer, type RunSpec } from '../../pipeline/sandbox/container-run.js';
import { assertEngine, connectEngine } from '../../pipeline/sandbox/engine.js';
import { median, percentile } from './stats.js';

/**
 * Sandbox cost on the local engine: the overhead of one run (create + copy + start + wait +
 * remove of a no-op) and throughput of a small CPU-bound item at 1 vs 2 concurrent runs.
 */
export interface SandboxBenchResult {
  image: string;
  noop: { runs: number; msMedian: number; msP95: number };
  throughput: { jobs: number; items: number; wallMs: number; itemsPerSec: number; msPerItem: number }[];
  workItemMs: number;
}

const BASE = 'envforge/base:bookworm';

export async function runSandboxBench(opts: { noopRuns: number; items: number }, log: (l: string) => void): Promise<SandboxBenchResult> {
  const docker = connectEngine({ docker_host: '' });
  await assertEngine(docker);
  const spec = (cmd: string[]): RunSpec => ({
    image: BASE,
    cmd,
    files: [{ path: '/work/input.txt', content: 'x' }],
    memoryMb: 256,
    cpus: 1,
    pids: 128,
    network: 'none',
    timeoutMs: 60_000,
    createTimeoutMs: 60_000,
    logCap: 4096,
    labels: { 'dev.envforge.stage': 'bench' },
  });
  log(`sandbox: ${opts.noopRuns} no-op runs`);
  await runContainer(docker, spec(['true'])); // warm the engine's caches
  const noop: number[] = [];
  for (let i = 0; i < opts.noopRuns; i++) {
    const t0 = performance.now();
    const r = await runContainer(docker, spec(['true']));
    if (r.exitCode !== 0) throw new Error(`no-op run exited ${r.exitCode}`);
    noop.push(performance.now() - t0);
  }
  // About a second of shell arithmetic: enough work that concurrency can pay off on 2 cores.
  const work = ['bash', '-c', 'i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done'];
  const single = performance.now();
  await runContainer(docker, spec(work));
  const workItemMs = performance.now() - single;
  const throughput: SandboxBenchResult['throughput'] = [];
  for (const jobs of [1, 2]) {
    log(`sandbox: ${opts.items} work items at jobs=${jobs}`);
    const limit = pLimit(jobs);
    const t0 = performance.now();
    await Promise.all(Array.from({ length: opts.items }, () => limit(() => runContainer(docker, spec(work)))));
    const wallMs = performance.now() - t0;
    throughput.push({ jobs, items: opts.items, wallMs, itemsPerSec: (opts.items * 1000) / wallMs, msPerItem: wallMs / opts.items });
  }
  return { image: BASE, noop: { runs: noop.length, msMedian: median(noop), msP95: percentile(noop, 95) }, throughput, workItemMs };
}

export function sandboxTables(r: SandboxBenchResult): string {
  const t = new Table({ head: ['sandbox', 'value'], style: { head: [], border: [] } });
  t.push(
    [`no-op run (create+copy+start+wait+remove), ${r.noop.runs} runs`, `median ${r.noop.msMedian.toFixed(0)} ms, p95 ${r.noop.msP95.toFixed(0)} ms`],
    ['one work item alone', `${r.workItemMs.toFixed(0)} ms`],
    ...r.throughput.map((x) => [`${x.items} work items, jobs=${x.jobs}`, `${(x.wallMs / 1000).toFixed(1)} s: ${x.itemsPerSec.toFixed(2)} items/s, ${x.msPerItem.toFixed(0)} ms/item`]),
  );
  const [one, two] = r.throughput;
  const ratio = one && two ? `throughput jobs=2 / jobs=1: ${(two.itemsPerSec / one.itemsPerSec).toFixed(2)}x` : '';
  return [`sandbox image ${r.image} (local engine)`, t.toString(), ratio].join('\n');
}
