import { applyEdits, changedChars, changedLines, restoresOriginal } from './edits.js';
import { isErrorType, type InjectedError } from './gold.js';

/**
 * The checks every injected README passes before it is accepted, each a rejection reason:
 *   invalid_error_type        an error type outside E1 E2 E4 E6 E7 E8
 *   bad_candidates            not exactly 4 distinct, non-empty correction candidates
 *   golden_not_in_candidates  the golden answer is not one of them
 *   edit_not_applicable       an edit does not apply cleanly to the original (or the README differs from the edits applied)
 *   edit_budget_exceeded      an edit touches more lines or characters than the minimal-edit budget, or the diff does
 *   golden_does_not_restore   applying the golden answer to the injected README does not restore the original step
 */
export interface EditBudget {
  max_lines_per_edit: number;
  max_chars_per_edit: number;
}

export interface CheckFailure {
  reason: string;
  text: string;
}

export function checkInstance(original: string, injected: string, errors: readonly InjectedError[], budget: EditBudget): CheckFailure[] {
  const problems: CheckFailure[] = [];
  const add = (reason: string, text: string) => problems.push({ reason, text });
  if (errors.length === 0) add('no_errors', 'the instance has no errors');
  errors.forEach((e, i) => {
    const n = `error ${i + 1}`;
    if (!isErrorType(e.error_type)) add('invalid_error_type', `${n}: "${e.error_type}" is not one of E1 E2 E4 E6 E7 E8`);
    const c = e.correction_candidates;
    if (c.length !== 4 || new Set(c).size !== 4 || c.some((x) => x.trim() === '')) {
      add('bad_candidates', `${n}: expected 4 distinct non-empty correction candidates, got ${c.length}${new Set(c).size !== c.length ? ' with duplicates' : ''}`);
    }
    if (!c.includes(e.golden_answer)) add('golden_not_in_candidates', `${n}: the golden answer ${JSON.stringify(e.golden_answer.slice(0, 80))} is not among the candidates`);
  });
  const applied = applyEdits(original, errors.map((e) => e.edit));
  if (!applied.ok) add('edit_not_applicable', applied.problem);
  else if (applied.text !== injected) add('edit_not_applicable', 'the injected README is not the original with the recorded edits applied');
  errors.forEach((e, i) => {
    const lines = Math.max(e.edit.line_end - e.edit.line_start + 1, e.edit.injected_line_end - e.edit.injected_line_start + 1);
    const chars = changedChars(e.edit.original, e.edit.injected);
    if (lines > budget.max_lines_per_edit) add('edit_budget_exceeded', `error ${i + 1}: the edit spans ${lines} lines (max_lines_per_edit ${budget.max_lines_per_edit})`);
    if (chars > budget.max_chars_per_edit) add('edit_budget_exceeded', `error ${i + 1}: the edit changes ${chars} characters (max_chars_per_edit ${budget.max_chars_per_edit})`);
  });
  const diff = changedLines(original, injected);
  const allowed = 2 * budget.max_lines_per_edit * Math.max(errors.length, 1);
  if (diff > allowed) add('edit_budget_exceeded', `the README diff changes ${diff} lines (at most ${allowed} for ${errors.length} errors)`);
  errors.forEach((e, i) => {
    if (!restoresOriginal(e.edit, e.golden_answer)) {
      add('golden_does_not_restore', `error ${i + 1}: applying the golden answer to lines ${e.edit.injected_line_start}-${e.edit.injected_line_end} does not give back the original`);
    }
  });
  return problems;
}
