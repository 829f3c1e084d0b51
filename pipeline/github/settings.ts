import type { GitHubSettings } from '../config/schema.js';
import { ConfigError } from '../errors.js';
import { registerSecret } from '../log/secrets.js';

export const DEFAULT_API_URL = 'https://api.github.com';

export interface ResolvedGitHub {
  /** REST base URL without a trailing slash; GraphQL is `<apiUrl>/graphql` (GHES: `/api/graphql`). */
  apiUrl: string;
  /** Distinct tokens in order; each one is registered with the log redactor. */
  tokens: string[];
}

/**
 * Where to talk and with which tokens. `ENVFORGE_GITHUB_API_URL` wins over `github.api_url`, so
 * any config can be pointed at a GitHub-compatible server (the tests' fake). Tokens come from
 * `github.tokens` (comma-separated) and `github.token`, else from $GITHUB_TOKENS / $GITHUB_TOKEN.
 * Each token is registered as a secret one by one: the config loader only registered the whole
 * comma-separated value, which would not mask a single token echoed somewhere.
 */
export function resolveGitHub(settings: GitHubSettings, env: NodeJS.ProcessEnv = process.env): ResolvedGitHub {
  const rawUrl = (env.ENVFORGE_GITHUB_API_URL?.trim() || settings.api_url.trim() || DEFAULT_API_URL).replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ConfigError(`github.api_url: expected an http(s) URL, got ${JSON.stringify(rawUrl)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`github.api_url: expected an http(s) URL, got ${JSON.stringify(rawUrl)}`);
  const split = (v: string | undefined) => (v ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  let tokens = [...split(settings.tokens), ...split(settings.token)];
  if (tokens.length === 0) tokens = [...split(env.GITHUB_TOKENS), ...split(env.GITHUB_TOKEN)];
  tokens = [...new Set(tokens)];
  for (const t of tokens) registerSecret(t);
  return { apiUrl: rawUrl, tokens };
}
