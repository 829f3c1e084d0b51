import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAiServer, type OpenAiServer, type Step } from '../../test/servers/openai-server.js';
import { tempDirs } from '../../test/helpers/temp-dir.js';
import { parseConfig } from '../config/load.js';
import { SetupError } from '../errors.js';
import { clearSecrets } from '../log/secrets.js';
import { MemoryLedger } from '../store/ledger.js';
import { BudgetExceeded, LlmCallError, LlmClient } from './client.js';
import { retryAfterMs, retryDelayMs } from './backoff.js';
import { parseJsonAnswer } from './json-answer.js';

const KEY = 'sk-test-0123456789abcdef';
const dirs = tempDirs();
let server: OpenAiServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  dirs.cleanup();
  clearSecrets();
});

function config(baseUrl: string, llmExtra = '', modelExtra = '') {
  return parseConfig(
    `dataset = "t"\n[llm]\nbackoff_seconds = 0.01\nmax_backoff_seconds = 0.05\n${llmExtra}\n` +
      `[llm.models.strong]\nmodel = "claude-4-sonnet"\nbase_url = "${baseUrl}"\napi_key = "\${TEST_LLM_KEY:-}"\n` +
      `input_usd_per_mtok = 3\noutput_usd_per_mtok = 15\n${modelExtra}\n`,
    'llm.toml',
    { TEST_LLM_KEY: KEY },
  );
}

async function setup(script: Step[] = [], opts: { llm?: string; model?: string; maxUsd?: number; cacheDir?: string; ledger?: MemoryLedger } = {}) {
  server = await openAiServer({ script, apiKey: KEY });
  const cacheDir = opts.cacheDir ?? dirs.make('envforge-llm-cache-');
  const ledger = opts.ledger ?? new MemoryLedger();
  const loaded = config(server.baseUrl, opts.llm, opts.model);
  const client = new LlmClient({ config: loaded, cacheDir, stage: 'inject', maxUsd: opts.maxUsd ?? 100, ledger, random: () => 0.5 });
  return { client, ledger, cacheDir, loaded };
}

const ask = (text: string) => ({ model: 'strong', messages: [{ role: 'user' as const, content: text }], temperature: 0.7 });

