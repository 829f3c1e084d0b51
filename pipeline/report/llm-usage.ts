import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sqlString } from '../store/duck.js';
import type { DatasetViews } from './dataset-views.js';

/**
 * LLM calls, tokens and cost per stage and model, read from the dataset's call ledger: the
 * Parquet parts the runner writes under `data/<dataset>/ledger/` (one row per call, cache hits
 * at zero cost; see pipeline/store/ledger.ts). Read here by its on-disk format (columns stage,
 * model, cached, tokens_in, tokens_out, cost_usd, run_id) so the report only needs the files.
 * No ledger, or an empty one, means no stage called a model: shown as "none".
 */

export interface LlmUsage {
  stage: string;
  model: string;
  calls: number;
  cached: number;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number;
}

export function ledgerGlob(views: Pick<DatasetViews, 'layout'>): string | undefined {
  const dir = join(views.layout.datasetDir, 'ledger');
  if (!existsSync(dir) || !readdirSync(dir).some((f) => f.startsWith('part-') && f.endsWith('.parquet'))) return undefined;
  return join(dir, 'part-*.parquet');
}

/**
 * `current`: calls of the runs that made the current rows of some stage (the card's "models
 * used"); `all`: every call ever recorded, i.e. all work paid for, reruns included (the report).
 */
export async function llmUsage(views: DatasetViews, scope: 'current' | 'all', currentRunIds: readonly string[] = []): Promise<LlmUsage[]> {
  const glob = ledgerGlob(views);
  if (!glob) return [];
  const where = scope === 'current' ? `WHERE run_id IN (${currentRunIds.length ? currentRunIds.map(sqlString).join(', ') : 'NULL'})` : '';
  const rows = await views.duck.all(
    `SELECT stage, model, count(*) AS calls, count(*) FILTER (cached) AS cached, coalesce(sum(tokens_in), 0) AS tin, ` +
      `coalesce(sum(tokens_out), 0) AS tout, coalesce(sum(cost_usd), 0) AS cost ` +
      `FROM read_parquet(${sqlString(glob)}, union_by_name=true) ${where} GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  return rows.map((r) => ({
    stage: String(r.stage),
    model: String(r.model),
    calls: Number(r.calls),
    cached: Number(r.cached),
    tokens_in: Number(r.tin),
    tokens_out: Number(r.tout),
    cost_usd: Math.round(Number(r.cost) * 1e6) / 1e6,
  }));
}
