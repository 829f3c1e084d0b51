import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { StageGraph } from '../../graph-types.js';
import { readTrajectories, toOpenAiRecord, toShareGptRecord, trajectoryMeta, type TrajectoryFilter, type TrajectoryRow } from '../../export/trajectories.js';
import { openDatasetViews } from '../../report/dataset-views.js';
import { openContext, type GlobalOptions, type Io } from '../context.js';

export interface TrajectoriesOptions extends GlobalOptions {
  out?: string;
  pass?: boolean;
  fail?: boolean;
  model?: string[];
  instance?: string[];
  benchmark?: string[];
}

/**
 * `envforge trajectories [--pass|--fail] [--model M]... [--instance I]... [--benchmark B]... [--out DIR]`:
 * the rollout stage's trajectories as fine-tuning JSONL: openai.jsonl (OpenAI chat format with
 * tool calls), sharegpt.jsonl, and index.jsonl (line i describes line i of both).
 */
export async function trajectoriesCommand(opts: TrajectoriesOptions, graph: StageGraph, io: Io): Promise<{ dir: string; count: number }> {
  const ctx = await openContext(opts, io);
  const dir = resolve(opts.out ?? join(ctx.layout.datasetDir, 'trajectories'));
  const filter: TrajectoryFilter = {
    pass: opts.pass ? true : opts.fail ? false : undefined,
    models: opts.model,
    instances: opts.instance,
    benchmarks: opts.benchmark,
  };
  const views = await openDatasetViews(ctx.layout, graph);
  let rows: TrajectoryRow[];
  try {
    rows = await readTrajectories(views, filter);
  } finally {
    views.close();
  }
  await mkdir(dir, { recursive: true });
  const lines = (f: (r: TrajectoryRow) => unknown) => rows.map((r) => JSON.stringify(f(r)) + '\n').join('');
  await writeFile(join(dir, 'openai.jsonl'), lines(toOpenAiRecord));
  await writeFile(join(dir, 'sharegpt.jsonl'), lines(toShareGptRecord));
  await writeFile(join(dir, 'index.jsonl'), lines(trajectoryMeta));
  const shown = relative(process.cwd(), dir) || '.';
  io.out(`${rows.length} trajectories (${rows.filter((r) => r.passed).length} passing) → ${shown}/openai.jsonl, sharegpt.jsonl, index.jsonl`);
  return { dir, count: rows.length };
}
