import { LlmClient, type AssistantMessage } from '../../pipeline/llm/client.js';
import type { ModelEndpoint } from '../../pipeline/llm/models.js';
import type { StageContext } from '../../pipeline/stage.js';

/**
 * One tool-calling turn of the agent through pipeline/llm's client: the response cache keyed by
 * the full request (a rerun replays a trajectory at no cost), the dataset's ledger, the stage
 * budget, and retries on 429, 5xx and connection errors.
 */

export type Message = Record<string, unknown>;
export type { AssistantMessage };

export interface CallResult {
  message: AssistantMessage;
  cached: boolean;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number;
  latency_ms: number;
  finish_reason: string | null;
}

export interface AgentTurn {
  messages: Message[];
  tools: readonly unknown[];
  temperature?: number;
  seed?: number;
}

export async function callWithTools(ctx: StageContext, m: ModelEndpoint, turn: AgentTurn, o: { stage: string; key: string; maxUsd: number }): Promise<CallResult> {
  const answer = await LlmClient.forStage(ctx, o.stage, o.maxUsd).complete(
    { model: m.name, messages: turn.messages, tools: turn.tools, tool_choice: 'auto', temperature: turn.temperature, seed: turn.seed },
    { key: o.key },
  );
  return {
    message: answer.message,
    cached: answer.cached,
    tokens_in: answer.tokens_in,
    tokens_out: answer.tokens_out,
    cost_usd: answer.cost_usd,
    latency_ms: answer.latency_ms,
    finish_reason: answer.finish_reason,
  };
}
