import { Command, InvalidArgumentError, Option } from 'commander';
import type { StageGraph } from '../graph-types.js';
import { processIo, type Io } from './context.js';
import { runCommand } from './commands/run.js';
import { statusCommand } from './commands/status.js';
import { showCommand, sqlCommand } from './commands/query.js';
import { demoRemotesCommand } from './commands/demo-remotes.js';
import { demoConflictRemotesCommand } from './commands/demo-conflict-remotes.js';
import { gcCommand } from './commands/gc.js';
import { exportCommand } from './commands/export.js';
import { trajectoriesCommand } from './commands/trajectories.js';
import { reportCommand } from './commands/report.js';
import { reviewExportCommand, reviewImportCommand, reviewStatusCommand } from './commands/review.js';

/** Every envforge command, declared in one place; each action is a plain async function. */
export function buildProgram(graph: StageGraph, io: Io = processIo, signal?: AbortSignal): Command {
  const program = new Command('envforge')
    .description('Build and refresh environment-setup benchmarks from public GitHub repositories')
    .option('-c, --config <file>', 'run configuration (TOML or YAML); default $ENVFORGE_CONFIG or configs/default.toml')
    .option('-d, --dataset <name>', 'dataset to read and write (default: the config\'s "dataset")')
    .option('-q, --quiet', 'only warnings and errors on stderr')
    .showHelpAfterError()
    .exitOverride();

  const stageList = graph.stages.map((s) => `  ${s.name.padEnd(10)} ${s.description}`).join('\n');

  program
    .command('run')
    .description('run stages; only inputs not yet done for this stage version and config are processed')
    .argument('<stage...>', 'stages to run in order, or "all"')
    .option('--force', 'reprocess every input, done or not')
    .option('--retry-errors', 'also reprocess inputs whose latest result is an error')
    .option('--limit <n>', 'process at most n pending inputs per stage', positiveInt)
    .addOption(new Option('--only <key...>', 'process only these input keys (always rerun)'))
    .option('--shard <i/n>', 'process only shard i of n (1-based), for running on several machines')
    .option('-j, --jobs <n>', 'items processed concurrently (default: run.jobs)', positiveInt)
    .addHelpText('after', `\nStages:\n${stageList}`)
    .action(async (stages: string[], opts, cmd: Command) => {
      await runCommand(stages, { ...cmd.optsWithGlobals(), ...opts, signal }, graph, io);
    });

  program
    .command('status')
    .description('rows by status for every stage, top reasons, and the funnel')
    .action(async (_opts, cmd: Command) => {
      await statusCommand(cmd.optsWithGlobals(), graph, io);
    });

  const format = new Option('-f, --format <format>', 'output format').choices(['table', 'json', 'csv']).default('table');

  program
    .command('show')
    .description("a stage's current rows")
    .argument('<stage>', 'stage name')
    .option('-s, --status <status>', 'only rows with this status (accepted, rejected, error)')
    .option('-r, --reason <code>', 'only rows with this reason code')
    .option('-n, --limit <n>', 'at most n rows', positiveInt, 50)
    .option('--columns <a,b,...>', 'columns to show')
    .addOption(format)
    .action(async (stage: string, _opts, cmd: Command) => {
      await showCommand(stage, cmd.optsWithGlobals(), graph, io);
    });

  program
    .command('sql')
    .description('run a DuckDB query over the artifacts: one view per stage (latest row per key), <stage>_history for all rows')
    .argument('<query>', 'SQL text')
    .addOption(format)
    .action(async (query: string, _opts, cmd: Command) => {
      await sqlCommand(query, cmd.optsWithGlobals(), graph, io);
    });

  program
    .command('export')
    .description('write each benchmark in its published format plus Parquet and a Hugging Face dataset card (ready to upload)')
    .option('--to <dir>', 'target folder (default data/<dataset>/export/)')
    .action(async (_opts, cmd: Command) => {
      await exportCommand(cmd.optsWithGlobals(), graph, io);
    });

  const collect = (v: string, prev: string[] = []) => [...prev, v];
  program
    .command('trajectories')
    .description('write the rollout trajectories as fine-tuning JSONL (OpenAI chat format with tool calls, ShareGPT), filtered')
    .option('--out <dir>', 'target folder (default data/<dataset>/trajectories/)')
    .option('--pass', 'only trajectories whose final environment passed')
    .option('--fail', 'only trajectories that failed')
    .option('--model <name>', 'only this model (repeatable)', collect)
    .option('--instance <id>', 'only this instance (repeatable)', collect)
    .option('--benchmark <name>', 'only envbench, enconda or setupbench (repeatable)', collect)
    .action(async (_opts, cmd: Command) => {
      await trajectoriesCommand(cmd.optsWithGlobals(), graph, io);
    });

  program
    .command('report')
    .description('write report.html and report.md: funnel, distributions, sandbox time, LLM cost, changes since the previous run')
    .option('--out <dir>', 'target folder (default data/<dataset>/report/)')
    .action(async (_opts, cmd: Command) => {
      await reportCommand(cmd.optsWithGlobals(), graph, io);
    });

  const review = program.command('review').description('human review of validated injected errors (EnConda-Bench): export a file, import decisions, agreement');
  review
    .command('export')
    .description('write one YAML entry per valid error (diff, evidence, LLM verdict, a decision to fill in)')
    .option('--out <file>', 'target file (default data/<dataset>/review/review.yaml)')
    .action(async (_opts, cmd: Command) => {
      await reviewExportCommand(cmd.optsWithGlobals(), graph, io);
    });
  review
    .command('import')
    .description('read decisions (accept/reject) back, report the LLM↔human agreement, rerun review and tiers')
    .argument('<file>', 'a review file (YAML, or JSONL with one entry per line)')
    .option('--reviewer <name>', 'recorded with each decision')
    .option('--no-rerun', 'only store the decisions')
    .action(async (file: string, _opts, cmd: Command) => {
      await reviewImportCommand(file, cmd.optsWithGlobals(), graph, io);
    });
  review
    .command('status')
    .description('errors surviving each step (inject → validate → review → tiers) and the LLM↔human agreement')
    .action(async (_opts, cmd: Command) => {
      await reviewStatusCommand(cmd.optsWithGlobals(), graph, io);
    });

  program
    .command('gc')
    .description('remove sandbox containers left behind by a crash (every envforge container is labelled)')
    .action(async (_opts, cmd: Command) => {
      await gcCommand(cmd.optsWithGlobals(), io);
    });

  program
    .command('demo-remotes')
    .description('build the demo\'s local git repositories (cloned through file://) from template folders')
    .option('--templates <dir>', 'one folder per repository', 'data/samples/repos')
    .option('--out <dir>', 'where the bare repositories go', 'data/demo-remotes')
    .option('--owner <name>', 'owner part of the repository names', 'envforge-demo')
    .action(async (opts) => {
      await demoRemotesCommand(opts, io);
    });

  program
    .command('demo-conflict-remotes')
    .description("build the dependency-conflict demo's git repositories, with history, from template folders (one per commit)")
    .option('--templates <dir>', 'folders <owner>/<repo>/<NN>-<YYYY-MM-DD>-<slug>/', 'data/samples/conflict-repos')
    .option('--out <dir>', 'where the bare repositories go', 'data/demo-remotes')
    .action(async (opts) => {
      await demoConflictRemotesCommand(opts, io);
    });

  return program;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}
