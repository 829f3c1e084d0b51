import { ConfigError } from '../../pipeline/errors.js';
import { LlmCallError, LlmClient } from '../../pipeline/llm/client.js';
import { checkModels } from '../../pipeline/llm/models.js';
import { decisionsFor, type DecisionRow } from '../../pipeline/store/review-decisions.js';
import { accept, fail, reject, type Cells, type Columns, type Item, type Stage } from '../../pipeline/stage.js';
import type { InjectedError } from '../inject/gold.js';
import type { ErrorVerdict } from '../validate/judge.js';
import { jsonCell } from '../../pipeline/store/json-cell.js';
import { filterPrompt, validateFilterAnswer, type FilterAnswer } from './llm-filter.js';

/**
 * review: the filter after validation. Every valid error goes through the LLM filter (fixed
 * criteria, llm-filter.ts) when `review.model` is set — else `llm_review: skipped` — and any
 * human decision imported with `envforge review import` wins over it. An error is kept when a
 * human accepted it, or, without a human decision, when the LLM kept it (or the filter is off).
 * One row per instance; accepted when it keeps at least one error. After an import,
 * `envforge review import` reruns this stage and tiers so the decisions take effect.
 */

const columns = {
  repository: 'VARCHAR',
  revision: 'VARCHAR',
  doc_path: 'VARCHAR',
  instance: 'VARCHAR',
  original_text: 'VARCHAR',
  injected_text: 'VARCHAR',
  gold: 'JSON',
  /** `done` or `skipped` (no review.model). */
  llm_review: 'VARCHAR',
  model: 'VARCHAR',
  /** Per error: error_id, index, error_type, valid, validate_reason, evidence, llm_verdict, llm_criteria, llm_rationale, human_decision, human_note, kept. */
  reviews: 'JSON',
  /** inject's errors (gold fields + edit) that were kept, in their order. */
  kept_errors: 'JSON',
  error_count: 'INTEGER',
  valid_errors: 'INTEGER',
  kept_count: 'INTEGER',
  human_decisions: 'INTEGER',
  llm_calls: 'INTEGER',
  tokens_in: 'BIGINT',
  tokens_out: 'BIGINT',
  cost_usd: 'DOUBLE',
} satisfies Columns;

export interface ErrorReview {
  error_id: string;
  index: number;
  error_type: string;
  valid: boolean;
  validate_reason: string;
  validate_text: string;
  failing_step: ErrorVerdict['failing_step'];
  output_excerpt: string;
  llm_verdict: 'keep' | 'reject' | 'skipped' | 'not_reviewed';
  llm_criteria: FilterAnswer['criteria'] | null;
  llm_rationale: string;
  human_decision: 'accept' | 'reject' | null;
  human_note: string;
  kept: boolean;
}

export const errorId = (instance: string, index: number) => `${instance}#${index}`;

export const reviewStage: Stage<Item> = {
  name: 'review',
  version: 1,
  description: 'LLM filter with fixed criteria (off without a model) and imported human decisions; keep what passes',
  input: 'validate',
  configSections: ['review.model', 'review.temperature', 'review.keep_llm_rejected_until_human', 'llm.models', 'llm.json_retries'],
  columns,
  key: (row) => String(row.key ?? row.instance),
  async preflight(ctx) {
    const m = ctx.config.config.review.model;
    if (m) {
      if (!ctx.config.config.llm.models[m]) throw new ConfigError(`${ctx.config.file}: review.model "${m}" is not defined in [llm.models]`);
      checkModels(ctx.config, [m], 'review');
    }
  },
  async run(row, ctx) {
    const s = ctx.config.config.review;
    const instance = String(row.instance ?? row.key);
    const errors = jsonCell(row.errors) as InjectedError[];
    const verdicts = jsonCell(row.verdicts) as ErrorVerdict[];
    const decisions = await decisionsFor(ctx);
    const base: Cells = {
      repository: String(row.repository),
      revision: (row.revision as string | null) ?? null,
      doc_path: (row.doc_path as string | null) ?? null,
      instance,
      original_text: (row.original_text as string | null) ?? null,
      injected_text: (row.injected_text as string | null) ?? null,
      gold: jsonCell(row.gold) as Record<string, unknown>,
      llm_review: s.model ? 'done' : 'skipped',
      model: s.model || null,
      error_count: errors.length,
    };
    const client = s.model ? LlmClient.forStage(ctx, 'review', s.max_usd) : undefined;
    const usage = { llm_calls: 0, tokens_in: 0, tokens_out: 0, cost_usd: 0 };
    const reviews: ErrorReview[] = [];
    for (const [i, e] of errors.entries()) {
      const v = verdicts.find((x) => x.index === i + 1);
      const id = errorId(instance, i + 1);
      const human: DecisionRow | undefined = decisions.get(id);
      const r: ErrorReview = {
        error_id: id,
        index: i + 1,
        error_type: e.error_type,
        valid: v?.valid ?? false,
        validate_reason: v?.reason ?? 'not_validated',
        validate_text: v?.reason_text ?? '',
        failing_step: v?.failing_step ?? null,
        output_excerpt: v?.output_excerpt ?? '',
        llm_verdict: 'not_reviewed',
        llm_criteria: null,
        llm_rationale: '',
        human_decision: human?.decision ?? null,
        human_note: human?.note ?? '',
        kept: false,
      };
      if (r.valid) {
        if (client) {
          let a;
          try {
            a = await client.completeJson({ model: s.model, messages: filterPrompt(e, v, String(row.doc_path)), temperature: s.temperature }, { key: id }, validateFilterAnswer);
          } catch (err) {
            if (err instanceof LlmCallError && !ctx.signal.aborted) return fail('llm_unavailable', err.message, base);
            throw err;
          }
          usage.llm_calls += a.calls;
          usage.tokens_in += a.tokens_in;
          usage.tokens_out += a.tokens_out;
          usage.cost_usd += a.cost_usd;
          if (!a.ok) return fail('llm_malformed_output', `${s.model} did not answer with the verdict JSON for error ${i + 1}: ${a.problem}`, { ...base, ...usage });
          r.llm_verdict = a.value.verdict;
          r.llm_criteria = a.value.criteria;
          r.llm_rationale = a.value.rationale;
        } else {
          r.llm_verdict = 'skipped';
        }
        r.kept = r.human_decision ? r.human_decision === 'accept' : r.llm_verdict !== 'reject' || s.keep_llm_rejected_until_human;
      }
      reviews.push(r);
    }
    const kept = errors.filter((_, i) => reviews[i]!.kept);
    const cells: Cells = {
      ...base,
      ...usage,
      reviews: reviews as unknown as Record<string, unknown>,
      kept_errors: kept as unknown as Record<string, unknown>,
      valid_errors: reviews.filter((r) => r.valid).length,
      kept_count: kept.length,
      human_decisions: reviews.filter((r) => r.human_decision).length,
    };
    if (kept.length > 0) return accept(cells);
    const why = reviews.map((r) => `E${r.index}: ${r.human_decision ? `human ${r.human_decision}` : `llm ${r.llm_verdict}`}`).join('; ');
    return reject('no_errors_kept', why, cells);
  },
};
