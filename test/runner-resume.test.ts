import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { runStage } from '../pipeline/runner/run-stage.js';
import { fixtureConfig, fixtureEnv, fixtureGraph } from './helpers/fixture-graph.js';
import { tempDirs } from './helpers/temp-dir.js';
import { SetupError } from '../pipeline/errors.js';
import { clearSecrets, registerSecret } from '../pipeline/log/secrets.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

async function history(dataDir: string, stage = 'square') {
  const graph = fixtureGraph({ n: 1 });
  const env = await fixtureEnv(dataDir, graph);
  const shape = graph.stages.find((s) => s.name === stage)!;
  try {
    const [r] = await env.store.duck.all(`SELECT count(*) AS rows, count(DISTINCT key) AS keys FROM (${env.store.historySql(shape)})`);
    const latest = await env.store.latestRows(shape);
    return { rows: Number(r!.rows), keys: Number(r!.keys), latest };
  } finally {
    env.store.close();
  }
}

const parts = (dataDir: string, stage = 'square') => {
  const dir = join(dataDir, 't', stage);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('part-') && f.endsWith('.parquet')) : [];
};

describe('runner: resume after a kill', () => {
  it('loses no key and duplicates none when the process is SIGKILLed mid-stage', async () => {
    const dataDir = dirs.make();
    const n = 60;
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/run-fixture-stage.ts', dataDir, String(n), '40'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let exited = false;
    child.on('exit', () => (exited = true));
    // Wait until at least two batches are on disk, then kill without any chance to flush.
    const deadline = Date.now() + 30_000;
    while (parts(dataDir).length < 2 && Date.now() < deadline && !exited) await sleep(20);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('close', r));
    const afterKill = await history(dataDir);
    expect(afterKill.rows).toBeGreaterThan(0);
    expect(afterKill.rows).toBeLessThan(n);
    expect(afterKill.rows).toBe(afterKill.keys);
    // No torn or temporary file is visible to readers: only whole parts and input manifests.
    const visible = readdirSync(join(dataDir, 't', 'square')).filter((f) => f.endsWith('.parquet'));
    expect(visible.every((f) => /^(part|inputs)-.*\.parquet$/.test(f))).toBe(true);

    const graph = fixtureGraph({ n });
    const env = await fixtureEnv(dataDir, graph);
    const summary = await runStage(graph.stages[0]!, env, { progressStream: devNull() });
    env.store.close();
    expect(summary.done).toBe(afterKill.keys);
    expect(summary.processed).toBe(n - afterKill.keys);

    const final = await history(dataDir);
    expect(final.rows).toBe(n);
    expect(final.keys).toBe(n);
  });
});

