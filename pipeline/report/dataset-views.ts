import { findStage, orderedStages, type StageGraph } from '../graph-types.js';
import { historySql, latestSql } from '../store/artifact-store.js';
import { openDuck, sqlIdent, type Duck } from '../store/duck.js';
import { stageHasParts, type Layout } from '../store/layout.js';

/**
 * Read-only views over one dataset's Parquet parts, in an in-memory DuckDB: the same views as
 * the on-disk catalog (`<stage>` = latest row per input, `<stage>_history` = every row) without
 * taking the catalog's file lock, so export and report can run beside a runner or a `sql` shell.
 * One thread, so every query (and every Parquet file written from it) comes out the same way.
 */
export interface DatasetViews {
  duck: Duck;
  graph: StageGraph;
  layout: Layout;
  /** Stages of the graph that have written at least one part in this dataset. */
  ran(stage: string): boolean;
  /** True when the graph declares the stage (recipes name stages that may not exist yet). */
  has(stage: string): boolean;
  close(): void;
}

export async function openDatasetViews(layout: Layout, graph: StageGraph): Promise<DatasetViews> {
  const duck = await openDuck(':memory:');
  await duck.exec(`SET threads = 1`);
  await duck.exec(`SET preserve_insertion_order = true`);
  const ran = new Map<string, boolean>();
  for (const stage of orderedStages(graph)) {
    const has = stageHasParts(layout, stage.name);
    ran.set(stage.name, has);
    await duck.exec(`CREATE VIEW ${sqlIdent(stage.name)} AS ${latestSql(layout, stage, has)}`);
    await duck.exec(`CREATE VIEW ${sqlIdent(`${stage.name}_history`)} AS ${historySql(layout, stage, has)}`);
  }
  return {
    duck,
    graph,
    layout,
    ran: (s) => ran.get(s) ?? false,
    has: (s) => findStage(graph, s) !== undefined,
    close: () => duck.close(),
  };
}
