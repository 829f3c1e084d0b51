import { simpleGit, type SimpleGit } from 'simple-git';

/**
 * The one way envforge runs git: never an interactive prompt (no terminal, no credential
 * helper, ssh in batch mode), LFS content never downloaded, bounded by a signal that carries
 * both the per-repository timeout and the run's interrupt.
 */
const NON_INTERACTIVE_ENV: Record<string, string> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_LFS_SKIP_SMUDGE: '1',
  GIT_SSH_COMMAND: 'ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new',
  GCM_INTERACTIVE: 'never',
  GIT_ASKPASS: 'true',
  SSH_ASKPASS: 'true',
};

// Only what git needs to find itself, the network and its certificates: nothing that could
// change what it runs (EDITOR, PAGER, GIT_CONFIG_*) reaches it from the caller's environment.
const PASSED_THROUGH = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'SSH_AUTH_SOCK'];

export interface GitOptions {
  baseDir?: string;
  signal?: AbortSignal;
  /** Extra variables for this client (e.g. fixed author dates), on top of the safe defaults. */
  env?: Record<string, string>;
}

export function gitFor(opts: GitOptions = {}): SimpleGit {
  const env: Record<string, string> = {};
  for (const k of PASSED_THROUGH) if (process.env[k] !== undefined) env[k] = process.env[k]!;
  Object.assign(env, NON_INTERACTIVE_ENV, opts.env);
  return simpleGit({
    baseDir: opts.baseDir,
    abort: opts.signal,
    allowEnvironment: [...Object.keys(NON_INTERACTIVE_ENV), ...Object.keys(opts.env ?? {})],
    // An empty credential.helper stops system helpers from opening a prompt or keychain.
    config: ['credential.helper=', 'advice.detachedHead=false', 'init.defaultBranch=main'],
    // simple-git guards these because attacker-chosen values can run code; ours are constants above.
    unsafe: { allowUnsafeCredentialHelper: true, allowUnsafeAskPass: true, allowUnsafeSshCommand: true },
  }).env(env);
}
