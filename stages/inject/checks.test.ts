import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInstance } from './checks.js';
import { applyEdits, changedLines } from './edits.js';
import { goldJson, instanceName, type InjectedError } from './gold.js';
import { llmEdits, validateAnswer, type LlmError } from './llm-injector.js';

const README = readFileSync(resolve('test/fixtures/readmes/pip.md'), 'utf8');
const BUDGET = { max_lines_per_edit: 2, max_chars_per_edit: 200 };

const llmError = (over: Partial<LlmError> = {}): LlmError => ({
  error_type: 'E1',
  error_description: 'requests is misspelled',
  original_text: 'pip install -r requirements.txt',
  injected_text: 'pip install -r requirement.txt',
  correction_candidates: ['pip install -r requirements.txt', 'pip install requirements.txt', 'pip install -r requirement.txt --upgrade', 'pip3 install -r requirement.txt'],
  golden_answer: 'pip install -r requirements.txt',
  ...over,
});

function build(errors: LlmError[]): { injected: string; errors: InjectedError[] } {
  const r = llmEdits(README, errors, 'strong');
  if (!r.ok) throw new Error(r.problem);
  return r;
}

const reasons = (injected: string, errors: InjectedError[]) => checkInstance(README, injected, errors, BUDGET).map((p) => p.reason);

describe('LLM answers become recorded edits', () => {
  it('locates each original_text, records the edit, and rebuilds the README', () => {
    const r = build([llmError(), llmError({ error_type: 'E8', original_text: 'WEATHERKIT_API_KEY=', injected_text: 'WEATHERKIT_APIKEY=', golden_answer: 'WEATHERKIT_API_KEY=', correction_candidates: ['WEATHERKIT_API_KEY=', 'WEATHER_API_KEY=', 'API_KEY=', 'WEATHERKIT_KEY='] })]);
    expect(r.errors.map((e) => [e.edit.line_start, e.edit.line_end, e.edit.original, e.edit.injected, e.origin])).toEqual([
      [27, 27, 'pip install -r requirements.txt', 'pip install -r requirement.txt', 'llm:strong'],
      [34, 34, 'export WEATHERKIT_API_KEY=your-key-here', 'export WEATHERKIT_APIKEY=your-key-here', 'llm:strong'],
    ]);
    expect(changedLines(README, r.injected)).toBe(4);
    expect(reasons(r.injected, r.errors)).toEqual([]);
  });

  it('an edit that adds a line shifts the injected line numbers of later edits', () => {
    const r = build([
      llmError({ original_text: 'cd weatherkit', injected_text: 'cd weatherkit\ncd src', golden_answer: 'cd weatherkit', correction_candidates: ['cd weatherkit', 'cd src', 'cd ..', 'cd weatherkit/src'] }),
      llmError(),
    ]);
    expect(r.errors.map((e) => [e.edit.line_start, e.edit.injected_line_start, e.edit.injected_line_end])).toEqual([
      [18, 18, 19],
      [27, 28, 28],
    ]);
    expect(reasons(r.injected, r.errors)).toEqual([]);
  });

  it('an original_text that is missing or ambiguous does not apply', () => {
    expect(llmEdits(README, [llmError({ original_text: 'pip install numpy' })], 'm')).toMatchObject({ ok: false, problem: expect.stringMatching(/is not in the README/) });
    expect(llmEdits(README, [llmError({ original_text: 'pip install' })], 'm')).toMatchObject({ ok: false, problem: expect.stringMatching(/occurs more than once/) });
    expect(llmEdits(README, [llmError(), llmError({ original_text: 'requirements.txt', injected_text: 'reqs.txt' })], 'm')).toMatchObject({ ok: false, problem: expect.stringMatching(/overlapping/) });
  });

  it('the shape validator asks for the fields and the number of errors', () => {
    const v = validateAnswer(2);
    expect(v({ errors: [llmError(), llmError()] })).toMatchObject({ value: expect.any(Array) });
    expect(v({ errors: [llmError()] })).toEqual({ problem: 'expected 2 errors, got 1' });
    expect(v({ error: [] })).toEqual({ problem: 'the object has no "errors" array' });
    expect(v({ errors: [llmError(), { ...llmError(), golden_answer: 3 }] })).toEqual({ problem: 'errors[1].golden_answer is missing or not a string' });
    expect(v({ errors: [llmError(), { ...llmError(), correction_candidates: 'a' }] })).toEqual({ problem: 'errors[1].correction_candidates is not an array of strings' });
  });
});

