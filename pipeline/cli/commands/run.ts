import { ConfigError, ExitError, EXIT, messageOf } from '../../errors.js';
import { findStage, orderedStages, type StageGraph } from '../../graph-types.js';
import { runStage } from '../../runner/run-stage.js';
import { parseShard } from '../../runner/select-pending.js';
import { renderSummaries, type StageSummary } from '../../runner/summary.js';
import { ArtifactStore } from '../../store/artifact-store.js';
import { openCatalog } from '../../store/catalog.js';
import type { Stage } from '../../stage.js';
import { openContext, type GlobalOptions, type Io } from '../context.js';

export interface RunCommandOptions extends GlobalOptions {
  force?: boolean;
  retryErrors?: boolean;
  limit?: number;
  only?: string[];
  shard?: string;
  jobs?: number;
  signal?: AbortSignal;
}

/** `envforge run <stage...>`: run stages in the order given (`all`: every stage in graph order). */
export async function runCommand(names: string[], opts: RunCommandOptions, graph: StageGraph, io: Io): Promise<StageSummary[]> {
  const stages = resolveStages(names, graph);
  const shard = opts.shard !== undefined ? parseShard(opts.shard) : undefined;
  const only = opts.only?.flatMap((o) => o.split(',')).map((k) => k.trim()).filter(Boolean);
  const ctx = await openContext(opts, io);
  const store = await ArtifactStore.open(ctx.layout);
  const summaries: StageSummary[] = [];
  try {
    for (const stage of stages) {
      ctx.log.info(`${stage.name}: ${stage.description} (dataset ${ctx.layout.dataset})`);
      const summary = await runStage(
        stage,
        { graph, store, config: ctx.loaded, log: ctx.log },
        { force: opts.force, retryErrors: opts.retryErrors, limit: opts.limit, only, shard, jobs: opts.jobs, signal: opts.signal, progressStream: opts.quiet ? quietStream : io.err, tty: io.tty },
      );
      summaries.push(summary);
      if (summary.interrupted) break;
    }
  } finally {
    store.close();
    await refreshCatalog(graph, ctx.layout, (m) => ctx.log.warn(m));
  }
  io.out(renderSummaries(summaries));
  if (summaries.some((s) => s.interrupted)) {
    throw new ExitError('interrupted: finished items are saved; run the same command again to resume', EXIT.interrupted);
  }
  return summaries;
}

const quietStream = { write: () => true } as unknown as NodeJS.WritableStream;

function resolveStages(names: string[], graph: StageGraph): Stage[] {
  if (names.length === 0) throw new ConfigError('run: name at least one stage, or "all"');
  if (names.includes('all')) return orderedStages(graph);
  return names.map((n) => {
    const s = findStage(graph, n);
    if (!s) throw new ConfigError(`run: unknown stage "${n}" (stages: ${graph.stages.map((x) => x.name).join(', ')})`);
    return s;
  });
}

async function refreshCatalog(graph: StageGraph, layout: Parameters<typeof openCatalog>[0], warn: (m: string) => void) {
  // Another process (a shard, an open `sql` shell) may hold the catalog: the parts are what
  // matter, and the views are rebuilt by the next command that opens it.
  try {
    (await openCatalog(layout, graph.stages)).close();
  } catch (err) {
    warn(`catalog not refreshed: ${messageOf(err)}`);
  }
}
