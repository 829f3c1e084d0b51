import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import { sectionFingerprint, sha256, stableStringify } from '../config/fingerprint.js';
import type { LoadedConfig } from '../config/load.js';
import { ConfigError, SetupError, messageOf } from '../errors.js';
import { findSource, findStage, type StageGraph } from '../graph-types.js';
import type { Logger } from '../log/logger.js';
import { redact } from '../log/secrets.js';
import type { ArtifactStore } from '../store/artifact-store.js';
import { PROVENANCE_COLUMNS } from '../store/columns.js';
import { LedgerWriter } from '../store/ledger.js';
import type { Item, Outcome, Stage, StageContext } from '../stage.js';
import { BatchSink } from './batch-sink.js';
import { checkCells, timestampText } from './cells.js';
import { createProgress } from './progress.js';
import { selectPending, type Candidate, type DoneEntry, type PendingOptions } from './select-pending.js';
import { emptySummary, type StageSummary } from './summary.js';

export interface RunOptions extends PendingOptions {
  jobs?: number;
  signal?: AbortSignal;
  progressStream?: NodeJS.WritableStream;
  tty?: boolean;
  runId?: string;
}

export interface RunEnv {
  graph: StageGraph;
  store: ArtifactStore;
  config: LoadedConfig;
  log: Logger;
}

export function newRunId(now = new Date()): string {
  // Sorts by time to the millisecond: the newest input manifest is the one with the largest id.
  return `${now.toISOString().replace(/[-:.]/g, '').replace('Z', '')}-${randomBytes(3).toString('hex')}`;
}

/**
 * The local executor: runs one stage over its pending inputs with bounded concurrency and
 * writes its rows in atomic Parquet batches. Item failures become `error` rows; a SetupError
 * from any item stops the whole run after what finished is written.
 */
export async function runStage(stage: Stage, env: RunEnv, opts: RunOptions = {}): Promise<StageSummary> {
  const { store, config, log } = env;
  const started = Date.now();
  const runId = opts.runId ?? newRunId();
  const summary = emptySummary(stage.name, runId);
  const configHash = sectionFingerprint(config, stage.configSections ?? [stage.name]);
  const controller = new AbortController();
  // Every item in flight (SDK requests, containers, git) listens on this one signal.
  setMaxListeners(0, controller.signal);
  const onOuterAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const ledger = await LedgerWriter.open(store.duck, store.layout, runId, config.config.run.batch_size, config.config.run.flush_seconds);
  const ctx: StageContext = {
    config,
    dataset: store.layout.dataset,
    cacheDir: store.layout.cacheDir,
    log,
    signal: controller.signal,
    ledger,
  };

  try {
    const candidates = await readCandidates(stage, env, ctx);
    summary.inputs = candidates.length;
    await store.recordInputs(stage, runId, candidates.map((c) => c.key));
    const selection = selectPending(candidates, await readDone(stage, store), { stageVersion: stage.version, configHash }, opts);
    summary.done = selection.done;
    summary.otherShards = selection.otherShards;
    summary.deferred = selection.deferred;
    if (selection.pending.length > 0) await stage.preflight?.(ctx);

    const rc = config.config.run;
    const sink = new BatchSink(store.writer(stage, runId), rc.batch_size, rc.flush_seconds);
    const progress = createProgress({
      stage: stage.name,
      total: selection.pending.length,
      stream: opts.progressStream ?? process.stderr,
      intervalSeconds: rc.progress_seconds,
      tty: opts.tty,
    });
    let fatal: unknown;
    const limit = pLimit(opts.jobs ?? rc.jobs);
    const provenance = { run_id: runId, stage_version: stage.version, config_hash: configHash };

    await Promise.all(
      selection.pending.map((c) =>
        limit(async () => {
          if (controller.signal.aborted || sink.failed) return;
          const t0 = Date.now();
          let outcomes: Outcome[];
          try {
            const out = await stage.run(c.item, ctx);
            outcomes = Array.isArray(out) ? out : [out];
          } catch (err) {
            if (err instanceof SetupError || err instanceof ConfigError) {
              fatal ??= err;
              controller.abort(err);
              return;
            }
            // Work cut short by an interrupt is not a result: leave it pending for the next run.
            if (controller.signal.aborted) return;
            outcomes = [{ status: 'error', reason: 'exception', reason_text: messageOf(err) }];
          }
          const createdAt = timestampText(new Date());
          const rows = outcomes.map((o) => toRow(o, c, stage, createdAt, Date.now() - t0, provenance));
          sink.add(rows);
          summary.processed++;
          for (const r of rows) {
            const status = r.status as Outcome['status'];
            summary.counts[status]++;
            if (status !== 'accepted') summary.reasons[`${status}:${String(r.reason)}`] = (summary.reasons[`${status}:${String(r.reason)}`] ?? 0) + 1;
          }
          progress.tick(rows.some((r) => r.status === 'error') ? 'error' : rows.some((r) => r.status === 'accepted') ? 'accepted' : 'rejected');
        }),
      ),
    );
    progress.stop();
    await sink.close();
    summary.parts = sink.parts;
    if (fatal) throw fatal;
    summary.interrupted = controller.signal.aborted;
  } finally {
    opts.signal?.removeEventListener('abort', onOuterAbort);
    // LLM calls are recorded even when the run stopped (budget reached, interrupt, failure).
    await ledger.close();
    summary.durationMs = Date.now() - started;
  }
  return summary;
}

