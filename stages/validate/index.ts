import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '../../pipeline/config/fingerprint.js';
import { ConfigError } from '../../pipeline/errors.js';
import { LlmCallError } from '../../pipeline/llm/client.js';
import { checkModels } from '../../pipeline/llm/models.js';
import { SandboxError } from '../../pipeline/sandbox/container-run.js';
import { sandboxFor } from '../../pipeline/sandbox/sandbox.js';
import { accept, fail, reject, type Cells, type Columns, type Item, type Stage, type StageContext } from '../../pipeline/stage.js';
import { clonesRoot } from '../clone/index.js';
import { applyEdits, type Edit } from '../inject/edits.js';
import type { InjectedError } from '../inject/gold.js';
import { executeSteps, openStepSession, type ExecutorRun, type StepSession } from './executor.js';
import { judgeErrors, type ErrorVerdict } from './judge.js';
import { planSteps, type PlannedStep } from './step-plan.js';
import { judgeTrajectory, runWeakLlm } from './weak-llm.js';
import { jsonCell } from '../../pipeline/store/json-cell.js';

/**
 * validate: is each injected error real? EnConda-Bench's rule: following the injected README
 * fails at (or because of) the error, and the original README passes that step. Validators
 * (`validate.validator`): `executor` runs the README's shell steps literally in the sandbox,
 * once per README version (original and injected), one container each; `weak-llm` lets a weak
 * model follow the injected README through a `run_shell` tool loop. One row per instance
 * (the inject key), with a verdict per error; accepted when at least one error is valid.
 */

const columns = {
  repository: 'VARCHAR',
  revision: 'VARCHAR',
  doc_path: 'VARCHAR',
  instance: 'VARCHAR',
  repo_name: 'VARCHAR',
  validator: 'VARCHAR',
  image: 'VARCHAR',
  /** The original README, rebuilt from the injected one by reverting the recorded edits (checked against inject's hash). */
  original_text: 'VARCHAR',
  injected_text: 'VARCHAR',
  /** inject's errors (gold fields + edit), unchanged. */
  errors: 'JSON',
  gold: 'JSON',
  /** Per error: index, error_type, valid, reason, reason_text, failing_step, output_excerpt, original_step. */
  verdicts: 'JSON',
  error_count: 'INTEGER',
  valid_errors: 'INTEGER',
  valid_types: 'VARCHAR[]',
  invalid_reasons: 'VARCHAR[]',
  /** Per step of each run: n, line, text, kind (run/provided/never), exit_code, duration_ms, output (capped). */
  original_run: 'JSON',
  injected_run: 'JSON',
  /** weak-llm: every command of the model with exit code and output; the model's last message. */
  trajectory: 'JSON',
  final_message: 'VARCHAR',
  run_ms: 'BIGINT',
  model: 'VARCHAR',
  llm_calls: 'INTEGER',
  tokens_in: 'BIGINT',
  tokens_out: 'BIGINT',
  cost_usd: 'DOUBLE',
} satisfies Columns;

export const validateStage: Stage<Item> = {
  name: 'validate',
  version: 1,
  description: 'run each injected README (and the original) in the sandbox; keep errors that make their step fail',
  input: 'inject',
  configSections: [
    'validate.validator',
    'validate.python_image',
    'validate.jvm_image',
    'validate.on_failure',
    'validate.step_timeout_seconds',
    'validate.run_timeout_seconds',
    'validate.output_cap_bytes',
    'validate.weak_llm.model',
    'validate.weak_llm.max_steps',
    'validate.weak_llm.max_tokens',
    'validate.weak_llm.temperature',
    'sandbox',
    'llm.models',
  ],
  columns,
  key: (row) => String(row.key ?? row.instance),
  async preflight(ctx) {
    const s = ctx.config.config.validate;
    if (s.validator === 'weak-llm') {
      if (!s.weak_llm.model) throw new ConfigError(`${ctx.config.file}: validate.weak_llm.model: required when validate.validator = "weak-llm"`);
      checkModels(ctx.config, [s.weak_llm.model], 'validate');
    }
    await sandboxFor(ctx, 'validate').check();
  },
  async run(row, ctx) {
    return validateInstance(row, ctx);
  },
};

