import type { Columns } from '../stage.js';
import { allColumns } from './columns.js';
import { openDuck, sqlIdent, sqlString, type Duck } from './duck.js';
import { stageHasInputs, stageHasParts, type Layout } from './layout.js';
import { PartWriter } from './part-writer.js';

export interface StageShape {
  name: string;
  columns: Columns;
}

/**
 * Reads and writes the Parquet parts of one dataset through an in-memory DuckDB. The on-disk
 * catalog (catalog.ts) is only a set of views over the same parts, so any number of runner
 * processes (shards) can write at once without contending for a database lock.
 */
export class ArtifactStore {
  private constructor(
    readonly layout: Layout,
    readonly duck: Duck,
  ) {}

  static async open(layout: Layout): Promise<ArtifactStore> {
    return new ArtifactStore(layout, await openDuck(':memory:'));
  }

  close(): void {
    this.duck.close();
  }

  hasParts(stage: string): boolean {
    return stageHasParts(this.layout, stage);
  }

  /** Every row ever written for a stage. */
  historySql(stage: StageShape): string {
    return historySql(this.layout, stage, this.hasParts(stage.name));
  }

  /** The latest result per input key, for the inputs of the stage's latest run: what it currently says. */
  latestSql(stage: StageShape): string {
    return latestSql(this.layout, stage, this.hasParts(stage.name));
  }

  /**
   * Record the input keys a run read, unless they are those of the latest record. Views keep only
   * these keys, so an input that left upstream (a repository removed from the export) leaves
   * the stage's view too; its rows stay in the history.
   */
  async recordInputs(stage: StageShape, runId: string, keys: string[]): Promise<void> {
    const sorted = [...keys].sort();
    if (stageHasInputs(this.layout, stage.name)) {
      const rows = await this.duck.all(`SELECT input_key FROM (${latestInputsSql(this.layout, stage.name)}) ORDER BY input_key`);
      if (rows.length === sorted.length && rows.every((r, i) => r.input_key === sorted[i])) return;
    }
    await new PartWriter(this.duck, this.layout.stageDir(stage.name), this.layout.tmpDir, runId, { input_key: 'VARCHAR', run_id: 'VARCHAR' }, 'inputs').write(
      sorted.map((input_key) => ({ input_key, run_id: runId })),
    );
  }

  async latestRows(stage: StageShape, where = 'true'): Promise<Record<string, unknown>[]> {
    return this.duck.all(`SELECT * FROM (${this.latestSql(stage)}) WHERE ${where} ORDER BY key`);
  }

  writer(stage: StageShape, runId: string): PartWriter {
    return new PartWriter(this.duck, this.layout.stageDir(stage.name), this.layout.tmpDir, runId, allColumns(stage.columns));
  }
}

export function historySql(layout: Layout, stage: StageShape, hasParts: boolean): string {
  const cols = allColumns(stage.columns);
  if (!hasParts) {
    // A typed empty relation, so queries against a stage that has not run yet still parse.
    return `SELECT ${Object.entries(cols).map(([n, t]) => `NULL::${t === 'JSON' ? 'JSON' : t} AS ${sqlIdent(n)}`).join(', ')} LIMIT 0`;
  }
  return `SELECT * FROM read_parquet(${sqlString(layout.partGlob(stage.name))}, union_by_name=true)`;
}

export function latestSql(layout: Layout, stage: StageShape, hasParts: boolean): string {
  const current = stageHasInputs(layout, stage.name) ? ` WHERE input_key IN (SELECT input_key FROM (${latestInputsSql(layout, stage.name)}))` : '';
  // rank() keeps every row of the newest item-run, so fan-out stages keep all their rows.
  return (
    `SELECT * FROM (${historySql(layout, stage, hasParts)})${current} ` +
    `QUALIFY rank() OVER (PARTITION BY input_key ORDER BY created_at DESC, run_id DESC) = 1`
  );
}

/** The input keys of the newest manifest (run ids sort by time). */
function latestInputsSql(layout: Layout, stage: string): string {
  const src = `read_parquet(${sqlString(layout.inputsGlob(stage))})`;
  return `SELECT input_key FROM ${src} WHERE run_id = (SELECT max(run_id) FROM ${src})`;
}
