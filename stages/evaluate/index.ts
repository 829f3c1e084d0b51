import { GitFailure } from '../../pipeline/git/git-failure.js';
import { accept, fail, reject, type Cells, type Columns, type Item, type Stage } from '../../pipeline/stage.js';
import { sandboxFor } from '../../pipeline/sandbox/sandbox.js';
import { EVAL_COLUMNS, evalCells, evalSettings, evaluateTask } from './evaluate-task.js';
import { taskFromRecord } from './task.js';

/**
 * evaluate: each benchmark's own scoring on any script (evaluate-task.ts), from a scripts JSONL
 * (scripts-source.ts; EnvBench's `{repository, revision, script}` input). The rollout stage
 * scores the environments its agent leaves through the same module, in its own rows (a stage has
 * one input; the graph keeps evaluate a first stage on a source).
 *
 * accepted = the benchmark's pass rule holds; rejected = it ran and failed (`setup_failed`,
 * `missing_imports`, `build_errors`, `command_failed`, `no_script`); error = nothing was decided
 * (engine, timeout, checkout, malformed record).
 */

const columns = {
  instance_id: 'VARCHAR',
  benchmark: 'VARCHAR',
  repository: 'VARCHAR',
  revision: 'VARCHAR',
  script: 'VARCHAR',
  success_command: 'VARCHAR',
  ...EVAL_COLUMNS,
} satisfies Columns;

export const evaluateStage: Stage<Item> = {
  name: 'evaluate',
  version: 1,
  description: "score scripts with each benchmark's own rule in the sandbox (EnvBench metric, SetupBench success command, EnConda process scores)",
  input: 'evaluate_scripts',
  // The image and its limits decide results as much as the stage's own settings do.
  configSections: ['evaluate', 'sandbox'],
  columns,
  key(item) {
    if (item._problem) return `#line-${String(item._line)}`;
    const t = taskFromRecord(item);
    return 'problem' in t ? `#line-${String(item._line)}` : t.instance_id;
  },
  async preflight(ctx) {
    await sandboxFor(ctx, 'evaluate').check();
  },
  async run(item, ctx) {
    if (item._problem) return fail('malformed_record', String(item._problem));
    const task = taskFromRecord(item);
    if ('problem' in task) return fail('malformed_record', `line ${String(item._line)}: ${task.problem}`);
    const base: Cells = {
      instance_id: task.instance_id,
      benchmark: task.benchmark,
      repository: task.repository,
      revision: task.revision,
      script: task.script,
      success_command: task.success_command,
    };
    let r;
    try {
      r = await evaluateTask(ctx, 'evaluate', task, evalSettings(ctx));
    } catch (err) {
      if (err instanceof GitFailure) return fail(err.code, err.message, base);
      throw err;
    }
    const cells = { ...base, revision: r.commit_sha ?? task.revision, ...evalCells(task.repository, r) };
    if (r.passed) return accept(cells);
    if (r.failure_class === 'infra') return fail(r.code, r.text, cells);
    return reject(r.code, r.text, cells);
  },
};
