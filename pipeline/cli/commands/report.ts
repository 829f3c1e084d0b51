import { join, relative, resolve } from 'node:path';
import type { StageGraph } from '../../graph-types.js';
import { buildReport, type ReportResult } from '../../report/build-report.js';
import { openDatasetViews } from '../../report/dataset-views.js';
import { openContext, type GlobalOptions, type Io } from '../context.js';

export interface ReportCommandOptions extends GlobalOptions {
  /** Target folder; default data/<dataset>/report/. */
  out?: string;
}

/** `envforge report [--out DIR]`: report.html + report.md (funnel, distributions, sandbox time, LLM cost, changes). */
export async function reportCommand(opts: ReportCommandOptions, graph: StageGraph, io: Io): Promise<ReportResult> {
  const ctx = await openContext(opts, io);
  const dir = resolve(opts.out ?? join(ctx.layout.datasetDir, 'report'));
  const views = await openDatasetViews(ctx.layout, graph);
  let result: ReportResult;
  try {
    result = await buildReport(views, dir);
  } finally {
    views.close();
  }
  const shown = relative(process.cwd(), dir) || '.';
  io.out(`report of dataset ${ctx.layout.dataset}: ${shown}/report.html and ${shown}/report.md (funnel: ${result.data.funnelLine})`);
  return result;
}
