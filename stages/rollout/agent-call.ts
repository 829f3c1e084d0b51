import OpenAI from 'openai';
import { sha256, stableStringify } from '../../pipeline/config/fingerprint.js';
import { BudgetExceeded, LlmCallError } from '../../pipeline/llm/client.js';
import { costUsd, type ModelEndpoint } from '../../pipeline/llm/models.js';
import { readCached, writeCached } from '../../pipeline/llm/response-cache.js';
import { redact } from '../../pipeline/log/secrets.js';
import { timestampText } from '../../pipeline/runner/cells.js';
import type { StageContext } from '../../pipeline/stage.js';

/**
 * One tool-calling chat completion for the agent, with pipeline/llm's parts: endpoint and key
 * from [llm.models], the response cache keyed by the full request (a rerun replays a trajectory
 * at no cost), the dataset's ledger (cache hits at zero cost), the stage budget, and the SDK's
 * retries (llm.max_retries) on 429, 5xx and connection errors. (LlmClient speaks text-only
 * messages; tool calls need the assistant message itself.)
 */

export type Message = Record<string, unknown>;

export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
}

export interface CallResult {
  message: AssistantMessage;
  cached: boolean;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number;
  latency_ms: number;
  finish_reason: string | null;
}

const sdks = new Map<string, OpenAI>();

export async function callWithTools(
  ctx: StageContext,
  m: ModelEndpoint,
  body: Record<string, unknown> & { messages: Message[] },
  o: { stage: string; key: string; maxUsd: number },
): Promise<CallResult> {
  const promptHash = sha256(stableStringify(body));
  const cacheKey = sha256(stableStringify({ base_url: m.settings.base_url, body }));
  const base = { stage: o.stage, key: o.key, model: m.name, model_id: m.settings.model, base_url: m.publicUrl, prompt_hash: promptHash };
  const settings = ctx.config.config.llm;
  if (settings.cache) {
    const hit = await readCached(ctx.cacheDir, cacheKey);
    if (hit) {
      ctx.ledger?.add({ ...base, cached: true, outcome: 'ok', http_status: null, attempts: 0, tokens_in: hit.tokens_in, tokens_out: hit.tokens_out, tokens_estimated: hit.tokens_estimated, latency_ms: 0, cost_usd: 0, error: null, created_at: timestampText(new Date()) });
      return { message: JSON.parse(hit.text) as AssistantMessage, cached: true, tokens_in: hit.tokens_in, tokens_out: hit.tokens_out, cost_usd: 0, latency_ms: 0, finish_reason: hit.finish_reason };
    }
  }
  const spent = ctx.ledger?.spent(o.stage) ?? 0;
  if (spent >= o.maxUsd) {
    throw new BudgetExceeded(`${o.stage}: budget reached: $${spent.toFixed(4)} spent of ${o.stage}.max_usd $${o.maxUsd} in this dataset (finished items are saved; raise it and rerun to continue)`);
  }
  let sdk = sdks.get(`${m.name}\0${m.settings.base_url}\0${settings.max_retries}`);
  if (!sdk) {
    sdk = new OpenAI({ baseURL: m.settings.base_url, apiKey: m.settings.api_key || 'no-key', maxRetries: settings.max_retries });
    sdks.set(`${m.name}\0${m.settings.base_url}\0${settings.max_retries}`, sdk);
  }
  const t0 = Date.now();
  let completion: OpenAI.ChatCompletion;
  try {
    completion = await sdk.chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, { signal: ctx.signal, timeout: m.settings.timeout_seconds * 1000 });
  } catch (err) {
    const status = (err as { status?: number }).status;
    const message = redact(`${m.name} (${m.publicUrl}): ${err instanceof Error ? err.message : String(err)}`).slice(0, 400);
    ctx.ledger?.add({ ...base, cached: false, outcome: ctx.signal.aborted ? 'aborted' : 'http_error', http_status: status ?? null, attempts: 1, tokens_in: null, tokens_out: null, tokens_estimated: false, latency_ms: Date.now() - t0, cost_usd: 0, error: message, created_at: timestampText(new Date()) });
    if (ctx.signal.aborted) throw err;
    throw new LlmCallError(message, status);
  }
  const choice = completion.choices?.[0];
  if (!choice) throw new LlmCallError(`${m.name}: the response has no choices`, 200);
  const calls = (choice.message.tool_calls ?? []).filter((c) => c.type === 'function') as AssistantMessage['tool_calls'];
  const message: AssistantMessage = { role: 'assistant', content: choice.message.content ?? null, ...(calls && calls.length > 0 ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.function.name, arguments: c.function.arguments } })) } : {}) };
  const text = JSON.stringify(message);
  const estimated = !completion.usage;
  const tokensIn = completion.usage?.prompt_tokens ?? Math.ceil(stableStringify(body.messages).length / 4);
  const tokensOut = completion.usage?.completion_tokens ?? Math.ceil(text.length / 4);
  const cost = costUsd(m, tokensIn, tokensOut);
  const latency = Date.now() - t0;
  ctx.ledger?.add({ ...base, cached: false, outcome: 'ok', http_status: 200, attempts: 1, tokens_in: tokensIn, tokens_out: tokensOut, tokens_estimated: estimated, latency_ms: latency, cost_usd: cost, error: null, created_at: timestampText(new Date()) });
  if (settings.cache) {
    await writeCached(ctx.cacheDir, cacheKey, body, { text, finish_reason: choice.finish_reason ?? null, tokens_in: tokensIn, tokens_out: tokensOut, tokens_estimated: estimated, served_model: completion.model ?? null, created_at: new Date().toISOString() });
  }
  return { message, cached: false, tokens_in: tokensIn, tokens_out: tokensOut, cost_usd: cost, latency_ms: latency, finish_reason: choice.finish_reason ?? null };
}
