import { LlmCallError, LlmClient } from '../../pipeline/llm/client.js';
import { modelEndpoint } from '../../pipeline/llm/models.js';
import type { StageContext } from '../../pipeline/stage.js';
import type { Edit } from '../inject/edits.js';
import type { StepResult } from './executor.js';
import type { ErrorVerdict, JudgedError } from './judge.js';
import { classifyStep, type PlannedStep } from './step-plan.js';

/**
 * The `weak-llm` validator: a deliberately weak model follows the injected README in the
 * sandbox through a tool-call loop with one tool, `run_shell`. It is told to follow the README
 * literally and not to repair anything. The trajectory (every command, exit code, output) is
 * stored; the validity rule is the executor's, with "the error's step" being a command of the
 * trajectory that runs the edited text.
 *
 * Calls go through pipeline/llm's client: the response cache (keyed by the full request, so a
 * rerun replays the same trajectory without calls), the ledger (every call, cache hits at zero
 * cost), the stage budget, and retries on 429/5xx.
 *
 * Commands run in one long-lived container per trajectory (a sandbox session), each as its own
 * exec through agent-shell.sh, so the working directory, exported variables and files carry
 * over from one command to the next.
 */

export interface TrajectoryStep {
  n: number;
  command: string;
  exit_code: number | null;
  output: string;
  kind: PlannedStep['kind'];
}

export interface WeakLlmResult {
  trajectory: TrajectoryStep[];
  final_message: string;
  stop: 'answered' | 'max_steps' | 'max_tokens';
  calls: number;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number;
}

export interface WeakLlmOptions {
  model: string;
  maxSteps: number;
  maxTokens: number;
  maxUsd: number;
  temperature: number;
  key: string;
  /** Runs one command in the trajectory's container (state carries over between commands). */
  execute: (step: PlannedStep) => Promise<{ result: StepResult | null; infra: string | null }>;
  repository: string;
}

export const RUN_SHELL_TOOL = {
  type: 'function',
  function: {
    name: 'run_shell',
    description: 'Run one shell command in the repository container and return its exit code and output.',
    parameters: { type: 'object', properties: { command: { type: 'string', description: 'the command line' } }, required: ['command'] },
  },
} as const;

export function weakLlmPrompt(readme: string, docPath: string): { role: 'system' | 'user'; content: string }[] {
  return [
    {
      role: 'system',
      content:
        'You set up a software repository by following its README literally. Run each setup command exactly as written, in order, ' +
        'with the run_shell tool (the repository is checked out in the current directory). Do not fix, reorder or skip commands; ' +
        'if a command fails, report the failure and stop. When done, answer with a short summary.',
    },
    { role: 'user', content: `The README (${docPath}):\n\n${readme}` },
  ];
}

type Msg = Record<string, unknown>;

