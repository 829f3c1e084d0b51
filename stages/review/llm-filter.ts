import type { ChatMessage } from '../../pipeline/llm/client.js';
import type { InjectedError } from '../inject/gold.js';
import type { ErrorVerdict } from '../validate/judge.js';

/**
 * The LLM filter of EnConda-Bench: a model checks each validated error against fixed criteria
 * and answers keep or reject with a rationale. The criteria are fixed (part of the prompt and
 * so of the cache key and prompt hash), not configurable.
 */

export const CRITERIA = {
  realistic: 'a mistake a real README could plausibly contain',
  single_cause: 'one error with one cause, not several problems at once',
  description_matches: 'error_description describes exactly what the edit changed',
  golden_fixes: 'applying golden_answer to the edited line restores a working step',
  not_trivially_detectable: 'not detectable from formatting alone (broken Markdown, odd spacing, obvious typos in prose)',
} as const;

export type Criterion = keyof typeof CRITERIA;

export interface FilterAnswer {
  verdict: 'keep' | 'reject';
  criteria: Record<Criterion, boolean>;
  rationale: string;
}

export const FILTER_PROMPT_VERSION = 1;

export function filterPrompt(e: InjectedError, v: ErrorVerdict | undefined, docPath: string): ChatMessage[] {
  const criteria = Object.entries(CRITERIA)
    .map(([k, d]) => `- ${k}: ${d}`)
    .join('\n');
  return [
    {
      role: 'system',
      content:
        'You review injected setup errors for a benchmark of README errors. Judge the error against every criterion; ' +
        'keep it only if all hold. Answer with one JSON object: {"verdict": "keep" | "reject", "criteria": {<criterion>: true|false, ...}, "rationale": "<one or two sentences>"}.',
    },
    {
      role: 'user',
      content:
        `Criteria:\n${criteria}\n\nREADME: ${docPath}\nError type: ${e.error_type}\nDescription: ${e.error_description}\n` +
        `Lines ${e.edit.line_start}-${e.edit.line_end} originally:\n${e.edit.original}\nAfter the edit:\n${e.edit.injected}\n` +
        `Golden answer: ${e.golden_answer}\nCorrection candidates: ${JSON.stringify(e.correction_candidates)}\n` +
        (v ? `Validation: ${v.reason_text}\nOutput excerpt:\n${v.output_excerpt.slice(-600)}\n` : ''),
    },
  ];
}

export function validateFilterAnswer(value: unknown): { value: FilterAnswer } | { problem: string } {
  if (!value || typeof value !== 'object') return { problem: 'expected a JSON object' };
  const o = value as Record<string, unknown>;
  if (o.verdict !== 'keep' && o.verdict !== 'reject') return { problem: 'verdict must be "keep" or "reject"' };
  if (typeof o.rationale !== 'string' || o.rationale.trim() === '') return { problem: 'rationale must be a non-empty string' };
  const c = (o.criteria ?? {}) as Record<string, unknown>;
  const criteria = {} as Record<Criterion, boolean>;
  for (const k of Object.keys(CRITERIA) as Criterion[]) {
    if (typeof c[k] !== 'boolean') return { problem: `criteria.${k} must be true or false` };
    criteria[k] = c[k];
  }
  // A keep with a failed criterion contradicts itself: the criteria win.
  const verdict = o.verdict === 'keep' && Object.values(criteria).every(Boolean) ? 'keep' : 'reject';
  return { value: { verdict, criteria, rationale: o.rationale.trim() } };
}
