import Bottleneck from 'bottleneck';
import { Octokit } from 'octokit';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GitHubSettings } from '../config/schema.js';
import type { Logger } from '../log/logger.js';
import { redact } from '../log/secrets.js';
import { GitHubAuthError, GitHubError, GitHubNotJsonError, GitHubRateLimitError } from './errors.js';
import { resolveGitHub } from './settings.js';

/**
 * The one GitHub client of envforge: octokit (which composes @octokit/plugin-throttling and
 * @octokit/plugin-retry) with one instance per token, and a token pool around them.
 *
 * - retry plugin: 5xx and network errors (and per-attempt timeouts), backoff retry_base_ms * n².
 * - throttling plugin: paces GraphQL requests (graphql_interval_ms), waits `retry-after` on a
 *   secondary rate limit (up to `retries` times), and detects primary rate limits; those are
 *   handed back here (onRateLimit returns false) so the pool can switch to another token
 *   instead of sleeping on an exhausted one.
 * - the pool tracks `x-ratelimit-remaining/reset/resource` of every answer per token, skips a
 *   token as soon as its remaining quota for a resource is 0 (before GitHub has to refuse it),
 *   and when every token is exhausted waits (abortably) for the earliest reset if it is within
 *   max_rate_limit_wait_seconds, else throws GitHubRateLimitError.
 * - an answer that is not JSON (an HTML error page, with any status) is a GitHubNotJsonError,
 *   never "no results".
 * Tokens are only ever named by position (`token #2`).
 */

export type Resource = 'core' | 'graphql' | 'search';

export interface RestResponse<T = unknown> {
  status: number;
  headers: Record<string, string | undefined>;
  data: T;
}

export interface ClientOptions {
  apiUrl: string;
  tokens: string[];
  graphqlIntervalMs: number;
  retries: number;
  retryBaseMs: number;
  maxRateLimitWaitSeconds: number;
  timeoutSeconds: number;
  log: Logger;
}

interface Quota {
  remaining: number;
  resetAt: number;
}

interface Slot {
  label: string;
  octokit: Octokit;
  quotas: Map<string, Quota>;
  /** Exhausted per resource until this time (ms). */
  exhaustedUntil: Map<string, number>;
  dead: boolean;
  uses: number;
  /** Requests in flight per resource: they will spend quota the last answer did not see yet. */
  inFlight: Map<string, number>;
}

/** Counts of what this client did; the tests and the bench read them. */
export interface ClientStats {
  graphql: number;
  rest: number;
  rotations: number;
  rateLimitWaits: number;
}

export class GitHubClient {
  readonly stats: ClientStats = { graphql: 0, rest: 0, rotations: 0, rateLimitWaits: 0 };
  private readonly slots: Slot[];
  private readonly graphqlUrl: string;
  /** The token each resource is using now (index into slots). */
  private readonly current = new Map<Resource, number>();

  constructor(private readonly o: ClientOptions) {
    if (o.tokens.length === 0) {
      throw new GitHubAuthError('no GitHub token: set GITHUB_TOKEN (or GITHUB_TOKENS, comma-separated), or github.token(s) in the config', 0);
    }
    // GitHub Enterprise Server serves REST under /api/v3 and GraphQL under /api/graphql.
    this.graphqlUrl = /\/api\/v3$/.test(o.apiUrl) ? o.apiUrl.replace(/\/api\/v3$/, '/api/graphql') : `${o.apiUrl}/graphql`;
    this.slots = o.tokens.map((token, i) => this.makeSlot(token, i));
  }

  get tokenCount(): number {
    return this.slots.length;
  }

