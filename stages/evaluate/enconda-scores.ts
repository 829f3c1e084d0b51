import { LlmClient } from '../../pipeline/llm/client.js';
import type { StageContext } from '../../pipeline/stage.js';

/**
 * EnConda-Bench's process-level scores (../shared/reference/enconda.md): the agent's detected
 * errors against the gold JSON. Precision, recall and F1 over the SETS of error types; the
 * description and fix agreement are an LLM judge's, off (null) when no judge model is configured.
 */

export interface AgentError {
  error_type: string;
  error_description?: string;
  fix_answer?: string;
}

/** EnConda's agent output per instance. */
export interface AgentOutput {
  repo_name?: string;
  readme_name?: string;
  errors?: AgentError[];
  shell_script?: string;
  raw_output?: string;
}

export interface GoldError {
  error_type: string;
  error_description: string;
  correction_candidates?: string[];
  golden_answer: string;
}

export interface GoldJson {
  readme?: string;
  repo_name?: string;
  level?: string;
  errors: GoldError[];
}

export interface ProcessScores {
  predicted_types: string[];
  gold_types: string[];
  precision: number;
  recall: number;
  f1: number;
  /** LLM judge: mean agreement (0..1) of descriptions / fixes over gold errors whose type was found; null when off. */
  description_score: number | null;
  fix_score: number | null;
  judge_model: string | null;
}

const normType = (t: string) => {
  const m = /E\s*(\d+)/i.exec(t);
  return m ? `E${Number(m[1])}` : t.trim().toUpperCase();
};

/** Precision / recall / F1 over error-type sets. Empty prediction and empty gold: 1 (nothing to find, nothing claimed). */
export function typeSetScores(agent: readonly AgentError[], gold: readonly GoldError[]): Pick<ProcessScores, 'predicted_types' | 'gold_types' | 'precision' | 'recall' | 'f1'> {
  const p = new Set(agent.map((e) => normType(String(e.error_type ?? ''))).filter((t) => t !== ''));
  const g = new Set(gold.map((e) => normType(e.error_type)));
  const hit = [...p].filter((t) => g.has(t)).length;
  const precision = p.size === 0 ? (g.size === 0 ? 1 : 0) : hit / p.size;
  const recall = g.size === 0 ? (p.size === 0 ? 1 : 0) : hit / g.size;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { predicted_types: [...p].sort(), gold_types: [...g].sort(), precision, recall, f1 };
}

/**
 * Parse an agent's final answer into EnConda's agent output: the last JSON object in the text
 * (fenced or not) with an `errors` array; anything else is an answer that reports no errors.
 */
export function parseAgentOutput(text: string, ids: { repo_name: string; readme_name: string }): AgentOutput {
  const candidates: string[] = [];
  for (const m of text.matchAll(/```(?:json)?\s*([\s\S]*?)```/g)) candidates.push(m[1]!);
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first >= 0 && last > first) candidates.push(text.slice(first, last + 1));
  for (const c of candidates.reverse()) {
    try {
      const v = JSON.parse(c) as Record<string, unknown>;
      if (v && typeof v === 'object' && Array.isArray(v.errors)) {
        const errors = (v.errors as Record<string, unknown>[]).filter((e) => e && typeof e === 'object').map((e) => ({
          error_type: String(e.error_type ?? ''),
          error_description: String(e.error_description ?? ''),
          fix_answer: String(e.fix_answer ?? ''),
        }));
        return { ...ids, errors, shell_script: typeof v.shell_script === 'string' ? v.shell_script : '', raw_output: text };
      }
    } catch {
      // not this one
    }
  }
  return { ...ids, errors: [], shell_script: '', raw_output: text };
}

/** The scores, with the LLM judge when `judgeModel` is set (one call per instance, cached and ledgered). */
export async function processScores(ctx: StageContext, stage: string, key: string, agent: AgentOutput, gold: GoldJson, judgeModel: string, maxUsd: number): Promise<ProcessScores> {
  const sets = typeSetScores(agent.errors ?? [], gold.errors);
  const off = { ...sets, description_score: null, fix_score: null, judge_model: null };
  if (!judgeModel) return off;
  const pairs = gold.errors
    .map((g) => ({ g, a: (agent.errors ?? []).find((a) => normType(a.error_type) === normType(g.error_type)) }))
    .filter((p) => p.a !== undefined);
  if (pairs.length === 0) return { ...sets, description_score: 0, fix_score: 0, judge_model: judgeModel };
  const llm = LlmClient.forStage(ctx, stage, maxUsd);
  const prompt =
    'You judge an agent that found setup errors in a README. For each pair, score from 0 to 1 how well the agent\'s description ' +
    'matches the reference description, and how well its fix matches the reference fix. Answer only JSON: ' +
    '{"scores": [{"description": 0..1, "fix": 0..1}, ...]} in the order given.\n\n' +
    pairs
      .map((p, i) => `#${i + 1} (${p.g.error_type})\nreference description: ${p.g.error_description}\nreference fix: ${p.g.golden_answer}\nagent description: ${p.a!.error_description ?? ''}\nagent fix: ${p.a!.fix_answer ?? ''}`)
      .join('\n\n');
  const res = await llm.completeJson<{ description: number; fix: number }[]>(
    { model: judgeModel, messages: [{ role: 'user', content: prompt }], temperature: 0 },
    { key },
    (v) => {
      const s = (v as { scores?: unknown }).scores;
      if (!Array.isArray(s) || s.length !== pairs.length) return { problem: `expected "scores" with ${pairs.length} entries` };
      const clean = s.map((x) => ({ description: clamp((x as { description?: unknown }).description), fix: clamp((x as { fix?: unknown }).fix) }));
      return { value: clean };
    },
  );
  if (!res.ok) return { ...off, judge_model: judgeModel };
  // Gold errors whose type the agent missed count as 0.
  const n = gold.errors.length;
  return {
    ...sets,
    description_score: res.value.reduce((s, x) => s + x.description, 0) / n,
    fix_score: res.value.reduce((s, x) => s + x.fix, 0) / n,
    judge_model: judgeModel,
  };
}

function clamp(v: unknown): number {
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
}
