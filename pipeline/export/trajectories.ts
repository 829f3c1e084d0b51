import { z } from 'zod';
import type { DatasetViews } from '../report/dataset-views.js';
import { RUN_SHELL_TOOL } from '../../stages/rollout/agent-loop.js';
import type { ExportedRecipe, RecipeExporter, SkippedRecipe } from './recipe.js';

/**
 * Trajectories of the rollout stage as fine-tuning data:
 * - OpenAI's chat fine-tuning format: one `{"messages": [...], "tools": [run_shell], "parallel_tool_calls": false}`
 *   per line, the messages exactly as the agent exchanged them (assistant `tool_calls`, `tool` replies);
 * - ShareGPT (LLaMA-Factory's function-calling layout): `{"conversations": [{"from": "human" |
 *   "gpt" | "function_call" | "observation", "value"}], "system", "tools"}`.
 * Filterable by pass, instance, model and benchmark (`envforge trajectories`); the dataset export
 * (`envforge export`) writes every trajectory with its metadata plus the passing ones in both formats.
 */

export type ChatMessage = Record<string, unknown> & { role: string };

export interface TrajectoryRow {
  key: string;
  instance_id: string;
  benchmark: string;
  repository: string;
  revision: string | null;
  model: string;
  sample: number;
  passed: boolean;
  stop_reason: string | null;
  turns: number;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number;
  messages: ChatMessage[];
  scores: Record<string, unknown> | null;
  issues_count: number | null;
  exit_code: number | null;
}

export interface TrajectoryFilter {
  /** true: passing only; false: failing only; undefined: all. */
  pass?: boolean;
  models?: readonly string[];
  instances?: readonly string[];
  benchmarks?: readonly string[];
}

const parse = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);
const num = (v: unknown): number => (typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : Number(v ?? 0));

/** The rollout stage's current rows that carry a conversation (accepted and rejected), ordered by key. */
export async function readTrajectories(views: DatasetViews, filter: TrajectoryFilter = {}): Promise<TrajectoryRow[]> {
  if (!views.has('rollout') || !views.ran('rollout')) return [];
  const rows = await views.duck.all(`SELECT * FROM rollout WHERE status IN ('accepted', 'rejected') AND messages IS NOT NULL ORDER BY key`);
  return selectTrajectories(
    rows.map((r) => ({
      key: String(r.key),
      instance_id: String(r.instance_id),
      benchmark: String(r.benchmark),
      repository: String(r.repository),
      revision: (r.revision as string | null) ?? null,
      model: String(r.model),
      sample: num(r.sample),
      passed: r.passed === true,
      stop_reason: (r.stop_reason as string | null) ?? null,
      turns: num(r.turns),
      tokens_in: num(r.tokens_in),
      tokens_out: num(r.tokens_out),
      cost_usd: num(r.cost_usd),
      messages: parse(r.messages) as ChatMessage[],
      scores: (parse(r.scores) as Record<string, unknown> | null) ?? null,
      issues_count: r.issues_count === null || r.issues_count === undefined ? null : num(r.issues_count),
      exit_code: r.exit_code === null || r.exit_code === undefined ? null : num(r.exit_code),
    })),
    filter,
  );
}

export function selectTrajectories(rows: readonly TrajectoryRow[], f: TrajectoryFilter): TrajectoryRow[] {
  return rows.filter(
    (r) =>
      (f.pass === undefined || r.passed === f.pass) &&
      (!f.models?.length || f.models.includes(r.model)) &&
      (!f.instances?.length || f.instances.includes(r.instance_id)) &&
      (!f.benchmarks?.length || f.benchmarks.includes(r.benchmark)),
  );
}

/** One line of OpenAI's chat fine-tuning JSONL. */
export function toOpenAiRecord(t: Pick<TrajectoryRow, 'messages'>): Record<string, unknown> {
  return { messages: t.messages, tools: [RUN_SHELL_TOOL], parallel_tool_calls: false };
}

export function fromOpenAiRecord(line: string): ChatMessage[] {
  return (JSON.parse(line) as { messages: ChatMessage[] }).messages;
}

type ToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };

/** One ShareGPT record: the system prompt apart, then human / gpt / function_call / observation turns. */
export function toShareGptRecord(t: Pick<TrajectoryRow, 'messages'>): Record<string, unknown> {
  let system = '';
  const conversations: { from: string; value: string }[] = [];
  const text = (m: ChatMessage) => (typeof m.content === 'string' ? m.content : '');
  for (let i = 0; i < t.messages.length; i++) {
    const m = t.messages[i]!;
    if (m.role === 'system') system = text(m);
    else if (m.role === 'user') conversations.push({ from: 'human', value: text(m) });
    else if (m.role === 'assistant') {
      const calls = (m.tool_calls as ToolCall[] | undefined) ?? [];
      if (calls.length === 0) {
        conversations.push({ from: 'gpt', value: text(m) });
        continue;
      }
      const fc = calls.map((c) => ({ name: c.function.name, arguments: safeJson(c.function.arguments) }));
      conversations.push({ from: 'function_call', value: JSON.stringify(fc.length === 1 ? fc[0] : fc) });
      // The replies to this turn's calls form one observation (a JSON list when there are several).
      const replies: string[] = [];
      while (t.messages[i + 1]?.role === 'tool') replies.push(text(t.messages[++i]!));
      conversations.push({ from: 'observation', value: calls.length === 1 ? (replies[0] ?? '') : JSON.stringify(replies) });
    }
  }
  return { conversations, system, tools: JSON.stringify([RUN_SHELL_TOOL.function]) };
}

