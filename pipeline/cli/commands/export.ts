import { join, relative, resolve } from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { StageGraph } from '../../graph-types.js';
import { exportDataset, type ExportResult } from '../../export/export-dataset.js';
import { defaultHostPaths } from '../../export/leak-check.js';
import { packageRoot } from '../../package-root.js';
import { openDatasetViews } from '../../report/dataset-views.js';
import { openContext, type GlobalOptions, type Io } from '../context.js';

export interface ExportCommandOptions extends GlobalOptions {
  /** Target folder; default data/<dataset>/export/. */
  to?: string;
}

/** `envforge export [--to DIR]`: each recipe in its published format + Parquet + dataset card. */
export async function exportCommand(opts: ExportCommandOptions, graph: StageGraph, io: Io): Promise<ExportResult> {
  const ctx = await openContext(opts, io);
  const dir = resolve(opts.to ?? join(ctx.layout.datasetDir, 'export'));
  await mkdir(dir, { recursive: true });
  const views = await openDatasetViews(ctx.layout, graph);
  let result: ExportResult;
  try {
    result = await exportDataset(views, {
      dir,
      loaded: ctx.loaded,
      hostPaths: defaultHostPaths([
        { label: 'the dataset folder', path: ctx.layout.datasetDir },
        { label: 'the data folder', path: ctx.layout.dataDir },
        { label: 'the cache folder', path: ctx.layout.cacheDir },
        { label: 'the export folder', path: dir },
        { label: 'the envforge checkout', path: packageRoot() },
      ]),
    });
  } finally {
    views.close();
  }
  const shown = relative(process.cwd(), dir) || '.';
  const lines = [`export of dataset ${ctx.layout.dataset}: ${shown}/`];
  for (const r of result.exported) lines.push(`  ${r.title}: ${r.splits.map((s) => `${s.config}/${s.split} ${s.rows}`).join(', ')}`);
  for (const s of result.skipped) lines.push(`  ${s.title}: skipped: ${s.skipped}`);
  lines.push(`  ${result.files.length} files; dataset card ${shown}/README.md`);
  io.out(lines.join('\n'));
  return result;
}