describe('runner: incremental semantics', () => {
  it('reruns nothing when done, replaces everything with --force', async () => {
    const dataDir = dirs.make();
    const graph = fixtureGraph({ n: 12 });
    const env = await fixtureEnv(dataDir, graph);
    const first = await runStage(graph.stages[0]!, env, { progressStream: devNull() });
    expect(first.counts).toEqual({ accepted: 6, rejected: 6, error: 0 });
    expect(first.reasons).toEqual({ 'rejected:odd': 6 });
    const again = await runStage(graph.stages[0]!, env, { progressStream: devNull() });
    expect(again.processed).toBe(0);
    expect(again.done).toBe(12);
    const forced = await runStage(graph.stages[0]!, env, { force: true, progressStream: devNull() });
    env.store.close();
    expect(forced.processed).toBe(12);
    const h = await history(dataDir);
    expect(h.rows).toBe(24);
    expect(h.latest).toHaveLength(12);
    expect(new Set(h.latest.map((r) => r.run_id))).toEqual(new Set([forced.runId]));
  });

  it('reprocesses only what changed: stage version, config section, or the input itself', async () => {
    const dataDir = dirs.make();
    const search = (stars: number) => `[search]\nexport = "x.csv"\nlicenses = ["MIT"]\nmin_stars = ${stars}\n`;
    let env = await fixtureEnv(dataDir, fixtureGraph({ n: 10 }), fixtureConfig(dataDir, search(10)));
    await runStage(env.graph.stages[0]!, env, { progressStream: devNull() });
    // The `run` section is not this stage's: changing it invalidates nothing.
    env = { ...env, config: fixtureConfig(dataDir, search(10), 7) };
    expect((await runStage(env.graph.stages[0]!, env, { progressStream: devNull() })).processed).toBe(0);
    env = { ...env, config: fixtureConfig(dataDir, search(11)) };
    expect((await runStage(env.graph.stages[0]!, env, { progressStream: devNull() })).processed).toBe(10);
    const changed = fixtureGraph({ n: 10, salt: { n0003: 'new' } });
    expect((await runStage(changed.stages[0]!, { ...env, graph: changed }, { progressStream: devNull() })).processed).toBe(1);
    const bumped = fixtureGraph({ n: 10, version: 2, salt: { n0003: 'new' } });
    expect((await runStage(bumped.stages[0]!, { ...env, graph: bumped }, { progressStream: devNull() })).processed).toBe(10);
    env.store.close();
  });

  it('--shard partitions cover the input exactly once', async () => {
    const dataDir = dirs.make();
    const graph = fixtureGraph({ n: 50 });
    const env = await fixtureEnv(dataDir, graph);
    const processed: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const s = await runStage(graph.stages[0]!, env, { shard: { index: i, count: 3 }, progressStream: devNull() });
      processed.push(s.processed);
      expect(s.processed + s.otherShards).toBe(50);
    }
    env.store.close();
    expect(processed.every((p) => p > 5)).toBe(true);
    expect(processed.reduce((a, b) => a + b, 0)).toBe(50);
    const h = await history(dataDir);
    expect(h).toMatchObject({ rows: 50, keys: 50 });
  });

  it('--limit and --only select inputs; --only reruns named keys even when done', async () => {
    const dataDir = dirs.make();
    const graph = fixtureGraph({ n: 10 });
    const env = await fixtureEnv(dataDir, graph);
    const limited = await runStage(graph.stages[0]!, env, { limit: 4, progressStream: devNull() });
    expect(limited).toMatchObject({ processed: 4, deferred: 6 });
    const only = await runStage(graph.stages[0]!, env, { only: ['n0001', 'n0009'], progressStream: devNull() });
    expect(only.processed).toBe(2);
    await expect(runStage(graph.stages[0]!, env, { only: ['nope'], progressStream: devNull() })).rejects.toThrow(/--only: not in this stage's input: nope/);
    env.store.close();
  });
});

describe('runner: inputs that leave upstream', () => {
  it('drops rows of inputs that are gone from the view, keeps them in the history', async () => {
    const dataDir = dirs.make();
    const env = await fixtureEnv(dataDir, fixtureGraph({ n: 10 }));
    await runStage(env.graph.stages[0]!, env, { progressStream: devNull() });
    const fewer = fixtureGraph({ n: 6 });
    const s = await runStage(fewer.stages[0]!, { ...env, graph: fewer }, { progressStream: devNull() });
    expect(s).toMatchObject({ inputs: 6, processed: 0, done: 6 });
    expect((await env.store.latestRows(fewer.stages[0]!)).map((r) => r.key)).toEqual(['n0001', 'n0002', 'n0003', 'n0004', 'n0005', 'n0006']);
    // An unchanged input set writes no new manifest; a grown one brings the old rows back without work.
    const again = await runStage(env.graph.stages[0]!, env, { progressStream: devNull() });
    expect(again).toMatchObject({ inputs: 10, processed: 0, done: 10 });
    env.store.close();
    const manifests = readdirSync(join(dataDir, 't', 'square')).filter((f) => f.startsWith('inputs-'));
    expect(manifests).toHaveLength(3);
    expect((await history(dataDir)).rows).toBe(10);
  });
});

