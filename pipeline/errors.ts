/**
 * The error taxonomy. Every failure that stops a command is one of these, caught in the
 * single top-level handler (cli/main.ts), which maps it to an exit code:
 *   ConfigError   2  the user's input is wrong (config file, flags, arguments)
 *   SetupError    3  the environment is broken (missing input stage, no Docker, bad export file)
 *   ExitError     n  a deliberate exit with a message (e.g. interrupted: 130)
 *   anything else 1  an internal error: a bug in envforge
 * Item-level failures are never thrown this far: they become `error` rows.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly exitCode = 2;
}

export class SetupError extends Error {
  override name = 'SetupError';
  readonly exitCode = 3;
}

export class ExitError extends Error {
  override name = 'ExitError';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export const EXIT = { ok: 0, internal: 1, config: 2, setup: 3, interrupted: 130 } as const;

export function exitCodeOf(err: unknown): number {
  if (err instanceof ConfigError || err instanceof SetupError || err instanceof ExitError) return err.exitCode;
  return EXIT.internal;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
