import { redact } from '../log/secrets.js';

/**
 * Failures of the GitHub adapter. Messages never carry a token: they name tokens by position
 * (`token #2`) and pass every server-provided text through `redact`.
 */
export class GitHubError extends Error {
  override name = 'GitHubError';
  constructor(
    message: string,
    /** HTTP status when there was an answer (0: none, e.g. a network error after every retry). */
    readonly status: number,
  ) {
    super(redact(message));
  }
}

/** The server answered something that is not the JSON GitHub speaks (an HTML error page, a proxy's page). */
export class GitHubNotJsonError extends GitHubError {
  override name = 'GitHubNotJsonError';
}

/** Every token is exhausted until a reset further away than the configured wait. */
export class GitHubRateLimitError extends GitHubError {
  override name = 'GitHubRateLimitError';
  constructor(
    message: string,
    readonly resetAt: Date,
  ) {
    super(message, 403);
  }
}

/** No token configured, or every token rejected (401). */
export class GitHubAuthError extends GitHubError {
  override name = 'GitHubAuthError';
}
