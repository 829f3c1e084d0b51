import type { LoadedConfig } from './config/load.js';
import type { Logger } from './log/logger.js';
import type { Ledger } from './store/ledger.js';

/**
 * The stage contract (DESIGN.md). A stage declares its input, its key and its per-item work;
 * the runner owns everything else (reading inputs, pending keys, concurrency, writing, resume).
 */

export type Status = 'accepted' | 'rejected' | 'error';

/** DuckDB types a stage may declare for its output columns. */
export type ColumnType = 'VARCHAR' | 'BIGINT' | 'INTEGER' | 'DOUBLE' | 'BOOLEAN' | 'DATE' | 'TIMESTAMP' | 'VARCHAR[]' | 'JSON';
export type Columns = Record<string, ColumnType>;

export type CellValue = string | number | boolean | null | undefined | string[] | Record<string, unknown>;
export type Cells = Record<string, CellValue>;

/** One output row as a stage returns it; the runner adds key defaults and provenance. */
export interface Outcome {
  status: Status;
  /** Short machine-readable code, e.g. `commits_below_min`; required unless accepted. */
  reason?: string;
  /** Human text for the reason, naming the evidence. */
  reason_text?: string;
  /** Output key; defaults to the input key (stages that fan out set their own). */
  key?: string;
  cells?: Cells;
}

export const accept = (cells: Cells = {}, key?: string): Outcome => ({ status: 'accepted', cells, key });
export const reject = (reason: string, text: string, cells: Cells = {}, key?: string): Outcome => ({
  status: 'rejected',
  reason,
  reason_text: text,
  cells,
  key,
});
export const fail = (reason: string, text: string, cells: Cells = {}, key?: string): Outcome => ({
  status: 'error',
  reason,
  reason_text: text,
  cells,
  key,
});

export interface StageContext {
  config: LoadedConfig;
  dataset: string;
  /** Folder for caches shared by every dataset (clones, images, LLM responses). */
  cacheDir: string;
  log: Logger;
  /** Aborted on SIGINT/SIGTERM or when another item raised a SetupError: long work should stop. */
  signal: AbortSignal;
  /** The dataset's LLM call ledger (pipeline/llm records every call through it); set by the runner. */
  ledger?: Ledger;
}

/** An item as handed to `run`: an upstream row or a record of a source. */
export type Item = Record<string, unknown>;

export interface Stage<I extends Item = Item> {
  name: string;
  /** Bump to invalidate every output of this stage. */
  version: number;
  description: string;
  /** An upstream stage name or a declared source name (see pipeline/graph.ts). */
  input: string;
  /** Config sections (or dotted paths, `inject.seed`) whose values decide this stage's outputs; default `[name]`. */
  configSections?: readonly string[];
  columns: Columns;
  key(item: I): string;
  /**
   * Optional: hand `run` every upstream row with the same group value at once, as one item
   * `{ group, rows }` (rows ordered by key); `key` then receives that item. For stages whose
   * unit of work spans rows (tiers merges the instances of a repository).
   */
  group?(row: Item): string;
  /** Checked once before any item runs; throws SetupError with one actionable message. */
  preflight?(ctx: StageContext): Promise<void>;
  run(item: I, ctx: StageContext): Promise<Outcome | Outcome[]>;
}

/** A source yields the raw records a first stage reads (e.g. rows of a SEART-GHS export). */
export interface Source<I extends Item = Item> {
  name: string;
  description: string;
  /** Throws SetupError when the source as a whole is unusable (missing file, wrong format). */
  read(ctx: StageContext): AsyncIterable<I> | Iterable<I> | Promise<Iterable<I>>;
}