export async function validateInstance(row: Item, ctx: StageContext) {
  const s = ctx.config.config.validate;
  const repository = String(row.repository);
  const instance = String(row.instance ?? row.key);
  const injected = String(row.injected_text ?? '');
  const errors = jsonCell(row.errors) as InjectedError[];
  const base: Cells = {
    repository,
    revision: (row.revision as string | null) ?? null,
    doc_path: (row.doc_path as string | null) ?? null,
    instance,
    repo_name: (row.repo_name as string | null) ?? repository.replace('/', '_'),
    validator: s.validator,
    injected_text: injected,
    errors: errors as unknown as Record<string, unknown>,
    gold: jsonCell(row.gold) as Record<string, unknown>,
    error_count: errors.length,
  };
  const original = revertEdits(injected, errors.map((e) => e.edit));
  if (!original.ok) return fail('original_not_rebuilt', `the recorded edits do not revert: ${original.problem}`, base);
  if (row.original_sha256 && sha256(original.text) !== row.original_sha256) {
    return fail('original_not_rebuilt', 'reverting the recorded edits does not give the original README (hash differs)', base);
  }
  base.original_text = original.text;

  const [owner = '', repo = ''] = repository.split('/');
  const checkout = findCheckout(ctx.cacheDir, owner, repo, String(row.revision ?? ''));
  if (!checkout) return fail('checkout_missing', `no checkout of ${repository}@${String(row.revision)} in the clone cache: rerun clone`, base);
  const jvm = ['pom.xml', 'build.gradle', 'build.gradle.kts', 'gradlew'].some((f) => existsSync(join(checkout, f)));
  const sandbox = sandboxFor(ctx, 'validate');
  const docPath = String(row.doc_path ?? 'README.md');
  let image;
  try {
    image = await sandbox.image(jvm ? s.jvm_image : s.python_image);
  } catch (err) {
    return fail('infra_error', `sandbox image: ${(err as Error).message}`, base);
  }
  base.image = image.tag;
  const exec = (plan: PlannedStep[], key: string) =>
    executeSteps(sandbox, plan, {
      key,
      image: image.tag,
      checkout,
      repo,
      stepTimeoutSeconds: s.step_timeout_seconds,
      runTimeoutSeconds: s.run_timeout_seconds,
      onFailure: s.on_failure,
      outputCapBytes: s.output_cap_bytes,
    }).catch((err: unknown): ExecutorRun => {
      if (err instanceof SandboxError) return { steps: plan.map((p) => ({ ...p, exit_code: null, duration_ms: null, timed_out: false, output: '', output_bytes: 0 })), run_ms: null, infra: `${err.phase}: ${err.message}` };
      throw err;
    });

  const origRun = await exec(planSteps(docPath, original.text, repository), `${instance}/original`);
  let verdicts: ErrorVerdict[];
  const judged = errors.map((e) => ({ error_type: e.error_type, edit: e.edit }));
  if (s.validator === 'executor') {
    const injRun = await exec(planSteps(docPath, injected, repository), `${instance}/injected`);
    verdicts = judgeErrors(judged, origRun, injRun);
    Object.assign(base, { injected_run: injRun.steps as unknown as Record<string, unknown>, run_ms: (origRun.run_ms ?? 0) + (injRun.run_ms ?? 0) });
  } else {
    let r;
    let session: StepSession | undefined;
    try {
      session = await openStepSession(sandbox, {
        key: `${instance}/weak-llm`,
        image: image.tag,
        checkout,
        repo,
        stepTimeoutSeconds: s.step_timeout_seconds,
        runTimeoutSeconds: s.run_timeout_seconds,
        outputCapBytes: s.output_cap_bytes,
      });
      const steps = session;
      r = await runWeakLlm(ctx, injected, docPath, {
        model: s.weak_llm.model,
        maxSteps: s.weak_llm.max_steps,
        maxTokens: s.weak_llm.max_tokens,
        maxUsd: s.weak_llm.max_usd,
        temperature: s.weak_llm.temperature,
        key: instance,
        repository,
        execute: (step) => steps.run(step),
      });
    } catch (err) {
      if ((err instanceof LlmCallError || err instanceof SandboxError) && !ctx.signal.aborted) {
        return fail('infra_error', err.message, { ...base, original_run: origRun.steps as unknown as Record<string, unknown> });
      }
      throw err;
    } finally {
      await session?.close();
    }
    verdicts = judgeTrajectory(judged, r.trajectory, origRun);
    Object.assign(base, {
      trajectory: r.trajectory as unknown as Record<string, unknown>,
      final_message: r.final_message,
      model: s.weak_llm.model,
      llm_calls: r.calls,
      tokens_in: r.tokens_in,
      tokens_out: r.tokens_out,
      cost_usd: r.cost_usd,
      run_ms: origRun.run_ms,
    });
  }
  const valid = verdicts.filter((v) => v.valid);
  const cells: Cells = {
    ...base,
    original_run: origRun.steps as unknown as Record<string, unknown>,
    verdicts: verdicts as unknown as Record<string, unknown>,
    valid_errors: valid.length,
    valid_types: valid.map((v) => v.error_type),
    invalid_reasons: verdicts.filter((v) => !v.valid).map((v) => v.reason),
  };
  const summary = verdicts.map((v) => `E${v.index} ${v.error_type}: ${v.reason} (${v.reason_text})`).join('; ');
  if (valid.length > 0) return accept(cells);
  if (verdicts.length > 0 && verdicts.every((v) => v.reason === 'infra_error')) return fail('infra_error', summary, cells);
  return reject(verdicts[0]?.reason ?? 'no_errors', summary || 'the instance has no errors', cells);
}

/** The original README: the injected text with every edit reverted (by its recorded injected line range). */
export function revertEdits(injected: string, edits: readonly Edit[]) {
  const inverse: Edit[] = edits.map((e) => ({
    line_start: e.injected_line_start,
    line_end: e.injected_line_end,
    injected_line_start: e.line_start,
    injected_line_end: e.line_end,
    original: e.injected,
    injected: e.original,
    original_text: e.injected_text,
    injected_text: e.original_text,
  }));
  return applyEdits(injected, inverse);
}

function findCheckout(cacheDir: string, owner: string, repo: string, revision: string): string | undefined {
  if (!revision) return undefined;
  for (const dir of [revision, `${revision}-full`]) {
    const p = join(clonesRoot(cacheDir), owner, repo, dir);
    if (existsSync(p)) return p;
  }
  return undefined;
}
