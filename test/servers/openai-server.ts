import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A local server that speaks OpenAI's `/v1/chat/completions` wire format, for tests of
 * pipeline/llm and of any stage that calls a model. Answers come from a script (consumed in
 * order) and then from a `respond` function; a step can also be a 429 with retry-after, a 5xx,
 * or a body that is not JSON at all. Every request is recorded, so tests count what was sent.
 *
 *   const server = await openAiServer({ script: [{ status: 429, retryAfter: 0 }, { content: '{"a":1}' }] });
 *   // base_url = server.baseUrl  (http://127.0.0.1:<port>/v1)
 */

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
}

export type Step =
  /** A completion with this content; usage defaults to `defaultUsage` (null: no usage field). */
  | { content: string; usage?: Usage | null; finishReason?: string; model?: string }
  /** An error status with OpenAI's error body; `retryAfter` (seconds) sets the retry-after header. */
  | { status: number; message?: string; retryAfter?: number; retryAfterMs?: number }
  /** A 200 whose body is this text verbatim (e.g. truncated JSON). */
  | { rawBody: string; contentType?: string }
  /** An assistant message that calls tools (finish_reason `tool_calls`); `arguments` is the JSON text. */
  | { toolCalls: { id?: string; name: string; arguments: string }[]; content?: string | null; usage?: Usage | null };

export interface ChatBody {
  model: string;
  messages: { role: string; content: string; tool_call_id?: string; tool_calls?: unknown[] }[];
  temperature?: number;
  max_tokens?: number;
  seed?: number;
  response_format?: unknown;
  [k: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: ChatBody | undefined;
}

export interface OpenAiServerOptions {
  script?: Step[];
  /** Answers once the script is used up (default: `{"ok": true}`). */
  respond?: (body: ChatBody, n: number) => Step;
  /** When set, requests without `Authorization: Bearer <apiKey>` get a 401. */
  apiKey?: string;
}

export interface OpenAiServer {
  /** The base URL for the SDK and for `[llm.models.<name>].base_url`. */
  baseUrl: string;
  port: number;
  requests: RecordedRequest[];
  /** Chat completion requests received so far (errors included). */
  hits(): number;
  /** Append steps to the script. */
  push(...steps: Step[]): void;
  close(): Promise<void>;
}

/** Deterministic usage when a step gives none: a token per 4 characters of input / output. */
export function defaultUsage(body: ChatBody | undefined, content: string): Usage {
  const input = (body?.messages ?? []).reduce((n, m) => n + String(m.content).length, 0);
  return { prompt_tokens: Math.ceil(input / 4), completion_tokens: Math.ceil(content.length / 4) };
}

export async function openAiServer(opts: OpenAiServerOptions = {}): Promise<OpenAiServer> {
  const script = [...(opts.script ?? [])];
  const requests: RecordedRequest[] = [];
  let served = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(err));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: ChatBody | undefined;
    try {
      body = text ? (JSON.parse(text) as ChatBody) : undefined;
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '').split('?')[0]!;
    const record: RecordedRequest = { method: req.method ?? '', path, authorization: req.headers.authorization, body };
    requests.push(record);
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      return sendError(res, 404, `no route ${req.method} ${path}`);
    }
    if (opts.apiKey !== undefined && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return sendError(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
    }
    if (!body || !Array.isArray(body.messages)) return sendError(res, 400, 'messages is required');
    const n = served++;
    const step = script.shift() ?? opts.respond?.(body, n) ?? { content: '{"ok": true}' };
    if ('status' in step) {
      const headers: Record<string, string> = {};
      if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
      if (step.retryAfterMs !== undefined) headers['retry-after-ms'] = String(step.retryAfterMs);
      return sendError(res, step.status, step.message ?? `scripted ${step.status}`, undefined, headers);
    }
    if ('rawBody' in step) {
      res.writeHead(200, { 'Content-Type': step.contentType ?? 'application/json' });
      res.end(step.rawBody);
      return;
    }
    if ('toolCalls' in step) {
      const calls = step.toolCalls.map((c, i) => ({ id: c.id ?? `call_${n}_${i}`, type: 'function', function: { name: c.name, arguments: c.arguments } }));
      const tusage = step.usage === undefined ? defaultUsage(body, JSON.stringify(calls)) : step.usage;
      res.writeHead(200, { 'Content-Type': 'application/json', 'x-request-id': `req_${n}` });
      res.end(
        JSON.stringify({
          id: `chatcmpl-test-${n}`,
          object: 'chat.completion',
          created: 1_718_000_000 + n,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: step.content ?? null, refusal: null, tool_calls: calls }, logprobs: null, finish_reason: 'tool_calls' }],
          ...(tusage ? { usage: { ...tusage, total_tokens: tusage.prompt_tokens + tusage.completion_tokens } } : {}),
        }),
      );
      return;
    }
    const usage = step.usage === undefined ? defaultUsage(body, step.content) : step.usage;
    const payload = {
      id: `chatcmpl-test-${n}`,
      object: 'chat.completion',
      created: 1_718_000_000 + n,
      model: step.model ?? body.model,
      system_fingerprint: 'fp_envforge_test',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: step.content, refusal: null },
          logprobs: null,
          finish_reason: step.finishReason ?? 'stop',
        },
      ],
      ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
    };
    res.writeHead(200, { 'Content-Type': 'application/json', 'x-request-id': `req_${n}` });
    res.end(JSON.stringify(payload));
  }

  function sendError(res: ServerResponse, status: number, message: string, code?: string, headers: Record<string, string> = {}): void {
    const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: { message, type, param: null, code: code ?? type } }));
  }

  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    hits: () => requests.filter((r) => r.path.endsWith('/chat/completions')).length,
    push: (...steps) => script.push(...steps),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
