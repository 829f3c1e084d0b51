import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxError, type RunResult } from '../../pipeline/sandbox/container-run.js';
import type { ContainerSession } from '../../pipeline/sandbox/container-session.js';
import { sandboxFor, scriptsDir, type Sandbox } from '../../pipeline/sandbox/sandbox.js';
import type { Cells, StageContext } from '../../pipeline/stage.js';
import { readDriverOutput } from '../baseline/metrics.js';
import { detectFamily, resolveCheckout } from './checkout.js';
import { processScores, type ProcessScores } from './enconda-scores.js';
import type { EvalTask, Family } from './task.js';

/**
 * The evaluation every benchmark defines, shared by the evaluate stage (a script from a JSONL, in
 * a fresh container) and the rollout stage (the environment an agent left in its session):
 * - EnvBench: the setup script, then the metric (pyright reportMissingImports / JVM build errors)
 *   in the environment it left, by the baseline's driver (sandboxes/scripts/run-baseline.sh);
 *   pass = exit 0 AND 0 issues.
 * - SetupBench: the success command; pass = exit 0.
 * - EnConda: process-level scores against the gold JSON, plus the end-to-end run of the shell
 *   script (EnvBench's rule); pass = the end-to-end run passes.
 */

export interface EvalSettings {
  timeoutSeconds: number;
  pythonImage: string;
  jvmImage: string;
  judgeModel: string;
  maxUsd: number;
}

export type FailureClass = 'none' | 'setup' | 'metric' | 'command' | 'no_script' | 'infra';

export interface EvalResult {
  passed: boolean;
  failure_class: FailureClass;
  /** Why: a short code (`passed`, `setup_failed`, `missing_imports`, `build_errors`, `command_failed`, `timeout`, ...) and text. */
  code: string;
  text: string;
  /** The script's / command's exit code, or EnvBench's negative codes (-127 timeout, -777 create, -888 docker, -999 unknown). */
  exit_code: number | null;
  /** Seconds, as EnvBench records it. */
  execution_time: number;
  issues_count: number | null;
  missing_modules: string[] | null;
  metric_exit_code: number | null;
  build_tool: string | null;
  pyright: Record<string, unknown> | null;
  diagnostic_log: string | null;
  container_logs: string;
  log_bytes: number;
  log_truncated: boolean;
  family: Family | null;
  image: string | null;
  image_id: string | null;
  /** The revision evaluated (resolved when the input gave none). */
  commit_sha: string | null;
  scores: ProcessScores | null;
}

const DRIVER = ['run-baseline.sh'];

export function evalSettings(ctx: StageContext): EvalSettings {
  const e = ctx.config.config.evaluate;
  return { timeoutSeconds: e.timeout_seconds, pythonImage: e.python_image, jvmImage: e.jvm_image, judgeModel: e.judge_model, maxUsd: e.max_usd };
}

function empty(family: Family | null, sha: string | null): EvalResult {
  return {
    passed: false, failure_class: 'infra', code: 'unknown', text: '', exit_code: null, execution_time: 0, issues_count: null, missing_modules: null,
    metric_exit_code: null, build_tool: null, pyright: null, diagnostic_log: null, container_logs: '', log_bytes: 0, log_truncated: false,
    family, image: null, image_id: null, commit_sha: sha, scores: null,
  };
}

/** The image of a SetupBench ecosystem: [reproduce.ecosystems.<e>].image, else by the ecosystem's name. */
export function ecosystemImage(ctx: StageContext, ecosystem: string | null): string {
  const eco = ecosystem ? (ctx.config.config.reproduce.ecosystems as Record<string, { image: string } | undefined>)[ecosystem] : undefined;
  if (eco) return eco.image;
  if (ecosystem?.startsWith('npm')) return 'node';
  if (ecosystem?.startsWith('bundler')) return 'ruby';
  return 'python';
}

/** Evaluate a task in fresh containers (the evaluate stage). Checkout failures are thrown as GitFailure. */
export async function evaluateTask(ctx: StageContext, stage: string, task: EvalTask, s: EvalSettings): Promise<EvalResult> {
  const checkout = await resolveCheckout(ctx, task.repository, task.revision, task.clone_path);
  const family = task.family ?? detectFamily(checkout.dir);
  const sandbox = sandboxFor(ctx, stage);
  if (task.benchmark === 'setupbench') {
    return runFresh(sandbox, task.instance_id, checkout.dir, ecosystemImage(ctx, task.ecosystem), ['bash', '-c', task.success_command ?? 'false'], s, null, checkout.sha, (res, r) => commandVerdict(res.exitCode, r));
  }
  let scores: ProcessScores | null = null;
  if (task.benchmark === 'enconda' && task.gold) {
    scores = await processScores(ctx, stage, task.instance_id, task.agent_output ?? {}, task.gold, s.judgeModel, s.maxUsd);
  }
  if (!task.script) {
    const r = empty(family, checkout.sha);
    return { ...r, failure_class: 'no_script', code: 'no_script', text: 'the agent output has no shell_script to run end to end', scores };
  }
  const r = await runScriptFresh(sandbox, task.instance_id, checkout.dir, family, task.script, s, checkout.sha);
  return { ...r, scores };
}

