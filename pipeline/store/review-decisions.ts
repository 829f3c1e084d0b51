import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Columns } from '../stage.js';
import { openDuck, sqlString, type Duck } from './duck.js';
import { layoutFor, type Layout } from './layout.js';
import { PartWriter } from './part-writer.js';

/**
 * Human review decisions of a dataset (EnConda-Bench's human pass over injected errors):
 * `data/<dataset>/review_decisions/part-<run>-<n>.parquet`, written in one atomic part per
 * import like stage rows, exposed as the `review_decisions` view of the catalog (latest decision
 * per error). `envforge review import` writes them; the review stage reads them through
 * `decisionsFor(ctx)` — stages never open data/ files themselves.
 */

export type HumanDecision = 'accept' | 'reject';

export interface DecisionRow {
  /** `<instance>#<n>`: the n-th error (1-based) of an inject instance. */
  error_id: string;
  instance: string;
  error_index: number;
  decision: HumanDecision;
  reviewer: string;
  note: string;
  /** The LLM filter's verdict the reviewer saw (keep, reject, skipped): for the agreement rate. */
  llm_verdict: string;
  decided_at: string;
}

export const DECISION_COLUMNS: Columns = {
  error_id: 'VARCHAR',
  instance: 'VARCHAR',
  error_index: 'INTEGER',
  decision: 'VARCHAR',
  reviewer: 'VARCHAR',
  note: 'VARCHAR',
  llm_verdict: 'VARCHAR',
  decided_at: 'TIMESTAMP',
  run_id: 'VARCHAR',
};

export function decisionsDir(layout: Layout): string {
  return join(layout.datasetDir, 'review_decisions');
}

export function hasDecisions(layout: Layout): boolean {
  const dir = decisionsDir(layout);
  return existsSync(dir) && readdirSync(dir).some((f) => f.startsWith('part-') && f.endsWith('.parquet'));
}

/** The latest decision per error (a typed empty relation before the first import). */
export function decisionsSql(layout: Layout): string {
  if (!hasDecisions(layout)) {
    return `SELECT ${Object.entries(DECISION_COLUMNS).map(([n, t]) => `NULL::${t} AS "${n}"`).join(', ')} LIMIT 0`;
  }
  return (
    `SELECT * EXCLUDE (rn) FROM (SELECT *, row_number() OVER (PARTITION BY error_id ORDER BY run_id DESC, decided_at DESC) AS rn ` +
    `FROM read_parquet(${sqlString(join(decisionsDir(layout), 'part-*.parquet'))}, union_by_name=true)) WHERE rn = 1`
  );
}

export async function writeDecisions(layout: Layout, runId: string, rows: readonly DecisionRow[], duck?: Duck): Promise<string | undefined> {
  const d = duck ?? (await openDuck(':memory:'));
  try {
    return await new PartWriter(d, decisionsDir(layout), join(layout.tmpDir, 'review_decisions'), runId, DECISION_COLUMNS).write(
      rows.map((r) => ({ ...r, run_id: runId })),
    );
  } finally {
    if (!duck) d.close();
  }
}

export async function readDecisions(layout: Layout): Promise<Map<string, DecisionRow>> {
  const out = new Map<string, DecisionRow>();
  if (!hasDecisions(layout)) return out;
  const duck = await openDuck(':memory:');
  try {
    for (const r of await duck.all(`SELECT * FROM (${decisionsSql(layout)}) ORDER BY error_id`)) {
      out.set(String(r.error_id), {
        error_id: String(r.error_id),
        instance: String(r.instance),
        error_index: Number(r.error_index),
        decision: String(r.decision) as HumanDecision,
        reviewer: String(r.reviewer ?? ''),
        note: String(r.note ?? ''),
        llm_verdict: String(r.llm_verdict ?? ''),
        decided_at: String(r.decided_at ?? ''),
      });
    }
  } finally {
    duck.close();
  }
  return out;
}

/** The decisions of the dataset a stage runs in (the stage context knows the cache dir, `<data_dir>/cache`, and the dataset). */
export function decisionsFor(ctx: { cacheDir: string; dataset: string }): Promise<Map<string, DecisionRow>> {
  return readDecisions(layoutFor(dirname(ctx.cacheDir), ctx.dataset));
}
