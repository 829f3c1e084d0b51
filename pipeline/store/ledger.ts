import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BatchSink } from '../runner/batch-sink.js';
import type { Columns } from '../stage.js';
import { sqlString, type Duck } from './duck.js';
import type { Layout } from './layout.js';
import { PartWriter } from './part-writer.js';

/**
 * The LLM call ledger of a dataset: one row per model call (cache hits included, at zero
 * cost), written as Parquet parts under `data/<dataset>/ledger/` in batches like stage rows,
 * and exposed as the `llm_ledger` view of the catalog. Stages never open it: they get a
 * `Ledger` in their context (StageContext.ledger) and the LLM adapter records through it.
 */

export interface LedgerEntry {
  stage: string;
  /** The item or instance the call was made for. */
  key: string;
  /** The model's name in the config (`[llm.models.<name>]`) and the id sent to the endpoint. */
  model: string;
  model_id: string;
  /** Endpoint without credentials. */
  base_url: string;
  /** sha256 of the request body: the same prompt always has the same hash. */
  prompt_hash: string;
  cached: boolean;
  /** `ok`, `http_error` (gave up after retries), `aborted`. */
  outcome: string;
  http_status: number | null;
  attempts: number;
  tokens_in: number | null;
  tokens_out: number | null;
  /** True when the endpoint reported no usage and tokens were estimated from characters. */
  tokens_estimated: boolean;
  latency_ms: number;
  cost_usd: number;
  error: string | null;
  created_at: string;
}

export const LEDGER_COLUMNS: Columns = {
  run_id: 'VARCHAR',
  stage: 'VARCHAR',
  key: 'VARCHAR',
  model: 'VARCHAR',
  model_id: 'VARCHAR',
  base_url: 'VARCHAR',
  prompt_hash: 'VARCHAR',
  cached: 'BOOLEAN',
  outcome: 'VARCHAR',
  http_status: 'INTEGER',
  attempts: 'INTEGER',
  tokens_in: 'BIGINT',
  tokens_out: 'BIGINT',
  tokens_estimated: 'BOOLEAN',
  latency_ms: 'BIGINT',
  cost_usd: 'DOUBLE',
  error: 'VARCHAR',
  created_at: 'TIMESTAMP',
};

/** What a stage's LLM calls record through, and what a budget reads. */
export interface Ledger {
  add(entry: LedgerEntry): void;
  /** Dollars spent by a stage in this dataset: every earlier run plus this one. */
  spent(stage: string): number;
}

export function ledgerHasParts(layout: Layout): boolean {
  return existsSync(layout.ledgerDir) && readdirSync(layout.ledgerDir).some((f) => f.startsWith('part-') && f.endsWith('.parquet'));
}

/** Every ledger row of the dataset (a typed empty relation before the first call). */
export function ledgerSql(layout: Layout): string {
  if (!ledgerHasParts(layout)) {
    return `SELECT ${Object.entries(LEDGER_COLUMNS).map(([n, t]) => `NULL::${t} AS "${n}"`).join(', ')} LIMIT 0`;
  }
  return `SELECT * FROM read_parquet(${sqlString(layout.ledgerGlob)}, union_by_name=true)`;
}

/** The ledger of one runner process: rows go out in batches; spend is tracked per stage. */
export class LedgerWriter implements Ledger {
  private readonly sink: BatchSink;
  private readonly spentByStage = new Map<string, number>();

  private constructor(
    duck: Duck,
    layout: Layout,
    private readonly runId: string,
    prior: Map<string, number>,
    batchSize: number,
    flushSeconds: number,
  ) {
    // Its own temporary folder: a stage's parts of the same run use the same `part-<run>-<n>` names.
    this.sink = new BatchSink(new PartWriter(duck, layout.ledgerDir, join(layout.tmpDir, 'ledger'), runId, LEDGER_COLUMNS), batchSize, flushSeconds);
    this.spentByStage = prior;
  }

  static async open(duck: Duck, layout: Layout, runId: string, batchSize = 100, flushSeconds = 5): Promise<LedgerWriter> {
    const prior = new Map<string, number>();
    if (ledgerHasParts(layout)) {
      const rows = await duck.all(`SELECT stage, sum(cost_usd) AS usd FROM (${ledgerSql(layout)}) GROUP BY stage`);
      for (const r of rows) prior.set(String(r.stage), Number(r.usd ?? 0));
    }
    return new LedgerWriter(duck, layout, runId, prior, batchSize, flushSeconds);
  }

  add(entry: LedgerEntry): void {
    this.spentByStage.set(entry.stage, (this.spentByStage.get(entry.stage) ?? 0) + entry.cost_usd);
    this.sink.add([{ ...entry, run_id: this.runId }]);
  }

  spent(stage: string): number {
    return this.spentByStage.get(stage) ?? 0;
  }

  /** Write what is buffered; raises a SetupError when the ledger cannot be written. */
  close(): Promise<void> {
    return this.sink.close();
  }
}

/** A ledger kept in memory, for code that runs outside the runner (tests, one-off tools). */
export class MemoryLedger implements Ledger {
  readonly entries: LedgerEntry[] = [];
  constructor(private readonly prior: Record<string, number> = {}) {}
  add(entry: LedgerEntry): void {
    this.entries.push(entry);
  }
  spent(stage: string): number {
    return (this.prior[stage] ?? 0) + this.entries.filter((e) => e.stage === stage).reduce((s, e) => s + e.cost_usd, 0);
  }
}