function toRow(
  o: Outcome,
  c: Candidate<Item>,
  stage: Stage,
  createdAt: string,
  durationMs: number,
  provenance: Record<string, unknown>,
): Record<string, unknown> {
  let { status, reason, reason_text: text } = o;
  let cells = o.cells ?? {};
  const problem = checkCells(cells, stage.columns);
  if (problem) {
    status = 'error';
    reason = 'invalid_output';
    text = `stage ${stage.name} produced an invalid row: ${problem}`;
    cells = {};
  }
  if (status !== 'accepted' && !reason) reason = 'unspecified';
  return {
    ...cells,
    key: o.key ?? c.key,
    input_key: c.key,
    status,
    reason: reason ?? null,
    reason_text: text === undefined ? null : redact(text),
    input_hash: c.inputHash,
    created_at: createdAt,
    duration_ms: durationMs,
    ...provenance,
  };
}

async function readCandidates(stage: Stage, env: RunEnv, ctx: StageContext): Promise<Candidate<Item>[]> {
  const items: Item[] = [];
  const upstream = findStage(env.graph, stage.input);
  if (upstream) {
    if (!env.store.hasParts(upstream.name)) {
      throw new SetupError(
        `stage ${stage.name} reads the output of stage ${upstream.name}, which has not run in dataset ` +
          `"${env.store.layout.dataset}": run \`envforge run ${upstream.name}\` first`,
      );
    }
    const rows = await env.store.latestRows(upstream, `status = 'accepted'`);
    if (stage.group) {
      // One item per group of upstream rows (Stage.group), in key order.
      const groups = new Map<string, Item[]>();
      for (const r of rows) {
        const g = stage.group(r);
        groups.set(g, [...(groups.get(g) ?? []), r]);
      }
      for (const [group, members] of groups) items.push({ group, rows: members });
    } else {
      items.push(...rows);
    }
  } else {
    const source = findSource(env.graph, stage.input);
    if (!source) throw new SetupError(`stage ${stage.name}: unknown input "${stage.input}"`);
    for await (const item of await source.read(ctx)) items.push(item);
  }
  const seen = new Map<string, Candidate<Item>>();
  const duplicates: string[] = [];
  items.forEach((item, i) => {
    let key: string;
    try {
      key = stage.key(item);
    } catch {
      key = `#${i + 1}`;
    }
    if (seen.has(key)) duplicates.push(key);
    else seen.set(key, { key, inputHash: inputHash(item), item });
  });
  if (duplicates.length > 0) {
    env.log.warn(`${stage.name}: ${duplicates.length} duplicate input keys kept once (first: ${duplicates.slice(0, 5).join(', ')})`);
  }
  return [...seen.values()];
}

function inputHash(item: Item): string {
  const strip = (r: Item) => Object.fromEntries(Object.entries(r).filter(([k]) => !PROVENANCE_COLUMNS.has(k)));
  // A group's hash covers its rows' content, not when they were written.
  const content = Array.isArray(item.rows) && 'group' in item ? { group: item.group, rows: (item.rows as Item[]).map(strip) } : strip(item);
  return sha256(stableStringify(content)).slice(0, 16);
}

async function readDone(stage: Stage, store: ArtifactStore): Promise<Map<string, DoneEntry>> {
  const done = new Map<string, DoneEntry>();
  if (!store.hasParts(stage.name)) return done;
  const rows = await store.duck.all(
    `SELECT input_key, any_value(stage_version) AS stage_version, any_value(config_hash) AS config_hash, ` +
      `any_value(input_hash) AS input_hash, bool_or(status = 'error') AS has_error ` +
      `FROM (${store.latestSql(stage)}) GROUP BY input_key`,
  );
  for (const r of rows) done.set(String(r.input_key), r as unknown as DoneEntry);
  return done;
}