/** Back to OpenAI messages (tool call ids are renumbered: ShareGPT has none). */
export function fromShareGptRecord(line: string): ChatMessage[] {
  const r = JSON.parse(line) as { conversations: { from: string; value: string }[]; system?: string };
  const out: ChatMessage[] = r.system ? [{ role: 'system', content: r.system }] : [];
  let n = 0;
  let pending: string[] = [];
  for (const c of r.conversations) {
    if (c.from === 'human') out.push({ role: 'user', content: c.value });
    else if (c.from === 'gpt') out.push({ role: 'assistant', content: c.value });
    else if (c.from === 'function_call') {
      const v = JSON.parse(c.value) as unknown;
      const list = (Array.isArray(v) ? v : [v]) as { name: string; arguments: unknown }[];
      pending = list.map(() => `call_${n++}`);
      out.push({ role: 'assistant', content: null, tool_calls: list.map((x, i) => ({ id: pending[i]!, type: 'function', function: { name: x.name, arguments: JSON.stringify(x.arguments) } })) });
    } else if (c.from === 'observation') {
      const values = pending.length > 1 ? (JSON.parse(c.value) as string[]) : [c.value];
      values.forEach((v, i) => out.push({ role: 'tool', tool_call_id: pending[i] ?? `call_${n++}`, content: v }));
      pending = [];
    }
  }
  return out;
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** The metadata line of a trajectory (index.jsonl beside the training files, and the dataset export). */
export function trajectoryMeta(t: TrajectoryRow): Record<string, unknown> {
  return {
    key: t.key, instance_id: t.instance_id, benchmark: t.benchmark, repository: t.repository, revision: t.revision, model: t.model, sample: t.sample,
    passed: t.passed, stop_reason: t.stop_reason, turns: t.turns, tokens_in: t.tokens_in, tokens_out: t.tokens_out, cost_usd: t.cost_usd,
    exit_code: t.exit_code, issues_count: t.issues_count, scores: t.scores,
  };
}

const openAiLine = z.looseObject({ messages: z.array(z.looseObject({ role: z.enum(['system', 'user', 'assistant', 'tool']) })).min(2), tools: z.array(z.unknown()) });
const shareGptLine = z.looseObject({ conversations: z.array(z.strictObject({ from: z.enum(['human', 'gpt', 'function_call', 'observation']), value: z.string() })), system: z.string(), tools: z.string() });
const fullLine = z.looseObject({ key: z.string(), passed: z.boolean(), messages: z.array(z.unknown()) });

export const trajectoriesExporter: RecipeExporter = {
  recipe: 'trajectories',
  title: 'Agent trajectories (rollout)',
  stages: ['rollout'],
  format: 'every trajectory with its metadata and messages; the passing ones in OpenAI chat fine-tuning JSONL and ShareGPT',
  async exportRows(views: DatasetViews): Promise<ExportedRecipe | SkippedRecipe> {
    if (!views.has('rollout') || !views.ran('rollout')) return { recipe: this.recipe, title: this.title, skipped: 'stage rollout has not run (it needs a model: make rollout)' };
    const all = await readTrajectories(views);
    if (all.length === 0) return { recipe: this.recipe, title: this.title, skipped: 'stage rollout has no evaluated trajectories' };
    const passed = all.filter((t) => t.passed);
    return {
      recipe: this.recipe,
      title: this.title,
      files: [
        { kind: 'jsonl', path: 'trajectories/all.jsonl', records: all.map((t) => ({ ...trajectoryMeta(t), messages: t.messages })), schema: fullLine },
        { kind: 'jsonl', path: 'trajectories/openai/passed.jsonl', records: passed.map(toOpenAiRecord), schema: openAiLine },
        { kind: 'jsonl', path: 'trajectories/sharegpt/passed.jsonl', records: passed.map(toShareGptRecord), schema: shareGptLine },
      ],
      splits: [{ config: 'trajectories', split: 'train', path: 'trajectories/all.jsonl', rows: all.length }],
      notes: [`config \`trajectories\`: ${all.length} agent trajectories (${passed.length} passing); trajectories/openai and trajectories/sharegpt hold the passing ones, ready for fine-tuning`],
      tags: ['agent-trajectories'],
    };
  },
};
