import Table from 'cli-table3';
import { findStage, orderedStages, type StageGraph } from '../../graph-types.js';
import { openCatalog } from '../../store/catalog.js';
import { stageHasParts } from '../../store/layout.js';
import { sqlIdent } from '../../store/duck.js';
import { openContext, type GlobalOptions, type Io } from '../context.js';

export interface StageStatus {
  stage: string;
  input: string;
  ran: boolean;
  rows: number;
  accepted: number;
  rejected: number;
  error: number;
  /** Rows whose input is no longer an accepted upstream row (upstream changed since). */
  stale: number;
  topReasons: { reason: string; count: number }[];
}

/** `envforge status`: rows by status for every stage, and the funnel from first stage to last. */
export async function statusCommand(opts: GlobalOptions, graph: StageGraph, io: Io): Promise<StageStatus[]> {
  const ctx = await openContext(opts, io);
  const duck = await openCatalog(ctx.layout, graph.stages);
  const result: StageStatus[] = [];
  try {
    for (const stage of orderedStages(graph)) {
      const v = sqlIdent(stage.name);
      const [c] = await duck.all(
        `SELECT count(*) AS rows, count(*) FILTER (status = 'accepted') AS accepted, ` +
          `count(*) FILTER (status = 'rejected') AS rejected, count(*) FILTER (status = 'error') AS error FROM ${v}`,
      );
      const reasons = await duck.all(
        `SELECT status || ':' || coalesce(reason, '?') AS reason, count(*) AS count FROM ${v} ` +
          `WHERE status <> 'accepted' GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10`,
      );
      let stale = 0;
      const up = findStage(graph, stage.input);
      if (up) {
        const [s] = await duck.all(
          `SELECT count(*) AS n FROM ${v} WHERE input_key NOT IN (SELECT key FROM ${sqlIdent(up.name)} WHERE status = 'accepted')`,
        );
        stale = Number(s?.n ?? 0);
      }
      result.push({
        stage: stage.name,
        input: stage.input,
        ran: stageHasParts(ctx.layout, stage.name),
        rows: Number(c?.rows ?? 0),
        accepted: Number(c?.accepted ?? 0),
        rejected: Number(c?.rejected ?? 0),
        error: Number(c?.error ?? 0),
        stale,
        topReasons: reasons.map((r) => ({ reason: String(r.reason), count: Number(r.count) })),
      });
    }
  } finally {
    duck.close();
  }
  io.out(renderStatus(ctx.layout.dataset, result));
  return result;
}

export function renderStatus(dataset: string, stages: StageStatus[]): string {
  const table = new Table({
    head: ['stage', 'input', 'rows', 'accepted', 'rejected', 'error', 'stale', 'top reasons'],
    style: { head: [], border: [] },
  });
  for (const s of stages) {
    table.push([
      s.stage,
      s.input,
      s.ran ? s.rows : 'not run',
      s.accepted,
      s.rejected,
      s.error,
      s.stale,
      s.topReasons.map((r) => `${r.reason} ${r.count}`).join('\n'),
    ]);
  }
  const ran = stages.filter((s) => s.ran);
  const funnel = ran.length
    ? `funnel: ${ran[0]!.rows} in → ` + ran.map((s) => `${s.stage} ${s.accepted}`).join(' → ')
    : 'funnel: no stage has run yet in this dataset';
  return `dataset ${dataset}\n${table.toString()}\n${funnel}`;
}
