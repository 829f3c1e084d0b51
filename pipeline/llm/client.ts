import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { setTimeout as sleep } from 'node:timers/promises';
import { sha256, stableStringify } from '../config/fingerprint.js';
import type { LoadedConfig } from '../config/load.js';
import type { LlmSettings } from '../config/schema.js';
import { SetupError, messageOf } from '../errors.js';
import { redact } from '../log/secrets.js';
import { timestampText } from '../runner/cells.js';
import type { StageContext } from '../stage.js';
import { MemoryLedger, type Ledger } from '../store/ledger.js';
import { isRetryableStatus, retryDelayMs } from './backoff.js';
import { parseJsonAnswer } from './json-answer.js';
import { apiKeyVariable, costUsd, modelEndpoint, type ModelEndpoint } from './models.js';
import { readCached, writeCached, type CachedResponse } from './response-cache.js';

/**
 * The LLM adapter: the openai SDK against any OpenAI-compatible endpoint. Every call goes
 * through the response cache (keyed by the full request), is recorded in the ledger (cache hits
 * too, at zero cost), is refused once the stage's budget is spent, and is retried on 429, 5xx
 * and connection failures with backoff. `completeJson` re-asks a bounded number of times when
 * the answer is not the JSON asked for.
 */

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** OpenAI chat messages, tool calls and tool results included (agents, the weak-llm validator). */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: ToolCall[];
}

export interface ChatRequest {
  /** A model name of `[llm.models]`. */
  model: string;
  messages: readonly (ChatMessage | Record<string, unknown>)[];
  temperature?: number;
  seed?: number;
  /** Function tools offered to the model (OpenAI `tools`). */
  tools?: readonly unknown[];
  tool_choice?: 'auto' | 'none' | 'required';
}

/** Who a call is for: recorded in the ledger. */
export interface CallMeta {
  key: string;
}

export interface ChatAnswer {
  text: string;
  /** The assistant message itself: its text and any tool calls. */
  message: AssistantMessage;
  finish_reason: string | null;
  latency_ms: number;
  cached: boolean;
  prompt_hash: string;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number;
}

export interface JsonCallTotals {
  model: string;
  calls: number;
  cached_calls: number;
  /** Hash of the first request: the prompt the answer is for. */
  prompt_hash: string;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number;
}

export type JsonResult<T> =
  | ({ ok: true; value: T; text: string } & JsonCallTotals)
  | ({ ok: false; problem: string; raw: string } & JsonCallTotals);

/** The stage's budget is spent: stops the run cleanly (finished items are kept). */
export class BudgetExceeded extends SetupError {
  override name = 'BudgetExceeded';
}

/** A call that failed for good (retries exhausted, a 4xx, a damaged response): an item error. */
export class LlmCallError extends Error {
  override name = 'LlmCallError';
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
  }
}

export interface LlmClientOptions {
  config: LoadedConfig;
  cacheDir: string;
  /** The stage the calls are for (ledger rows, budget). */
  stage: string;
  /** The stage's budget in US dollars, over the whole dataset (the ledger's sum). */
  maxUsd: number;
  ledger?: Ledger;
  signal?: AbortSignal;
  /** For tests: the random source of backoff jitter. */
  random?: () => number;
}

export class LlmClient {
  private readonly settings: LlmSettings;
  private readonly ledger: Ledger;
  private readonly sdks = new Map<string, OpenAI>();

  constructor(private readonly o: LlmClientOptions) {
    this.settings = o.config.config.llm;
    this.ledger = o.ledger ?? new MemoryLedger();
  }

  static forStage(ctx: StageContext, stage: string, maxUsd: number): LlmClient {
    return new LlmClient({ config: ctx.config, cacheDir: ctx.cacheDir, stage, maxUsd, ledger: ctx.ledger, signal: ctx.signal });
  }