describe('checks: each a rejection reason', () => {
  it('invalid_error_type', () => {
    const r = build([llmError({ error_type: 'E3' })]);
    expect(reasons(r.injected, r.errors)).toEqual(['invalid_error_type']);
  });

  it('bad_candidates and golden_not_in_candidates', () => {
    const three = build([llmError({ correction_candidates: ['pip install -r requirements.txt', 'a', 'b'] })]);
    expect(reasons(three.injected, three.errors)).toEqual(['bad_candidates']);
    const dup = build([llmError({ correction_candidates: ['pip install -r requirements.txt', 'a', 'a', 'b'] })]);
    expect(reasons(dup.injected, dup.errors)).toEqual(['bad_candidates']);
    const missing = build([llmError({ golden_answer: 'pip install -r requirements.txt ', correction_candidates: ['a', 'b', 'c', 'd'] })]);
    expect(reasons(missing.injected, missing.errors)).toEqual(['golden_not_in_candidates']);
  });

  it('edit_not_applicable: an edit whose original text is not the README, or a README that is not the edits applied', () => {
    const r = build([llmError()]);
    const wrongOriginal = [{ ...r.errors[0]!, edit: { ...r.errors[0]!.edit, original: 'pip install -r other.txt' } }];
    expect(reasons(r.injected, wrongOriginal)).toContain('edit_not_applicable');
    expect(reasons(r.injected + 'an unrecorded change\n', r.errors)).toContain('edit_not_applicable');
    expect(applyEdits(README, [{ ...r.errors[0]!.edit, line_end: 999 }])).toMatchObject({ ok: false, problem: expect.stringMatching(/outside the README/) });
  });

  it('edit_budget_exceeded: too many lines or characters in one edit', () => {
    const lines = build([llmError({ original_text: 'pip install --upgrade pip\npip install -r requirements.txt\npip install -e .', injected_text: 'pip install --upgrade pip\npip install -r requirement.txt\npip install -e .', golden_answer: 'pip install --upgrade pip\npip install -r requirements.txt\npip install -e .', correction_candidates: ['pip install --upgrade pip\npip install -r requirements.txt\npip install -e .', 'a', 'b', 'c'] })]);
    expect(reasons(lines.injected, lines.errors)).toEqual(['edit_budget_exceeded']);
    const long = build([llmError({ original_text: 'Weatherkit fetches forecasts from public APIs and caches them locally.', injected_text: 'x'.repeat(250), golden_answer: 'Weatherkit fetches forecasts from public APIs and caches them locally.', correction_candidates: ['Weatherkit fetches forecasts from public APIs and caches them locally.', 'a', 'b', 'c'] })]);
    expect(reasons(long.injected, long.errors)).toEqual(['edit_budget_exceeded']);
  });

  it('golden_does_not_restore: the golden answer does not give back the original step', () => {
    const r = build([llmError({ golden_answer: 'pip install -r requirements-dev.txt', correction_candidates: ['pip install -r requirements-dev.txt', 'a', 'b', 'c'] })]);
    expect(reasons(r.injected, r.errors)).toEqual(['golden_does_not_restore']);
  });

  it('a golden answer given as the whole corrected command restores a fragment edit', () => {
    const r = build([llmError({ original_text: 'requirements.txt\n', injected_text: 'requirement.txt\n', golden_answer: 'pip install -r requirements.txt' })]);
    expect(reasons(r.injected, r.errors)).toEqual([]);
  });
});

describe('the gold JSON', () => {
  it('has the reference shape and names', () => {
    const r = build([llmError()]);
    const name = instanceName('acme/weatherkit', 3);
    expect(name).toBe('acme_weatherkit_error_readme_3');
    const gold = goldJson(name, 'acme/weatherkit', r.errors);
    expect(Object.keys(gold)).toEqual(['readme', 'repo_name', 'level', 'errors']);
    expect(gold).toMatchObject({ readme: name, repo_name: 'acme_weatherkit', level: 'level1' });
    expect(Object.keys(gold.errors[0]!)).toEqual(['error_type', 'error_description', 'correction_candidates', 'golden_answer']);
  });
});