/** EnvBench: the script, then the metric, in one fresh container on a copy of the checkout. */
export async function runScriptFresh(sandbox: Sandbox, key: string, checkoutDir: string, family: Family, script: string, s: EvalSettings, sha: string | null): Promise<EvalResult> {
  const files = [
    ...(await driverFiles()),
    { path: '/envforge/eval-script.sh', content: script.endsWith('\n') ? script : `${script}\n`, mode: 0o755 },
  ];
  return runFresh(sandbox, key, checkoutDir, family === 'python' ? s.pythonImage : s.jvmImage, ['bash', '/envforge/run-baseline.sh', family, '/envforge/eval-script.sh'], s, family, sha, (res, r) => metricVerdict(res.files, family, r), files);
}

async function driverFiles() {
  return Promise.all(DRIVER.map(async (f) => ({ path: `/envforge/${f}`, content: await readFile(join(scriptsDir(), f)), mode: 0o755 })));
}

async function runFresh(
  sandbox: Sandbox,
  key: string,
  checkoutDir: string,
  imageName: string,
  cmd: string[],
  s: EvalSettings,
  family: Family | null,
  sha: string | null,
  verdict: (res: RunResult, r: EvalResult) => EvalResult,
  files: { path: string; content: string | Buffer; mode?: number }[] = [],
): Promise<EvalResult> {
  const r = empty(family, sha);
  const image = await sandbox.image(imageName);
  Object.assign(r, { image: image.tag, image_id: image.id });
  let res: RunResult;
  try {
    res = await sandbox.run({ key, image: image.tag, cmd, copies: [{ hostDir: checkoutDir, containerPath: '/repo' }], files, workdir: '/repo', timeoutMs: s.timeoutSeconds * 1000, collect: '/envforge/out' });
  } catch (err) {
    if (err instanceof SandboxError) return { ...r, code: `infra_${err.phase}`, text: err.message, exit_code: err.phase === 'create' ? -777 : -888 };
    throw err;
  }
  if (res.aborted) throw new Error('interrupted');
  Object.assign(r, { execution_time: res.durationMs / 1000, container_logs: res.log, log_bytes: res.logBytes, log_truncated: res.logTruncated });
  if (res.timedOut) return { ...r, code: 'timeout', text: `no result within ${s.timeoutSeconds} s (evaluate.timeout_seconds)`, exit_code: -127 };
  if (res.oomKilled) return { ...r, code: 'oom', text: 'killed at the memory limit (sandbox.memory_mb)', exit_code: -999 };
  return verdict(res, r);
}

function commandVerdict(exit: number | null, r: EvalResult): EvalResult {
  if (exit === 0) return { ...r, exit_code: 0, passed: true, failure_class: 'none', code: 'passed', text: 'the success command exited 0' };
  return { ...r, exit_code: exit ?? -999, failure_class: 'command', code: 'command_failed', text: `the success command exited ${exit}` };
}

/** EnvBench's pass rule on what the driver wrote: setup exit 0 and 0 metric issues. */
function metricVerdict(files: Map<string, Buffer>, family: Family, r: EvalResult): EvalResult {
  const d = readDriverOutput(files, family);
  if (d.setupExit === undefined) return { ...r, exit_code: -999, code: 'infra_no_result', text: 'the driver wrote no result' };
  const out: EvalResult = { ...r, exit_code: d.setupExit, metric_exit_code: d.metricExit, issues_count: d.issues, missing_modules: d.missingModules, build_tool: d.buildTool, pyright: d.pyright, diagnostic_log: d.diagnosticLog };
  if (d.setupExit !== 0) return { ...out, failure_class: 'setup', code: 'setup_failed', text: `the setup script exited ${d.setupExit}` };
  if (d.metricProblem) return { ...out, code: 'metric_unreadable', text: d.metricProblem };
  if ((d.issues ?? 0) > 0) {
    const what = family === 'python' ? `${d.issues} missing imports (${(d.missingModules ?? []).join(', ')})` : `${d.issues} build error lines (${d.buildTool})`;
    return { ...out, failure_class: 'metric', code: family === 'python' ? 'missing_imports' : 'build_errors', text: what };
  }
  return { ...out, passed: true, failure_class: 'none', code: 'passed', text: 'setup exit 0 and 0 issues' };
}

