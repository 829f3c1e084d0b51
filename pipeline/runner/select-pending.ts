import { createHash } from 'node:crypto';
import { ConfigError } from '../errors.js';

/** What the latest rows of a stage say about one input key. */
export interface DoneEntry {
  stage_version: number;
  config_hash: string;
  input_hash: string;
  has_error: boolean;
}

export interface PendingOptions {
  force?: boolean;
  retryErrors?: boolean;
  limit?: number;
  /** Input keys to run; named keys always run, done or not. */
  only?: readonly string[];
  shard?: Shard;
}

export interface Shard {
  /** 1-based, as in `--shard 2/4`. */
  index: number;
  count: number;
}

export interface Candidate<I> {
  key: string;
  inputHash: string;
  item: I;
}

export interface PendingSelection<I> {
  pending: Candidate<I>[];
  /** Input keys already done for this stage version, config and input. */
  done: number;
  /** Input keys that belong to other shards. */
  otherShards: number;
  /** Pending keys left for a later run by --limit. */
  deferred: number;
}

/**
 * Decide which inputs to (re)process: a key is done when its latest rows were made by the same
 * stage version and config fingerprint from the same input (by content hash).
 */
export function selectPending<I>(
  candidates: readonly Candidate<I>[],
  done: ReadonlyMap<string, DoneEntry>,
  current: { stageVersion: number; configHash: string },
  opts: PendingOptions = {},
): PendingSelection<I> {
  const only = opts.only && opts.only.length > 0 ? new Set(opts.only) : undefined;
  if (only) {
    const known = new Set(candidates.map((c) => c.key));
    const unknown = [...only].filter((k) => !known.has(k));
    if (unknown.length > 0) throw new ConfigError(`--only: not in this stage's input: ${unknown.join(', ')}`);
  }
  let doneCount = 0;
  let otherShards = 0;
  const pending: Candidate<I>[] = [];
  for (const c of candidates) {
    if (only && !only.has(c.key)) continue;
    if (opts.shard && shardOf(c.key, opts.shard.count) !== opts.shard.index - 1) {
      otherShards++;
      continue;
    }
    const d = done.get(c.key);
    const isDone =
      d !== undefined &&
      d.stage_version === current.stageVersion &&
      d.config_hash === current.configHash &&
      d.input_hash === c.inputHash &&
      !(opts.retryErrors && d.has_error);
    if (isDone && !opts.force && !only) {
      doneCount++;
      continue;
    }
    pending.push(c);
  }
  const limited = opts.limit !== undefined ? pending.slice(0, opts.limit) : pending;
  return { pending: limited, done: doneCount, otherShards, deferred: pending.length - limited.length };
}

/** Stable across machines and runs: shard membership must not change between processes. */
export function shardOf(key: string, count: number): number {
  return createHash('sha1').update(key).digest().readUInt32BE(0) % count;
}

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) {
    throw new ConfigError(`--shard ${JSON.stringify(text)}: expected i/n with 1 <= i <= n, e.g. 2/4`);
  }
  return { index, count };
}
