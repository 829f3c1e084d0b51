/**
 * How long to wait before retry `attempt` (1-based): exponential from `baseSeconds`, capped, with
 * jitter; a server's `retry-after-ms` / `retry-after` (seconds or an HTTP date) wins, capped too.
 */
export function retryDelayMs(attempt: number, baseSeconds: number, maxSeconds: number, headers?: Headers | null, random = Math.random): number {
  const cap = maxSeconds * 1000;
  const hinted = retryAfterMs(headers);
  if (hinted !== undefined) return Math.min(hinted, cap);
  const exp = baseSeconds * 1000 * 2 ** (attempt - 1);
  return Math.min(cap, exp * (0.5 + random() / 2));
}

export function retryAfterMs(headers?: Headers | null, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(after.trim())) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A retryable HTTP status: rate limits, timeouts, conflicts and server errors. */
export function isRetryableStatus(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
}