/**
 * The evaluation of the environment an agent left in its session (rollout): EnvBench's metric
 * after restoring the agent's shell state, or the success command in that state.
 */
export async function evaluateSession(session: ContainerSession, task: EvalTask, family: Family, s: EvalSettings, sha: string | null, image: { tag: string; id: string }): Promise<EvalResult> {
  const r = { ...empty(family, sha), image: image.tag, image_id: image.id };
  const timeoutMs = s.timeoutSeconds * 1000;
  try {
    if (task.benchmark === 'setupbench') {
      const res = await session.exec(['bash', '/envforge/agent-shell.sh', task.success_command ?? 'false'], { timeoutMs });
      Object.assign(r, { execution_time: res.durationMs / 1000, container_logs: res.output, log_bytes: res.outputBytes, log_truncated: res.outputTruncated });
      if (res.timedOut) return { ...r, code: 'timeout', text: `no result within ${s.timeoutSeconds} s`, exit_code: -127 };
      return commandVerdict(res.exitCode, r);
    }
    await session.put(await driverFiles());
    const res = await session.exec(['bash', '-c', `rm -rf /envforge/out && exec bash /envforge/run-baseline.sh ${family} /envforge/session-env.sh`], { timeoutMs, workdir: '/repo' });
    Object.assign(r, { execution_time: res.durationMs / 1000, container_logs: res.output, log_bytes: res.outputBytes, log_truncated: res.outputTruncated });
    if (res.timedOut) return { ...r, code: 'timeout', text: `no result within ${s.timeoutSeconds} s`, exit_code: -127 };
    return metricVerdict(await session.collect('/envforge/out'), family, r);
  } catch (err) {
    if (err instanceof SandboxError) return { ...r, code: `infra_${err.phase}`, text: err.message, exit_code: -888 };
    throw err;
  }
}

/** EnvBench's evaluation result record (exit_code, execution_time, repo_name, commit_sha, container_logs, issues_count, pyright | build_tool + diagnostic_log). */
export function envbenchResult(repository: string, r: EvalResult): Record<string, unknown> {
  const base = { exit_code: r.exit_code, execution_time: r.execution_time, repo_name: repository, commit_sha: r.commit_sha, container_logs: r.container_logs, issues_count: r.issues_count };
  return r.family === 'jvm' ? { ...base, build_tool: r.build_tool, diagnostic_log: r.diagnostic_log } : { ...base, pyright: r.pyright };
}

/** Columns every evaluation row carries (evaluate and rollout). */
export const EVAL_COLUMNS = {
  passed: 'BOOLEAN',
  failure_class: 'VARCHAR',
  exit_code: 'INTEGER',
  execution_time: 'DOUBLE',
  issues_count: 'INTEGER',
  missing_modules: 'VARCHAR[]',
  metric_exit_code: 'INTEGER',
  build_tool: 'VARCHAR',
  container_logs: 'VARCHAR',
  log_bytes: 'BIGINT',
  log_truncated: 'BOOLEAN',
  family: 'VARCHAR',
  image: 'VARCHAR',
  image_id: 'VARCHAR',
  commit_sha: 'VARCHAR',
  precision: 'DOUBLE',
  recall: 'DOUBLE',
  f1: 'DOUBLE',
  description_score: 'DOUBLE',
  fix_score: 'DOUBLE',
  /** EnConda: the scores with the type sets and the judge model. */
  scores: 'JSON',
  /** EnvBench's result record, field for field. */
  envbench_result: 'JSON',
} as const;

export function evalCells(repository: string, r: EvalResult): Cells {
  return {
    passed: r.passed,
    failure_class: r.failure_class,
    exit_code: r.exit_code,
    execution_time: r.execution_time,
    issues_count: r.issues_count,
    missing_modules: r.missing_modules,
    metric_exit_code: r.metric_exit_code,
    build_tool: r.build_tool,
    container_logs: r.container_logs,
    log_bytes: r.log_bytes,
    log_truncated: r.log_truncated,
    family: r.family,
    image: r.image,
    image_id: r.image_id,
    commit_sha: r.commit_sha,
    precision: r.scores?.precision ?? null,
    recall: r.scores?.recall ?? null,
    f1: r.scores?.f1 ?? null,
    description_score: r.scores?.description_score ?? null,
    fix_score: r.scores?.fix_score ?? null,
    scores: r.scores ? (r.scores as unknown as Record<string, unknown>) : null,
    envbench_result: r.family && r.failure_class !== 'command' ? envbenchResult(repository, r) : null,
  };
}