describe('runner: failures', () => {
  it('turns a failing item into an error row and goes on; --retry-errors reruns it', async () => {
    const dataDir = dirs.make();
    let graph = fixtureGraph({ n: 8, throwFor: ['n0004'] });
    const env = await fixtureEnv(dataDir, graph);
    const s = await runStage(graph.stages[0]!, env, { progressStream: devNull() });
    expect(s.counts).toEqual({ accepted: 3, rejected: 4, error: 1 });
    const [row] = await env.store.latestRows(graph.stages[0]!, `key = 'n0004'`);
    expect(row).toMatchObject({ status: 'error', reason: 'exception', reason_text: 'boom at n0004' });
    graph = fixtureGraph({ n: 8 });
    expect((await runStage(graph.stages[0]!, { ...env, graph }, { progressStream: devNull() })).processed).toBe(0);
    const retried = await runStage(graph.stages[0]!, { ...env, graph }, { retryErrors: true, progressStream: devNull() });
    expect(retried.processed).toBe(1);
    expect(retried.counts.accepted).toBe(1);
    env.store.close();
  });

  it('stops the whole run on a SetupError, keeping what finished', async () => {
    const dataDir = dirs.make();
    const graph = fixtureGraph({ n: 30, setupErrorFor: 'n0010', delayMs: 5 });
    const env = await fixtureEnv(dataDir, graph);
    await expect(runStage(graph.stages[0]!, env, { jobs: 1, progressStream: devNull() })).rejects.toBeInstanceOf(SetupError);
    env.store.close();
    const h = await history(dataDir);
    expect(h.rows).toBe(9);
  });

  it('writes an invalid stage output as an error row, not a broken part', async () => {
    const dataDir = dirs.make();
    const graph = fixtureGraph({ n: 4 });
    const env = await fixtureEnv(dataDir, graph);
    const broken = graph.stages.find((s) => s.name === 'broken')!;
    const s = await runStage(broken, env, { progressStream: devNull() });
    expect(s.counts).toEqual({ accepted: 2, rejected: 0, error: 2 });
    const rows = await env.store.latestRows(broken, `status = 'error'`);
    expect(rows.map((r) => r.reason).sort()).toEqual(['invalid_output', 'x']);
    expect(String(rows.find((r) => r.reason === 'invalid_output')!.reason_text)).toMatch(/column "value" \(BIGINT\) got "two"/);
    env.store.close();
  });

  it('never writes a registered secret into an artifact', async () => {
    const dataDir = dirs.make();
    registerSecret('ghp_SECRET123456');
    const graph = fixtureGraph({ n: 2, throwFor: ['n0001'], message: 'auth failed for token ghp_SECRET123456 at https://bob:pw123@example.com/x' });
    const env = await fixtureEnv(dataDir, graph);
    await runStage(graph.stages[0]!, env, { progressStream: devNull() });
    const [row] = await env.store.latestRows(graph.stages[0]!, `key = 'n0001'`);
    env.store.close();
    clearSecrets();
    expect(row!.reason_text).toBe('auth failed for token *** at https://***@example.com/x');
  });

  it('refuses to run a stage whose upstream has not run, naming the command to run', async () => {
    const dataDir = dirs.make();
    const graph = fixtureGraph({ n: 2 });
    const env = await fixtureEnv(dataDir, graph);
    await expect(runStage(graph.stages[1]!, env, { progressStream: devNull() })).rejects.toThrow(
      'stage label reads the output of stage square, which has not run in dataset "t": run `envforge run square` first',
    );
    env.store.close();
  });

  it('keeps every row of a fan-out stage and reads only accepted upstream rows', async () => {
    const dataDir = dirs.make();
    const graph = fixtureGraph({ n: 6 });
    const env = await fixtureEnv(dataDir, graph);
    await runStage(graph.stages[0]!, env, { progressStream: devNull() });
    const s = await runStage(graph.stages[1]!, env, { progressStream: devNull() });
    expect(s).toMatchObject({ inputs: 3, processed: 3, counts: { accepted: 6, rejected: 0, error: 0 } });
    const rows = await env.store.latestRows(graph.stages[1]!);
    expect(rows.map((r) => r.key)).toEqual(['n0002#a', 'n0002#b', 'n0004#a', 'n0004#b', 'n0006#a', 'n0006#b']);
    env.store.close();
  });
});

function devNull(): NodeJS.WritableStream {
  return { write: () => true } as unknown as NodeJS.WritableStream;
}
