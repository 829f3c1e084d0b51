import Table from 'cli-table3';
import { findStage, type StageGraph } from '../../graph-types.js';
import { openDatasetViews } from '../../report/dataset-views.js';
import { datasetFunnel, funnelLines, type StageFunnel } from '../../report/funnel.js';
import { sqlIdent } from '../../store/duck.js';
import { openContext, type GlobalOptions, type Io } from '../context.js';

export interface StageStatus extends StageFunnel {
  /** Rows whose input is no longer an accepted upstream row (upstream changed since). */
  stale: number;
}

/** `envforge status`: rows by status for every stage, top reasons, and the funnel of each recipe. */
export async function statusCommand(opts: GlobalOptions, graph: StageGraph, io: Io): Promise<StageStatus[]> {
  const ctx = await openContext(opts, io);
  const views = await openDatasetViews(ctx.layout, graph);
  const result: StageStatus[] = [];
  try {
    for (const f of await datasetFunnel(views)) {
      let stale = 0;
      const up = findStage(graph, f.input);
      // A grouping stage's (Stage.group) inputs are groups of upstream rows, not upstream keys.
      if (up && f.ran && !findStage(graph, f.stage)?.group) {
        const [s] = await views.duck.all(
          `SELECT count(*) AS n FROM ${sqlIdent(f.stage)} WHERE input_key NOT IN (SELECT key FROM ${sqlIdent(up.name)} WHERE status = 'accepted')`,
        );
        stale = Number(s?.n ?? 0);
      }
      result.push({ ...f, stale });
    }
  } finally {
    views.close();
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
      s.topReasons.map((r) => `${r.status}:${r.reason} ${r.count}`).join('\n'),
    ]);
  }
  const lines = funnelLines(stages);
  const funnel = lines.length ? lines.map((l) => `funnel: ${l}`).join('\n') : 'funnel: no stage has run yet in this dataset';
  return `dataset ${dataset}\n${table.toString()}\n${funnel}`;
}