  private makeSlot(token: string, i: number): Slot {
    const label = `token #${i + 1}`;
    const log = this.o.log;
    const timeoutMs = this.o.timeoutSeconds * 1000;
    const retries = this.o.retries;
    const slot: Slot = { label, quotas: new Map(), exhaustedUntil: new Map(), dead: false, uses: 0, inFlight: new Map(), octokit: undefined as unknown as Octokit };
    const octokit = new Octokit({
      auth: token,
      baseUrl: this.o.apiUrl,
      userAgent: 'envforge',
      log: { debug: () => {}, info: () => {}, warn: (m: string) => log.debug(`github: ${m}`), error: (m: string) => log.warn(`github: ${m}`) },
      request: {
        // A per-attempt timeout: a hung answer becomes a network error, which the retry plugin retries.
        fetch: (url: string | URL, init: RequestInit = {}) =>
          fetch(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs) }),
      },
      retry: { retries, retryAfterBaseValue: this.o.retryBaseMs },
      throttle: {
        id: `envforge-${process.pid}-${i}`,
        // GitHub counts every GraphQL request like a write; the plugin's default spacing is 1 s.
        write: new Bottleneck.Group({ maxConcurrent: 1, minTime: this.o.graphqlIntervalMs }),
        onRateLimit: () => false,
        onSecondaryRateLimit: (retryAfter: number, options: { method: string; url: string }, _o: unknown, retryCount: number) => {
          if (retryCount >= retries) return false;
          log.warn(`github: secondary rate limit on ${label} (${options.method} ${options.url}): waiting ${retryAfter} s as retry-after says`);
          return true;
        },
      },
    });
    const track = (headers: Record<string, unknown> | undefined) => {
      if (!headers) return;
      const remaining = Number(headers['x-ratelimit-remaining']);
      const reset = Number(headers['x-ratelimit-reset']);
      const resource = String(headers['x-ratelimit-resource'] ?? 'core');
      if (!Number.isFinite(remaining) || !Number.isFinite(reset)) return;
      slot.quotas.set(resource, { remaining, resetAt: reset * 1000 });
      if (remaining <= 0) slot.exhaustedUntil.set(resource, reset * 1000);
    };
    octokit.hook.after('request', (response) => track(response.headers as Record<string, unknown>));
    octokit.hook.error('request', (error) => {
      track((error as { response?: { headers?: Record<string, unknown> } }).response?.headers);
      throw error;
    });
    slot.octokit = octokit;
    return slot;
  }

  /**
   * Tokens rotate when one is exhausted: a resource (core, graphql, search) keeps using its
   * current token until GitHub refuses it or reports 0 remaining (counting the requests still
   * in flight), then moves on to the next usable one. Undefined when no token is usable.
   */
  private pick(resource: Resource, now: number): Slot | undefined {
    const n = this.slots.length;
    const start = this.current.get(resource) ?? 0;
    let fallback: Slot | undefined;
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      const s = this.slots[i]!;
      if (s.dead || (s.exhaustedUntil.get(resource) ?? 0) > now) continue;
      const q = s.quotas.get(resource);
      const left = (q && q.resetAt > now ? q.remaining : Infinity) - (s.inFlight.get(resource) ?? 0);
      if (left > 0) {
        this.current.set(resource, i);
        return s;
      }
      // Only its in-flight requests would use up what is left: take it if nothing else is free.
      fallback ??= s;
    }
    return fallback;
  }

  private async withToken<T>(resource: Resource, what: string, signal: AbortSignal | undefined, call: (slot: Slot) => Promise<T>): Promise<T> {
    let last: Slot | undefined;
    for (;;) {
      signal?.throwIfAborted();
      const now = Date.now();
      const slot = this.pick(resource, now);
      if (!slot) {
        const alive = this.slots.filter((s) => !s.dead);
        if (alive.length === 0) throw new GitHubAuthError(`${what}: every GitHub token was rejected (401 Bad credentials)`, 401);
        const resetAt = Math.min(...alive.map((s) => s.exhaustedUntil.get(resource) ?? now));
        const waitMs = Math.max(0, resetAt - now) + 1000;
        if (waitMs > this.o.maxRateLimitWaitSeconds * 1000) {
          throw new GitHubRateLimitError(
            `${what}: the ${resource} rate limit of every GitHub token (${alive.length}) is exhausted until ${new Date(resetAt).toISOString()}; ` +
              `rerun after that time (the crawl resumes where it stopped), add tokens, or raise github.max_rate_limit_wait_seconds`,
            new Date(resetAt),
          );
        }
        this.stats.rateLimitWaits++;
        this.o.log.warn(`github: the ${resource} rate limit of every token is exhausted: waiting ${Math.ceil(waitMs / 1000)} s for the reset`);
        await sleep(waitMs, undefined, { signal });
        for (const s of alive) s.exhaustedUntil.delete(resource);
        continue;
      }
      if (last && last !== slot) {
        this.stats.rotations++;
        this.o.log.info(`github: switching to ${slot.label} (${last.label} is exhausted for ${resource})`);
      }
      last = slot;
      slot.uses++;
      slot.inFlight.set(resource, (slot.inFlight.get(resource) ?? 0) + 1);
      try {
        return await call(slot);
      } catch (err) {
        const limited = primaryRateLimit(err);
        if (limited) {
          slot.exhaustedUntil.set(resource, limited.resetAt);
          this.o.log.debug(`github: ${slot.label} hit the ${resource} rate limit (reset ${new Date(limited.resetAt).toISOString()})`);
          continue;
        }
        if (statusOf(err) === 401) {
          slot.dead = true;
          this.o.log.warn(`github: ${slot.label} was rejected (401 Bad credentials); not using it again`);
          continue;
        }
        throw toGitHubError(err, what, signal);
      } finally {
        slot.inFlight.set(resource, (slot.inFlight.get(resource) ?? 1) - 1);
      }
    }
  }

  /** One GraphQL request; `errors` in the answer are an error (GitHub's partial data is not a result). */
  async graphql<T>(query: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
    this.stats.graphql++;
    const what = 'POST /graphql';
    return this.withToken('graphql', what, signal, async (slot) => {
      const res = await slot.octokit.request({ method: 'POST', url: this.graphqlUrl, query, variables, request: { signal } });
      const body = ensureJson(res, what) as { data?: T; errors?: { type?: string; message?: string }[] };
      if (body.errors && body.errors.length > 0) {
        const rateLimited = body.errors.some((e) => e.type === 'RATE_LIMITED');
        if (rateLimited) throw Object.assign(new Error('GraphQL Rate Limit Exceeded'), { response: res, data: body });
        throw new GitHubError(`${what}: ${redact(body.errors.map((e) => e.message ?? e.type ?? 'error').join('; ')).slice(0, 500)}`, res.status);
      }
      if (!body.data || typeof body.data !== 'object') throw new GitHubError(`${what}: the answer has no "data"`, res.status);
      return body.data;
    });
  }

  /** One REST request (`GET /repos/{owner}/{repo}/contributors`, ...); 2xx answers must be JSON (204 has no body). */
  async rest<T = unknown>(route: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<RestResponse<T>> {
    this.stats.rest++;
    const resource: Resource = /^GET \/search\//.test(route) ? 'search' : 'core';
    const what = route.replace(/\{(\w+)\}/g, (_m, k: string) => String(params[k] ?? `{${k}}`));
    return this.withToken(resource, what, signal, async (slot) => {
      const res = await slot.octokit.request(route, { ...params, request: { signal } });
      const data = res.status === 204 ? null : ensureJson(res, what);
      return { status: res.status, headers: res.headers as Record<string, string | undefined>, data: data as T };
    });
  }
}

