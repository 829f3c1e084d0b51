import { sha256 } from '../../../pipeline/config/fingerprint.js';
import type { ErrorType } from '../../../pipeline/config/schema.js';
import type { ShellStep } from '../../readme/doc-model.js';
import { LineDoc, applyEdits, type Edit } from '../edits.js';
import type { InjectedError } from '../gold.js';
import { OPERATORS, dependency, swapSteps, type Mutation, type StepView } from './operators.js';
import { rngFor, type Rng } from './rng.js';

/**
 * The deterministic mutation injector: for one README instance, a seeded order of error types,
 * and for each type a seeded choice of step and operator, never two edits on the same line. The
 * same README, seed and instance number always give the same injected README and gold JSON.
 */

export interface MutationInput {
  repository: string;
  /** The document to inject into and its text. */
  doc_path: string;
  doc_text: string;
  /** The readme stage's steps (of every document; only doc_path's are used). */
  steps: readonly ShellStep[];
}

export interface MutationOptions {
  seed: number;
  /** 0-based instance number: each instance draws its own types, steps and operators. */
  instance: number;
  errors: number;
  types: readonly ErrorType[];
}

export interface MutationResult {
  errors: InjectedError[];
  injected: string;
}

export function mutateReadme(input: MutationInput, o: MutationOptions): MutationResult | undefined {
  const doc = new LineDoc(input.doc_text);
  const rng = rngFor('mutation', o.seed, input.repository, sha256(input.doc_text), o.instance);
  const views = stepViews(input, doc);
  const used = new Set<number>();
  const free = (v: StepView) => !used.has(v.line);
  const picked: Mutation[] = [];
  for (const type of rng.shuffle(o.types)) {
    if (picked.length >= o.errors) break;
    const m = type === 'E6' ? pickSwap(views.filter(free), doc, rng) : pickMutation(type, views.filter(free), rng);
    if (!m) continue;
    picked.push(m);
    for (const s of m.steps) used.add(s.line);
  }
  if (picked.length === 0) return undefined;
  picked.sort((a, b) => a.steps[0]!.line - b.steps[0]!.line);
  const errors = picked.map((m) => toError(m, doc, rng));
  const applied = applyEdits(input.doc_text, errors.map((e) => e.edit));
  if (!applied.ok) throw new Error(`mutation injector produced overlapping edits: ${applied.problem}`);
  return { errors, injected: applied.text };
}

/** Steps of the document with their first line located exactly (steps that cannot be located are skipped). */
function stepViews(input: MutationInput, doc: LineDoc): StepView[] {
  return input.steps
    .filter((s) => s.doc === input.doc_path)
    .flatMap((s) => {
      const command = s.text.split('\n')[0]!.trimEnd();
      const line = doc.lines[s.line - 1];
      if (!line || line.slice(s.column, s.column + command.length) !== command || command === '') return [];
      return [{ index: s.index, line: s.line, column: s.column, command, program: s.program, category: s.category, block: s.block }];
    });
}

function pickMutation(type: Exclude<ErrorType, 'E6'>, views: StepView[], rng: Rng): Mutation | undefined {
  for (const step of rng.shuffle(views)) {
    for (const op of rng.shuffle(OPERATORS[type])) {
      const m = op(step, rng);
      if (m) return m;
    }
  }
  return undefined;
}

/** Two adjacent single-line steps of one block, with the same indentation or prompt, that depend on each other. */
function pickSwap(views: StepView[], doc: LineDoc, rng: Rng): Mutation | undefined {
  const pairs: { a: StepView; b: StepView; score: number }[] = [];
  const sorted = [...views].sort((x, y) => x.line - y.line);
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i]!;
    const b = sorted[i + 1]!;
    if (a.block === -1 || a.block !== b.block || b.line !== a.line + 1 || a.command === b.command) continue;
    const la = doc.lines[a.line - 1]!;
    const lb = doc.lines[b.line - 1]!;
    if (la.slice(0, a.column) !== lb.slice(0, b.column) || la.length !== a.column + a.command.length || lb.length !== b.column + b.command.length) continue;
    const score = dependency(a, b);
    if (score > 0) pairs.push({ a, b, score });
  }
  if (pairs.length === 0) return undefined;
  const best = Math.max(...pairs.map((p) => p.score));
  const p = rng.pick(pairs.filter((x) => x.score === best));
  return swapSteps(p.a, p.b);
}

function toError(m: Mutation, doc: LineDoc, rng: Rng): InjectedError {
  let edit: Edit;
  if (m.type === 'E6') {
    const [a, b] = m.steps as [StepView, StepView];
    const la = doc.lines[a.line - 1]!;
    const lb = doc.lines[b.line - 1]!;
    edit = {
      line_start: a.line,
      line_end: b.line,
      injected_line_start: a.line,
      injected_line_end: b.line,
      original: `${la}\n${lb}`,
      injected: `${lb}\n${la}`,
      original_text: m.original,
      injected_text: m.injected,
    };
  } else {
    const s = m.steps[0]!;
    const line = doc.lines[s.line - 1]!;
    edit = {
      line_start: s.line,
      line_end: s.line,
      injected_line_start: s.line,
      injected_line_end: s.line,
      original: line,
      injected: line.slice(0, s.column) + m.injected + line.slice(s.column + m.original.length),
      original_text: m.original,
      injected_text: m.injected,
    };
  }
  const golden = m.original;
  const wrong = [...new Set([...m.wrongFixes, ...faultKeepingVariants(m.injected)])].filter((c) => c.trim() !== '' && c !== golden && c !== m.injected);
  return {
    error_type: m.type,
    error_description: m.description,
    correction_candidates: rng.shuffle([golden, ...wrong.slice(0, 3)]),
    golden_answer: golden,
    edit,
    origin: `mutation:${m.operator}`,
    step_index: m.steps[0]!.index,
  };
}

/** Plausible "fixes" that keep the injected fault: another alias of the tool, an unrelated flag. */
function faultKeepingVariants(injected: string): string[] {
  const out: string[] = [];
  const swaps: [RegExp, string][] = [
    [/^pip /, 'pip3 '], [/^pip3 /, 'pip '], [/^python /, 'python3 '], [/^python3 /, 'python '], [/^\.\/gradlew /, 'gradle '],
    [/^gradle /, './gradlew '], [/^mvn /, './mvnw '], [/^conda /, 'mamba '], [/^source /, '. '], [/^\. /, 'source '], [/^export /, ''],
  ];
  for (const [re, by] of swaps) if (re.test(injected)) out.push(injected.replace(re, by));
  if (!injected.includes('\n')) out.push(`${injected} --verbose`, `sudo ${injected}`, `${injected} --force`);
  return out;
}