describe('the LLM adapter', () => {
  it('sends the configured model id with the key, and records tokens, latency and cost in the ledger', async () => {
    const { client, ledger } = await setup([{ content: 'hello', usage: { prompt_tokens: 1000, completion_tokens: 500 } }]);
    const answer = await client.complete(ask('say hello'), { key: 'o_r_error_readme_1' });
    expect(answer).toMatchObject({ text: 'hello', cached: false, tokens_in: 1000, tokens_out: 500 });
    expect(answer.cost_usd).toBeCloseTo(0.0105, 10); // 1000 × $3/M + 500 × $15/M
    expect(server!.requests[0]!.authorization).toBe(`Bearer ${KEY}`);
    expect(server!.requests[0]!.body).toMatchObject({ model: 'claude-4-sonnet', temperature: 0.7, max_tokens: 4096 });
    expect(ledger.entries).toHaveLength(1);
    const e = ledger.entries[0]!;
    expect(e).toMatchObject({
      stage: 'inject',
      key: 'o_r_error_readme_1',
      model: 'strong',
      model_id: 'claude-4-sonnet',
      base_url: server!.baseUrl,
      cached: false,
      outcome: 'ok',
      http_status: 200,
      attempts: 1,
      tokens_in: 1000,
      tokens_out: 500,
      tokens_estimated: false,
      error: null,
    });
    expect(e.prompt_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(e.cost_usd).toBeCloseTo(0.0105, 10);
    expect(e.latency_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(ledger.entries)).not.toContain(KEY);
  });

  it('estimates tokens (and says so) when the endpoint reports no usage', async () => {
    const { client, ledger } = await setup([{ content: 'x'.repeat(40), usage: null }]);
    await client.complete(ask('abcd'.repeat(10)), { key: 'k' });
    expect(ledger.entries[0]).toMatchObject({ tokens_estimated: true, tokens_out: 10 });
    expect(ledger.entries[0]!.tokens_in).toBeGreaterThan(0);
  });

  it('answers a repeated request from the cache: zero requests, same text, zero cost, a cached ledger row', async () => {
    const first = await setup([{ content: 'answer one', usage: { prompt_tokens: 10, completion_tokens: 2 } }]);
    await first.client.complete(ask('q'), { key: 'k' });
    expect(server!.hits()).toBe(1);
    expect(readdirSync(join(first.cacheDir, 'llm'))).toHaveLength(1);

    // A new client (a rerun) over the same cache: nothing reaches the server.
    const ledger = new MemoryLedger();
    const rerun = new LlmClient({ config: first.loaded, cacheDir: first.cacheDir, stage: 'inject', maxUsd: 100, ledger });
    const again = await rerun.complete(ask('q'), { key: 'k' });
    expect(server!.hits()).toBe(1);
    expect(again).toMatchObject({ text: 'answer one', cached: true, cost_usd: 0, tokens_in: 10, tokens_out: 2 });
    expect(ledger.entries[0]).toMatchObject({ cached: true, cost_usd: 0, attempts: 0, outcome: 'ok' });

    // Another prompt is another request.
    await rerun.complete(ask('q2'), { key: 'k' });
    expect(server!.hits()).toBe(2);
  });

  it('a request with another temperature or model is not a cache hit', async () => {
    const { client } = await setup();
    await client.complete(ask('q'), { key: 'k' });
    await client.complete({ ...ask('q'), temperature: 0 }, { key: 'k' });
    expect(server!.hits()).toBe(2);
  });

  it('retries 429 (honouring retry-after) and 500, then succeeds: one ledger row with the attempts', async () => {
    const { client, ledger } = await setup([{ status: 429, retryAfter: 0 }, { status: 500 }, { status: 503 }, { content: 'fine' }]);
    const answer = await client.complete(ask('q'), { key: 'k' });
    expect(answer.text).toBe('fine');
    expect(server!.hits()).toBe(4);
    expect(ledger.entries).toHaveLength(1);
    expect(ledger.entries[0]).toMatchObject({ attempts: 4, outcome: 'ok' });
  });

  it('retries a body that is not JSON at all', async () => {
    const { client } = await setup([{ rawBody: '{"id": "chatcmpl-1", "choi' }, { content: 'ok now' }]);
    expect((await client.complete(ask('q'), { key: 'k' })).text).toBe('ok now');
    expect(server!.hits()).toBe(2);
  });

  it('gives up after max_retries with an item error and an http_error ledger row, and caches nothing', async () => {
    const { client, ledger, cacheDir } = await setup([{ status: 500 }, { status: 500 }, { status: 500 }], { llm: 'max_retries = 2' });
    const err = await client.complete(ask('q'), { key: 'k' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmCallError);
    expect((err as Error).message).toMatch(/HTTP 500.*after 3 attempts/);
    expect(server!.hits()).toBe(3);
    expect(ledger.entries).toEqual([expect.objectContaining({ outcome: 'http_error', http_status: 500, attempts: 3, cost_usd: 0 })]);
    expect(() => readdirSync(join(cacheDir, 'llm'))).toThrow();
  });

  it('does not retry a 400', async () => {
    const { client } = await setup([{ status: 400, message: 'context too long' }]);
    await expect(client.complete(ask('q'), { key: 'k' })).rejects.toThrow(/HTTP 400.*context too long/);
    expect(server!.hits()).toBe(1);
  });

  it('a refused key stops the run (SetupError) naming the variable, never the key', async () => {
    server = await openAiServer({ apiKey: 'sk-the-right-one-0000' });
    const client = new LlmClient({ config: config(server.baseUrl), cacheDir: dirs.make(), stage: 'inject', maxUsd: 1, ledger: new MemoryLedger() });
    const err = await client.complete(ask('q'), { key: 'k' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SetupError);
    expect((err as Error).message).toMatch(/HTTP 401.*check TEST_LLM_KEY/);
    expect((err as Error).message).not.toContain(KEY);
  });

  it('stops cleanly once the budget is spent; cached answers stay free and allowed', async () => {
    const usage = { prompt_tokens: 1000, completion_tokens: 500 }; // $0.0105 a call
    const { client, ledger } = await setup([{ content: 'a', usage }, { content: 'b', usage }], { maxUsd: 0.02 });
    await client.complete(ask('1'), { key: 'k1' });
    await client.complete(ask('2'), { key: 'k2' }); // $0.0105 < $0.02: allowed, reaches $0.021
    const err = await client.complete(ask('3'), { key: 'k3' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExceeded);
    expect(err).toBeInstanceOf(SetupError);
    expect((err as Error).message).toMatch(/budget reached: \$0\.0210 spent of max_usd \$0\.02/);
    expect(server!.hits()).toBe(2);
    expect((await client.complete(ask('1'), { key: 'k1' })).cached).toBe(true);
    expect(ledger.spent('inject')).toBeCloseTo(0.021, 10);
  });

  it('counts earlier runs of the stage against the budget (the dataset ledger)', async () => {
    const { client } = await setup([], { ledger: new MemoryLedger({ inject: 5 }), maxUsd: 5 });
    await expect(client.complete(ask('q'), { key: 'k' })).rejects.toBeInstanceOf(BudgetExceeded);
    expect(server!.hits()).toBe(0);
  });
});

describe('JSON answers', () => {
  const validate = (v: unknown) =>
    typeof (v as { errors?: unknown }).errors === 'object' ? { value: v as { errors: unknown[] } } : { problem: 'missing "errors"' };

  it('re-asks with the problem when the answer is not JSON, then accepts a fenced JSON answer', async () => {
    const { client } = await setup([{ content: 'Sure! Here are the errors.' }, { content: '```json\n{"errors": []}\n```' }]);
    const r = await client.completeJson(ask('inject'), { key: 'k' }, validate);
    expect(r).toMatchObject({ ok: true, value: { errors: [] }, calls: 2, cached_calls: 0 });
    const second = server!.requests[1]!.body!.messages;
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second[1]!.content).toBe('Sure! Here are the errors.');
    expect(second[2]!.content).toMatch(/not the JSON object asked for: the answer is not valid JSON/);
  });

  it('re-asks when the JSON does not validate, and after json_retries gives up keeping the raw text', async () => {
    const { client } = await setup([{ content: '{"errs": 1}' }, { content: '[1, 2]' }, { content: 'still prose' }], { llm: 'json_retries = 2' });
    const r = await client.completeJson(ask('inject'), { key: 'k' }, validate);
    expect(r).toMatchObject({ ok: false, raw: 'still prose', calls: 3 });
    if (!r.ok) expect(r.problem).toMatch(/not valid JSON/);
    expect(server!.requests[1]!.body!.messages[2]!.content).toMatch(/missing "errors"/);
    expect(server!.requests[2]!.body!.messages[4]!.content).toMatch(/JSON but not an object/);
  });

  it('a rerun of a re-asked exchange is answered entirely from the cache, with the same result', async () => {
    const first = await setup([{ content: 'nope' }, { content: '{"errors": [1]}' }]);
    const a = await first.client.completeJson(ask('inject'), { key: 'k' }, validate);
    const rerun = new LlmClient({ config: first.loaded, cacheDir: first.cacheDir, stage: 'inject', maxUsd: 0, ledger: new MemoryLedger() });
    const b = await rerun.completeJson(ask('inject'), { key: 'k' }, validate);
    expect(server!.hits()).toBe(2);
    expect(b).toMatchObject({ ok: true, value: a.ok ? a.value : null, calls: 2, cached_calls: 2, cost_usd: 0 });
  });

  it('parses plain, fenced and prose-wrapped objects', () => {
    expect(parseJsonAnswer('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonAnswer('Here:\n```json\n{"a": 2}\n```\nDone.')).toEqual({ ok: true, value: { a: 2 } });
    expect(parseJsonAnswer('The answer is {"a": 3} as asked')).toEqual({ ok: true, value: { a: 3 } });
    expect(parseJsonAnswer('')).toEqual({ ok: false, problem: 'the answer is empty' });
    expect(parseJsonAnswer('{"a": ')).toMatchObject({ ok: false });
  });
});

describe('backoff', () => {
  it('doubles from the base with jitter, capped, and lets retry-after win', () => {
    expect(retryDelayMs(1, 1, 60, null, () => 1)).toBe(1000);
    expect(retryDelayMs(3, 1, 60, null, () => 1)).toBe(4000);
    expect(retryDelayMs(3, 1, 60, null, () => 0)).toBe(2000);
    expect(retryDelayMs(10, 1, 60, null, () => 1)).toBe(60_000);
    expect(retryDelayMs(1, 1, 60, new Headers({ 'retry-after': '7' }))).toBe(7000);
    expect(retryDelayMs(1, 1, 60, new Headers({ 'retry-after': '3600' }))).toBe(60_000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6_000);
  });
});