function statusOf(err: unknown): number | undefined {
  const s = (err as { status?: unknown })?.status;
  return typeof s === 'number' ? s : undefined;
}

/** A primary rate limit (quota exhausted) as GitHub signals it: 403/429 with remaining 0, or GraphQL RATE_LIMITED. */
function primaryRateLimit(err: unknown): { resetAt: number } | undefined {
  const e = err as { status?: number; message?: string; response?: { headers?: Record<string, unknown>; data?: unknown }; data?: unknown };
  const headers = e?.response?.headers ?? {};
  const data = (e?.data ?? e?.response?.data) as { errors?: { type?: string }[] } | undefined;
  const rateLimited =
    ((e?.status === 403 || e?.status === 429) && headers['x-ratelimit-remaining'] === '0') ||
    e?.message === 'GraphQL Rate Limit Exceeded' ||
    (Array.isArray(data?.errors) && data.errors.some((x) => x?.type === 'RATE_LIMITED'));
  if (!rateLimited) return undefined;
  const reset = Number(headers['x-ratelimit-reset']);
  return { resetAt: Number.isFinite(reset) && reset > 0 ? reset * 1000 : Date.now() + 60_000 };
}

function ensureJson(res: { status: number; headers: Record<string, unknown>; data: unknown }, what: string): unknown {
  const type = String(res.headers['content-type'] ?? '(none)');
  if (res.data === null || typeof res.data !== 'object' || res.data instanceof ArrayBuffer) {
    throw new GitHubNotJsonError(`${what}: HTTP ${res.status} with ${type} instead of JSON: ${snippet(res.data)}`, res.status);
  }
  return res.data;
}

function snippet(data: unknown): string {
  const text = typeof data === 'string' ? data : data instanceof ArrayBuffer ? `<${data.byteLength} bytes>` : String(data);
  // Redact before cutting: a token cut in half would no longer be recognised.
  const plain = redact(text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim());
  return JSON.stringify(plain.slice(0, 120) || '(empty)');
}

function toGitHubError(err: unknown, what: string, signal: AbortSignal | undefined): unknown {
  if (err instanceof GitHubError) return err;
  if (signal?.aborted) return signal.reason ?? err;
  const status = statusOf(err) ?? 0;
  const res = (err as { response?: { status: number; headers: Record<string, unknown>; data: unknown } }).response;
  if (res && (res.data === null || typeof res.data !== 'object')) {
    // An error status whose body is an HTML page (a proxy, a 502 from a load balancer): say so.
    const type = String(res.headers['content-type'] ?? '(none)');
    if (!/json/.test(type)) return new GitHubNotJsonError(`${what}: HTTP ${res.status} with ${type} instead of JSON (after retries): ${snippet(res.data)}`, res.status);
  }
  const message = redact(err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);
  return new GitHubError(status ? `${what}: HTTP ${status}: ${message}` : `${what}: ${message}`, status);
}

const clients = new Map<string, GitHubClient>();

/**
 * The process-wide client for a config's [github] section: the crawl (a source) and the
 * per-item contributor lookups (the search stage) share tokens, quotas and pacing.
 */
export function githubClientFor(settings: GitHubSettings, log: Logger, env: NodeJS.ProcessEnv = process.env): GitHubClient {
  const { apiUrl, tokens } = resolveGitHub(settings, env);
  const key = JSON.stringify([apiUrl, tokens, settings]);
  let c = clients.get(key);
  if (!c) {
    c = new GitHubClient({
      apiUrl,
      tokens,
      graphqlIntervalMs: settings.graphql_interval_ms,
      retries: settings.retries,
      retryBaseMs: settings.retry_base_ms,
      maxRateLimitWaitSeconds: settings.max_rate_limit_wait_seconds,
      timeoutSeconds: settings.timeout_seconds,
      log,
    });
    clients.set(key, c);
  }
  return c;
}

/** For tests: forget the shared clients (quota state) between cases. */
export function resetGitHubClients(): void {
  clients.clear();
}