  /** One chat completion: from the cache, else from the endpoint (with retries). */
  async complete(req: ChatRequest, meta: CallMeta): Promise<ChatAnswer> {
    const m = modelEndpoint(this.o.config, req.model);
    const body = requestBody(m, req);
    const promptHash = sha256(stableStringify(body));
    const cacheKey = sha256(stableStringify({ base_url: m.settings.base_url, body }));
    const base = { stage: this.o.stage, key: meta.key, model: m.name, model_id: m.settings.model, base_url: m.publicUrl, prompt_hash: promptHash };

    if (this.settings.cache) {
      const hit = await readCached(this.o.cacheDir, cacheKey);
      if (hit) {
        this.ledger.add({
          ...base,
          cached: true,
          outcome: 'ok',
          http_status: null,
          attempts: 0,
          tokens_in: hit.tokens_in,
          tokens_out: hit.tokens_out,
          tokens_estimated: hit.tokens_estimated,
          latency_ms: 0,
          cost_usd: 0,
          error: null,
          created_at: timestampText(new Date()),
        });
        const message = hit.message ?? { role: 'assistant' as const, content: hit.text };
        return { text: hit.text, message, finish_reason: hit.finish_reason, latency_ms: 0, cached: true, prompt_hash: promptHash, tokens_in: hit.tokens_in, tokens_out: hit.tokens_out, cost_usd: 0 };
      }
    }

    const spent = this.ledger.spent(this.o.stage);
    if (spent >= this.o.maxUsd) {
      throw new BudgetExceeded(
        `${this.o.stage}: budget reached: $${spent.toFixed(4)} spent of max_usd $${this.o.maxUsd} in this dataset ` +
          `(finished items are saved; raise ${this.o.stage}.max_usd and rerun to continue)`,
      );
    }

    const t0 = Date.now();
    let attempts = 0;
    for (;;) {
      attempts++;
      try {
        const completion = await this.sdk(m).chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, {
          signal: this.o.signal,
          maxRetries: 0,
          timeout: m.settings.timeout_seconds * 1000,
        });
        const choice = completion.choices?.[0];
        if (!choice || !completion.choices) throw new LlmCallError(`${m.name}: the response has no choices`, 200);
        const text = choice.message?.content ?? '';
        const calls = (choice.message?.tool_calls ?? []).filter((c) => c.type === 'function');
        const message: AssistantMessage = {
          role: 'assistant',
          content: choice.message?.content ?? null,
          ...(calls.length > 0
            ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.function.name, arguments: c.function.arguments } })) }
            : {}),
        };
        const usage = completion.usage;
        const estimated = !usage || typeof usage.prompt_tokens !== 'number' || typeof usage.completion_tokens !== 'number';
        const tokensIn = estimated ? estimateTokens(stableStringify(body.messages)) : usage.prompt_tokens;
        const tokensOut = estimated ? estimateTokens(text || JSON.stringify(message.tool_calls ?? [])) : usage.completion_tokens;
        const cost = costUsd(m, tokensIn, tokensOut);
        this.ledger.add({
          ...base,
          cached: false,
          outcome: 'ok',
          http_status: 200,
          attempts,
          tokens_in: tokensIn,
          tokens_out: tokensOut,
          tokens_estimated: estimated,
          latency_ms: Date.now() - t0,
          cost_usd: cost,
          error: null,
          created_at: timestampText(new Date()),
        });
        const latency = Date.now() - t0;
        const response: CachedResponse = {
          text,
          ...(message.tool_calls ? { message } : {}),
          finish_reason: choice.finish_reason ?? null,
          tokens_in: tokensIn,
          tokens_out: tokensOut,
          tokens_estimated: estimated,
          served_model: typeof completion.model === 'string' ? completion.model : null,
          created_at: new Date().toISOString(),
        };
        if (this.settings.cache) await writeCached(this.o.cacheDir, cacheKey, body, response);
        return { text, message, finish_reason: choice.finish_reason ?? null, latency_ms: latency, cached: false, prompt_hash: promptHash, tokens_in: tokensIn, tokens_out: tokensOut, cost_usd: cost };
      } catch (err) {
        if (err instanceof APIUserAbortError || this.o.signal?.aborted) {
          this.record(base, 'aborted', undefined, attempts, t0, 'aborted');
          throw err;
        }
        const status = err instanceof APIError ? err.status : err instanceof LlmCallError ? err.status : undefined;
        const headers = err instanceof APIError ? err.headers : undefined;
        const message = redact(`${m.name} (${m.publicUrl}): ${describeFailure(err)}`);
        if (status === 401 || status === 403) {
          this.record(base, 'http_error', status, attempts, t0, message);
          const variable = apiKeyVariable(this.o.config, m.name);
          throw new SetupError(`${message}: the endpoint refused the API key${variable ? ` (check ${variable})` : ''}`);
        }
        // A damaged body (not JSON, no choices) is retried like a server error.
        const retryable = err instanceof APIConnectionError || (err instanceof APIError && isRetryableStatus(status)) || !(err instanceof APIError);
        if (!retryable || attempts > this.settings.max_retries) {
          this.record(base, 'http_error', status, attempts, t0, message);
          throw new LlmCallError(attempts > 1 ? `${message} (after ${attempts} attempts)` : message, status);
        }
        const wait = retryDelayMs(attempts, this.settings.backoff_seconds, this.settings.max_backoff_seconds, headers, this.o.random);
        try {
          await sleep(wait, undefined, { signal: this.o.signal });
        } catch (abortErr) {
          this.record(base, 'aborted', status, attempts, t0, 'aborted');
          throw abortErr;
        }
      }
    }
  }

  /**
   * A call whose answer must be a JSON object that `validate` accepts (it returns `{value}` or
   * `{problem}`). A bad answer is shown back to the model with the problem, at most `json_retries`
   * times; then the result carries the raw text and the problem.
   */
  async completeJson<T>(req: ChatRequest, meta: CallMeta, validate: (value: unknown) => { value: T } | { problem: string }): Promise<JsonResult<T>> {
    const totals: JsonCallTotals = { model: req.model, calls: 0, cached_calls: 0, prompt_hash: '', tokens_in: 0, tokens_out: 0, cost_usd: 0 };
    let messages = req.messages;
    let problem = '';
    let raw = '';
    for (let attempt = 0; attempt <= this.settings.json_retries; attempt++) {
      const answer = await this.complete({ ...req, messages }, meta);
      totals.calls++;
      if (answer.cached) totals.cached_calls++;
      if (attempt === 0) totals.prompt_hash = answer.prompt_hash;
      totals.tokens_in += answer.tokens_in;
      totals.tokens_out += answer.tokens_out;
      totals.cost_usd += answer.cost_usd;
      raw = answer.text;
      const parsed = parseJsonAnswer(answer.text);
      if (parsed.ok) {
        const checked = validate(parsed.value);
        if ('value' in checked) return { ok: true, value: checked.value, text: answer.text, ...totals };
        problem = checked.problem;
      } else {
        problem = parsed.problem;
      }
      messages = [
        ...messages,
        { role: 'assistant', content: answer.text },
        { role: 'user', content: `Your answer was not the JSON object asked for: ${problem}. Reply again with only that JSON object, nothing else.` },
      ];
    }
    return { ok: false, problem, raw, ...totals };
  }

  private sdk(m: ModelEndpoint): OpenAI {
    let client = this.sdks.get(m.name);
    if (!client) {
      // Endpoints that need no key (vLLM, Ollama) still get a placeholder: the SDK requires one.
      client = new OpenAI({ baseURL: m.settings.base_url, apiKey: m.settings.api_key || 'no-key', maxRetries: 0 });
      this.sdks.set(m.name, client);
    }
    return client;
  }

  private record(
    base: { stage: string; key: string; model: string; model_id: string; base_url: string; prompt_hash: string },
    outcome: string,
    status: number | undefined,
    attempts: number,
    t0: number,
    error: string,
  ): void {
    this.ledger.add({
      ...base,
      cached: false,
      outcome,
      http_status: status ?? null,
      attempts,
      tokens_in: null,
      tokens_out: null,
      tokens_estimated: false,
      latency_ms: Date.now() - t0,
      cost_usd: 0,
      error,
      created_at: timestampText(new Date()),
    });
  }
}

/** The body sent to /v1/chat/completions; everything in it is part of the cache key. */
function requestBody(m: ModelEndpoint, req: ChatRequest): Record<string, unknown> & { messages: ChatRequest['messages'] } {
  return {
    model: m.settings.model,
    messages: req.messages,
    ...(req.tools ? { tools: req.tools, tool_choice: req.tool_choice ?? 'auto' } : {}),
    max_tokens: m.settings.max_tokens,
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(req.seed !== undefined ? { seed: req.seed } : {}),
    ...(m.settings.json_mode ? { response_format: { type: 'json_object' } } : {}),
  };
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function describeFailure(err: unknown): string {
  if (err instanceof APIError && err.status !== undefined) return `HTTP ${err.status}: ${messageOf(err).slice(0, 300)}`;
  if (err instanceof APIConnectionError) return `connection failed: ${messageOf(err.cause ?? err).slice(0, 300)}`;
  return messageOf(err).slice(0, 300);
}
