import type { ChatMessage } from '../../pipeline/llm/client.js';
import { LineDoc, applyEdits, type Edit } from './edits.js';
import { ERROR_TYPE_NAMES, type InjectedError } from './gold.js';

/**
 * The LLM injector: a strong model reads a correct README and proposes N errors as minimal
 * edits — the exact text it changes and its replacement — with the reference's gold fields. The
 * README itself is rebuilt here from those edits, so every edit is recorded and checked.
 */

export interface LlmError {
  error_type: string;
  error_description: string;
  original_text: string;
  injected_text: string;
  correction_candidates: string[];
  golden_answer: string;
}

export const PROMPT_VERSION = 1;

export function injectionPrompt(readme: string, docPath: string, errors: number): ChatMessage[] {
  const types = Object.entries(ERROR_TYPE_NAMES)
    .map(([t, name]) => `- ${t} ${name}`)
    .join('\n');
  return [
    {
      role: 'system',
      content:
        'You build a benchmark of environment-setup errors. You receive a correct README and inject realistic setup errors ' +
        'into its installation and setup instructions with minimal edits, and you answer with one JSON object only.',
    },
    {
      role: 'user',
      content:
        `Inject exactly ${errors} error${errors === 1 ? '' : 's'} into the setup instructions of the README below (${docPath}).\n\n` +
        `Error types (use these codes only):\n${types}\n\n` +
        'Rules:\n' +
        '- Each error is one minimal edit of a setup command or a short fragment of one (one or two lines at most); use different types when you can.\n' +
        '- "original_text" is copied exactly from the README and occurs exactly once in it; "injected_text" replaces it.\n' +
        '- "golden_answer" is the correct text that, put back in place of "injected_text", restores the original step.\n' +
        '- "correction_candidates" holds exactly 4 distinct plausible fixes, one of them the golden_answer.\n' +
        '- Do not mention the errors in the README, do not add comments.\n\n' +
        'Answer with this JSON object and nothing else:\n' +
        '{"errors": [{"error_type": "E1", "error_description": "...", "original_text": "...", "injected_text": "...", ' +
        '"correction_candidates": ["...", "...", "...", "..."], "golden_answer": "..."}]}\n\n' +
        `README:\n<<<README\n${readme}\nREADME>>>`,
    },
  ];
}

/** The shape check behind JSON re-asks: fields present with the right types, as many errors as asked. */
export function validateAnswer(errors: number) {
  return (value: unknown): { value: LlmError[] } | { problem: string } => {
    const list = (value as { errors?: unknown }).errors;
    if (!Array.isArray(list)) return { problem: 'the object has no "errors" array' };
    if (list.length !== errors) return { problem: `expected ${errors} errors, got ${list.length}` };
    for (const [i, e] of list.entries()) {
      if (!e || typeof e !== 'object') return { problem: `errors[${i}] is not an object` };
      const r = e as Record<string, unknown>;
      for (const f of ['error_type', 'error_description', 'original_text', 'injected_text', 'golden_answer']) {
        if (typeof r[f] !== 'string') return { problem: `errors[${i}].${f} is missing or not a string` };
      }
      if (!Array.isArray(r.correction_candidates) || !r.correction_candidates.every((c) => typeof c === 'string')) {
        return { problem: `errors[${i}].correction_candidates is not an array of strings` };
      }
    }
    return { value: list as LlmError[] };
  };
}

/**
 * The model's errors as edits of the README: each original_text must occur exactly once, and
 * edits must not overlap. A problem here is the `edit_not_applicable` rejection.
 */
export function llmEdits(original: string, answer: readonly LlmError[], model: string): { ok: true; errors: InjectedError[]; injected: string } | { ok: false; problem: string } {
  const doc = new LineDoc(original);
  const text = doc.lines.join('\n');
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const errors: InjectedError[] = [];
  for (const [i, e] of answer.entries()) {
    const needle = e.original_text.replace(/\r\n/g, '\n');
    if (needle === '') return { ok: false, problem: `error ${i + 1}: original_text is empty` };
    const at = text.indexOf(needle);
    if (at === -1) return { ok: false, problem: `error ${i + 1}: original_text ${JSON.stringify(needle.slice(0, 80))} is not in the README` };
    if (text.indexOf(needle, at + 1) !== -1) return { ok: false, problem: `error ${i + 1}: original_text ${JSON.stringify(needle.slice(0, 80))} occurs more than once in the README` };
    const start = lineOf(at);
    const end = lineOf(at + needle.length - 1);
    const region = doc.region(start, end);
    const offsetInRegion = at - lineStarts[start - 1]!;
    const injectedRegion = region.slice(0, offsetInRegion) + e.injected_text + region.slice(offsetInRegion + needle.length);
    const edit: Edit = {
      line_start: start,
      line_end: end,
      injected_line_start: start,
      injected_line_end: start + injectedRegion.split('\n').length - 1,
      original: region,
      injected: injectedRegion,
      original_text: needle,
      injected_text: e.injected_text,
    };
    errors.push({
      error_type: e.error_type,
      error_description: e.error_description,
      correction_candidates: e.correction_candidates,
      golden_answer: e.golden_answer,
      edit,
      origin: `llm:${model}`,
    });
  }
  errors.sort((a, b) => a.edit.line_start - b.edit.line_start);
  // Line numbers in the injected README shift when an earlier edit changes the line count.
  let shift = 0;
  for (const e of errors) {
    const span = e.edit.injected_line_end - e.edit.injected_line_start;
    e.edit.injected_line_start = e.edit.line_start + shift;
    e.edit.injected_line_end = e.edit.injected_line_start + span;
    shift += span - (e.edit.line_end - e.edit.line_start);
  }
  const applied = applyEdits(original, errors.map((e) => e.edit));
  if (!applied.ok) return { ok: false, problem: applied.problem };
  return { ok: true, errors, injected: applied.text };
}
