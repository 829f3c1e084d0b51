import { findStage, orderedStages } from '../graph-types.js';
import { sqlIdent } from '../store/duck.js';
import type { DatasetViews } from './dataset-views.js';

/** One stage's current rows by status, with the reasons that stopped the rest (`envforge status`, for pages). */
export interface StageFunnel {
  stage: string;
  input: string;
  description: string;
  ran: boolean;
  rows: number;
  accepted: number;
  rejected: number;
  error: number;
  /** `rejected:<code>` / `error:<code>` with counts, most frequent first, ties by name. */
  topReasons: { status: 'rejected' | 'error'; reason: string; count: number }[];
  /** Distinct run ids of the current rows, sorted. */
  runIds: string[];
  configHashes: string[];
  stageVersions: number[];
}

export const TOP_REASONS = 8;

export async function stageFunnel(views: DatasetViews, name: string, topN = TOP_REASONS): Promise<StageFunnel> {
  const stage = findStage(views.graph, name);
  if (!stage) throw new Error(`stage ${name} is not in the graph`);
  const v = sqlIdent(stage.name);
  const [c] = await views.duck.all(
    `SELECT count(*) AS rows, count(*) FILTER (status = 'accepted') AS accepted, count(*) FILTER (status = 'rejected') AS rejected, ` +
      `count(*) FILTER (status = 'error') AS error, coalesce(list_sort(list_distinct(list(run_id))), []) AS run_ids, ` +
      `coalesce(list_sort(list_distinct(list(config_hash))), []) AS config_hashes, coalesce(list_sort(list_distinct(list(stage_version))), []) AS versions FROM ${v}`,
  );
  const reasons = await views.duck.all(
    `SELECT status, coalesce(reason, 'unspecified') AS reason, count(*) AS count FROM ${v} WHERE status <> 'accepted' ` +
      `GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT ${topN}`,
  );
  return {
    stage: stage.name,
    input: stage.input,
    description: stage.description,
    ran: views.ran(stage.name),
    rows: Number(c?.rows ?? 0),
    accepted: Number(c?.accepted ?? 0),
    rejected: Number(c?.rejected ?? 0),
    error: Number(c?.error ?? 0),
    topReasons: reasons.map((r) => ({ status: r.status as 'rejected' | 'error', reason: String(r.reason), count: Number(r.count) })),
    runIds: (c?.run_ids as string[] | undefined) ?? [],
    configHashes: (c?.config_hashes as string[] | undefined) ?? [],
    stageVersions: ((c?.versions as number[] | undefined) ?? []).map(Number),
  };
}

/** Every stage of the graph in pipeline order. */
export async function datasetFunnel(views: DatasetViews): Promise<StageFunnel[]> {
  const out: StageFunnel[] = [];
  for (const s of orderedStages(views.graph)) out.push(await stageFunnel(views, s.name));
  return out;
}

/**
 * The funnels of the dataset, one per chain of stages from a source to a last stage (the
 * recipes branch: inspect feeds baseline and readme; the conflict mining has its own source),
 * each cut at its last stage that ran. A chain that is the start of another is left out.
 */
export function funnelPaths(stages: readonly StageFunnel[]): StageFunnel[][] {
  const byName = new Map(stages.map((s) => [s.stage, s]));
  const readers = new Set(stages.map((s) => s.input));
  const paths: StageFunnel[][] = [];
  for (const leaf of stages.filter((s) => !readers.has(s.stage))) {
    const chain: StageFunnel[] = [];
    for (let cur: StageFunnel | undefined = leaf; cur; cur = byName.get(cur.input)) chain.unshift(cur);
    const ran = chain.slice(0, chain.findIndex((s) => !s.ran) === -1 ? chain.length : chain.findIndex((s) => !s.ran));
    if (ran.length > 0) paths.push(ran);
  }
  const isPrefix = (p: StageFunnel[], q: StageFunnel[]) => p.length <= q.length && p.every((s, i) => q[i] === s);
  return paths.filter((p, i) => !paths.some((q, j) => j !== i && isPrefix(p, q) && (p.length < q.length || j < i)));
}

/** `36 in → search 18 → clone 15 → …`, one line per funnel, as `envforge status` prints them. */
export function funnelLines(stages: readonly StageFunnel[]): string[] {
  return funnelPaths(stages).map((p) => `${p[0]!.rows} in → ` + p.map((s) => `${s.stage} ${s.accepted}`).join(' → '));
}

export function funnelLine(stages: readonly StageFunnel[]): string {
  const lines = funnelLines(stages);
  return lines.length > 0 ? lines.join('; ') : 'no stage has run yet in this dataset';
}