export async function runWeakLlm(ctx: StageContext, readme: string, docPath: string, o: WeakLlmOptions): Promise<WeakLlmResult> {
  modelEndpoint(ctx.config, o.model); // a ConfigError names an undefined model before any work
  const client = LlmClient.forStage(ctx, 'validate', o.maxUsd);
  const messages: Msg[] = weakLlmPrompt(readme, docPath);
  const trajectory: TrajectoryStep[] = [];
  const plan: PlannedStep[] = [];
  const result: WeakLlmResult = { trajectory, final_message: '', stop: 'max_steps', calls: 0, tokens_in: 0, tokens_out: 0, cost_usd: 0 };

  while (trajectory.length < o.maxSteps) {
    if (result.tokens_in + result.tokens_out >= o.maxTokens) {
      result.stop = 'max_tokens';
      break;
    }
    const answer = await client.complete({ model: o.model, messages, tools: [RUN_SHELL_TOOL], tool_choice: 'auto', temperature: o.temperature }, { key: o.key });
    result.calls++;
    result.tokens_in += answer.tokens_in;
    result.tokens_out += answer.tokens_out;
    result.cost_usd += answer.cost_usd;
    const message = answer.message;
    const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function' && c.function.name === 'run_shell');
    messages.push({ role: 'assistant', content: message.content ?? null, ...(message.tool_calls?.length ? { tool_calls: message.tool_calls } : {}) });
    if (calls.length === 0) {
      result.final_message = message.content ?? '';
      result.stop = 'answered';
      break;
    }
    for (const c of calls) {
      let command = '';
      try {
        command = String((JSON.parse(c.function.arguments) as { command?: unknown }).command ?? '');
      } catch {
        command = '';
      }
      let content: string;
      if (!command.trim() || trajectory.length >= o.maxSteps) {
        content = command.trim() ? 'step limit reached' : 'error: run_shell needs {"command": "..."}';
      } else {
        const n = plan.length + 1;
        const step: PlannedStep = { n, line: 0, end_line: 0, text: command, ...classifyStep(command, o.repository) };
        plan.push(step);
        const run = await o.execute(step);
        const r = run.result;
        const exit = run.infra ? null : (r?.exit_code ?? null);
        const output = run.infra ? `sandbox failure: ${run.infra}` : step.kind === 'never' ? `not run: ${step.why}` : (r?.output ?? '');
        trajectory.push({ n, command, exit_code: exit, output, kind: step.kind });
        content = `exit code: ${exit ?? 'none'}\n${output}`;
        if (run.infra) throw new LlmCallError(`sandbox failure during the trajectory: ${run.infra}`, undefined);
      }
      messages.push({ role: 'tool', tool_call_id: c.id, content });
    }
  }
  return result;
}

/** Whether a trajectory command runs the edited text of an error (one of its injected lines). */
export function runsEdit(command: string, edit: Edit): boolean {
  const c = command.trim();
  if (!c) return false;
  return edit.injected
    .split('\n')
    .map((l) => l.trim().replace(/^(\$|>|%|#)\s+/, ''))
    .filter((l) => l.length > 0)
    .some((l) => c === l || c.includes(l) || (c.length >= 4 && l.includes(c)));
}

/** The validity rule on a trajectory: the error's command failed and the original passes that step. */
export function judgeTrajectory(errors: readonly JudgedError[], trajectory: readonly TrajectoryStep[], original: { steps: StepResult[]; infra: string | null }): ErrorVerdict[] {
  return errors.map((e, i): ErrorVerdict => {
    const base = { index: i + 1, error_type: e.error_type, failing_step: null, output_excerpt: '', original_step: null };
    if (original.infra) return { ...base, valid: false, reason: 'infra_error', reason_text: original.infra };
    const mine = trajectory.filter((t) => runsEdit(t.command, e.edit));
    const origStep = original.steps.find((s) => s.line <= e.edit.line_end && e.edit.line_start <= s.end_line);
    const origRef = origStep ? { n: origStep.n, line: origStep.line, text: origStep.text, exit_code: origStep.exit_code } : null;
    const failedHere = mine.find((t) => t.exit_code !== null && t.exit_code !== 0);
    if (failedHere) {
      const ev = { failing_step: { n: failedHere.n, line: 0, text: failedHere.command, exit_code: failedHere.exit_code }, output_excerpt: failedHere.output.slice(-1200), original_step: origRef };
      if (origStep && origStep.exit_code !== null && origStep.exit_code !== 0) {
        return { ...base, ...ev, valid: false, reason: 'original_also_fails', reason_text: `the original README fails the same step (line ${origStep.line})` };
      }
      return { ...base, ...ev, valid: true, reason: 'valid', reason_text: `the weak model ran the edited command (step ${failedHere.n}) and it failed (exit ${failedHere.exit_code})` };
    }
    if (mine.length > 0) return { ...base, valid: false, reason: 'did_not_fail', reason_text: `the weak model ran the edited command (step ${mine[0]!.n}) and it passed` };
    const other = trajectory.find((t) => t.exit_code !== null && t.exit_code !== 0);
    if (other) return { ...base, valid: false, reason: 'failed_elsewhere', reason_text: `the trajectory failed at step ${other.n} (${other.command}), which is not this error's` };
    return { ...base, valid: false, reason: 'did_not_fail', reason_text: 'the weak model never ran the edited command and nothing failed' };
  });
}
