import type { Edit } from '../inject/edits.js';
import type { StepResult } from './executor.js';

/**
 * The validity rule (EnConda-Bench): an injected error is valid iff following the injected
 * README fails at (or because of) the error's step AND the original README passes that step.
 *
 * Per error, from the two runs (original and injected README, same container image, same
 * checkout):
 * - the error's steps are the executed steps whose lines overlap its edit (injected line range
 *   in the injected run, original range in the original run);
 * - `valid`: one of them failed, or they passed and the first *divergent* failure after them
 *   (a step that fails in the injected run while its unedited counterpart passed in the
 *   original) comes before the next error's steps — the error broke a later step (a wrong `cd`,
 *   a swapped activation);
 * - `original_also_fails`: the original run failed that same step;
 * - `did_not_fail`: the edit is in no executed step (prose, a non-shell block), or its step and
 *   everything it could have broken passed;
 * - `failed_elsewhere`: the injected run failed, but not at or because of this error;
 * - `not_executable`: its steps can never run in a sandbox (interactive, sudo, services);
 * - `infra_error`: a run did not complete (engine, image, timeout of the whole run).
 */

export type ErrorReason = 'valid' | 'did_not_fail' | 'failed_elsewhere' | 'original_also_fails' | 'not_executable' | 'infra_error';

export interface StepRef {
  n: number;
  line: number;
  text: string;
  exit_code: number | null;
}

export interface ErrorVerdict {
  /** 1-based index of the error in the instance. */
  index: number;
  error_type: string;
  valid: boolean;
  reason: ErrorReason;
  reason_text: string;
  /** The injected step that failed (or that the error broke), and its output. */
  failing_step: StepRef | null;
  output_excerpt: string;
  /** The original README's counterpart step. */
  original_step: StepRef | null;
}

export interface JudgedError {
  error_type: string;
  edit: Edit;
}

const EXCERPT = 1200;

export function judgeErrors(
  errors: readonly JudgedError[],
  original: { steps: StepResult[]; infra: string | null },
  injected: { steps: StepResult[]; infra: string | null },
): ErrorVerdict[] {
  const injRanges = errors.map((e) => [e.edit.injected_line_start, e.edit.injected_line_end] as const);
  const origRanges = errors.map((e) => [e.edit.line_start, e.edit.line_end] as const);
  const editedInj = (s: StepResult) => injRanges.some(([a, b]) => overlaps(s, a, b));
  const editedOrig = (s: StepResult) => origRanges.some(([a, b]) => overlaps(s, a, b));
  // Unedited steps correspond one to one, in order, between the two READMEs.
  const origUnedited = original.steps.filter((s) => !editedOrig(s));
  const counterpart = new Map<number, StepResult>();
  injected.steps.filter((s) => !editedInj(s)).forEach((s, i) => {
    const o = origUnedited[i];
    if (o && o.text === s.text) counterpart.set(s.n, o);
  });
  const failed = (s: StepResult | undefined) => s !== undefined && s.exit_code !== null && s.exit_code !== 0;
  const passed = (s: StepResult | undefined) => s !== undefined && s.exit_code === 0;
  const divergent = (s: StepResult) => failed(s) && !editedInj(s) && passed(counterpart.get(s.n));

  return errors.map((e, i): ErrorVerdict => {
    const base = { index: i + 1, error_type: e.error_type };
    const out = (reason: ErrorReason, text: string, failing: StepResult | null = null, orig: StepResult | null = null): ErrorVerdict => ({
      ...base,
      valid: reason === 'valid',
      reason,
      reason_text: text,
      failing_step: failing ? ref(failing) : null,
      output_excerpt: failing ? excerpt(failing.output) : '',
      original_step: orig ? ref(orig) : null,
    });
    const infra = injected.infra ?? original.infra;
    if (infra) return out('infra_error', infra);

    const [ia, ib] = injRanges[i]!;
    const [oa, ob] = origRanges[i]!;
    const mine = injected.steps.filter((s) => overlaps(s, ia, ib));
    const origMine = original.steps.filter((s) => overlaps(s, oa, ob));
    if (mine.length === 0) return out('did_not_fail', `lines ${ia}-${ib} are in no executed step (prose or a non-shell block)`);
    if (mine.every((s) => s.kind === 'never')) return out('not_executable', `its step cannot run in a sandbox: ${mine[0]!.why ?? ''}`);
    const origFailed = origMine.find(failed);
    const atStep = mine.find(failed);
    if (atStep) {
      if (origFailed) return out('original_also_fails', `the original README fails the same step (line ${origFailed.line}, exit ${origFailed.exit_code})`, atStep, origFailed);
      return out('valid', `the injected step at line ${atStep.line} fails (exit ${atStep.exit_code}) and the original passes it`, atStep, origMine.find(passed) ?? null);
    }
    const ran = mine.filter((s) => s.exit_code !== null);
    if (ran.length === 0) {
      const earlier = injected.steps.find((s) => s.n < mine[0]!.n && failed(s));
      return earlier
        ? out('failed_elsewhere', `the run stopped at line ${earlier.line} before reaching this error`, earlier)
        : out('not_executable', `its step was not run: ${mine.map((s) => s.why ?? s.kind).join('; ')}`);
    }
    // The error's steps passed: did they break a later step, before the next error's steps?
    const last = Math.max(...mine.map((s) => s.n));
    const nextError = Math.min(...injected.steps.filter((s) => s.n > last && editedInj(s) && !overlaps(s, ia, ib)).map((s) => s.n), Infinity);
    const broke = injected.steps.find((s) => s.n > last && s.n < nextError && divergent(s));
    if (broke) {
      if (origFailed) return out('original_also_fails', `the original README fails the same step (line ${origFailed.line}, exit ${origFailed.exit_code})`, broke, origFailed);
      return out('valid', `line ${broke.line} fails (exit ${broke.exit_code}) because of the edit at line ${ia}; it passes in the original`, broke, counterpart.get(broke.n) ?? null);
    }
    const elsewhere = injected.steps.find((s) => divergent(s) || (failed(s) && editedInj(s) && !overlaps(s, ia, ib)));
    if (elsewhere) return out('failed_elsewhere', `the injected README fails at line ${elsewhere.line}, not at or because of this error`, elsewhere);
    return out('did_not_fail', `the step at line ${mine[0]!.line} and every later step passed`, null, null);
  });
}

function overlaps(s: { line: number; end_line: number }, a: number, b: number): boolean {
  return s.line <= b && a <= s.end_line;
}

function ref(s: StepResult): StepRef {
  return { n: s.n, line: s.line, text: s.text, exit_code: s.exit_code };
}

function excerpt(output: string): string {
  return output.length > EXCERPT ? '…' + output.slice(-EXCERPT) : output;
}
