/**
 * A git operation that failed for a reason the clone stage reports as a row. The code is the
 * row's `reason`; the message keeps git's own last lines (credentials masked by the writer).
 */
export type GitFailureCode = 'repo_unavailable' | 'empty_repository' | 'revision_unavailable' | 'clone_timeout' | 'clone_failed';

export class GitFailure extends Error {
  override name = 'GitFailure';
  constructor(
    readonly code: GitFailureCode,
    message: string,
  ) {
    super(message);
  }
}

const UNAVAILABLE = [
  /does not appear to be a git repository/i,
  /repository .* not found/i,
  /repository not found/i,
  /could not read from remote repository/i,
  /unable to access/i,
  /authentication failed/i,
  /could not read username/i,
  /terminal prompts disabled/i,
  /HTTP 4\d\d/,
];
const NO_REVISION = [/not our ref/i, /couldn't find remote ref/i, /no such remote ref/i, /reference is not a tree/i, /unadvertised object/i, /did not match any/i];

export function classifyGitError(err: unknown): GitFailure {
  if (err instanceof GitFailure) return err;
  const text = err instanceof Error ? err.message : String(err);
  const lines = text.trim().split('\n').map((l) => l.trim()).filter(Boolean);
  const fatal = lines.filter((l) => /^(fatal|error):/.test(l));
  const tail = (fatal.length > 0 ? fatal : lines).slice(-3).join(' | ');
  if (NO_REVISION.some((r) => r.test(text))) return new GitFailure('revision_unavailable', tail);
  if (UNAVAILABLE.some((r) => r.test(text))) return new GitFailure('repo_unavailable', tail);
  return new GitFailure('clone_failed', tail);
}
