/**
 * Secrets registry. Values that came from environment variables through `${VAR}` config
 * interpolation (tokens, API keys) are registered here, and every string that leaves the
 * process — log lines, error messages, artifact columns — passes through `redact`. Doing it at
 * those boundaries means a stage cannot leak a token by echoing a URL or an exception.
 */
const secrets = new Set<string>();

// Short values (e.g. "1" or "on") would redact unrelated text; no real credential is this short.
const MIN_SECRET_LENGTH = 6;

export function registerSecret(value: string | undefined): void {
  if (value && value.length >= MIN_SECRET_LENGTH) secrets.add(value);
}

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('***');
  // Credentials embedded in URLs (https://user:token@host) are masked even when not registered.
  return out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, '$1***@');
}

export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map(redactValue) as T;
  return value;
}

/** For tests only: forget every registered secret. */
export function clearSecrets(): void {
  secrets.clear();
}
