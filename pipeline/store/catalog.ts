import { mkdir } from 'node:fs/promises';
import { openDuck, sqlIdent, type Duck } from './duck.js';
import { stageHasParts, type Layout } from './layout.js';
import { historySql, latestSql, type StageShape } from './artifact-store.js';
import { SetupError } from '../errors.js';
import { ledgerSql } from './ledger.js';
import { decisionsSql } from './review-decisions.js';

/**
 * `data/<dataset>/catalog.duckdb`: one view per stage (latest row per key) and one
 * `<stage>_history` view (every row), plus `llm_ledger` (every LLM call), rebuilt on every open so new parts are always visible.
 */
export async function openCatalog(layout: Layout, stages: readonly StageShape[]): Promise<Duck> {
  await mkdir(layout.datasetDir, { recursive: true });
  let duck: Duck;
  try {
    duck = await openDuck(layout.catalog);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new SetupError(`cannot open the catalog ${layout.catalog}: ${msg.split('\n')[0]}`);
  }
  for (const stage of stages) {
    const has = stageHasParts(layout, stage.name);
    await duck.exec(`CREATE OR REPLACE VIEW ${sqlIdent(stage.name)} AS ${latestSql(layout, stage, has)}`);
    await duck.exec(`CREATE OR REPLACE VIEW ${sqlIdent(`${stage.name}_history`)} AS ${historySql(layout, stage, has)}`);
  }
  // Every LLM call of the dataset (pipeline/llm), cache hits included.
  await duck.exec(`CREATE OR REPLACE VIEW llm_ledger AS ${ledgerSql(layout)}`);
  // Human review decisions (`envforge review import`), latest per error.
  await duck.exec(`CREATE OR REPLACE VIEW review_decisions AS ${decisionsSql(layout)}`);
  return duck;
}
