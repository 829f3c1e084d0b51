import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sandbox } from '../../pipeline/sandbox/sandbox.js';
import { scriptsDir } from '../../pipeline/sandbox/sandbox.js';
import type { PlannedStep } from './step-plan.js';
import { SandboxError } from '../../pipeline/sandbox/container-run.js';

/**
 * The literal executor: one container per README version. The planned steps are written to
 * /envforge/steps/<NNN>.sh, the checkout is copied to /src/<repo>, and the driver
 * (sandboxes/scripts/readme-steps.sh) runs them in order, recording each step's exit code,
 * duration and capped output. Steps that can never run in a sandbox are not sent: they are
 * recorded with `exit_code: null` and `kind: never`.
 */

export interface StepResult {
  n: number;
  line: number;
  end_line: number;
  text: string;
  kind: PlannedStep['kind'];
  why?: string;
  /** null: not run (never-runnable, or after a stop / the container's end). */
  exit_code: number | null;
  duration_ms: number | null;
  timed_out: boolean;
  output: string;
  output_bytes: number;
}

export interface ExecutorRun {
  steps: StepResult[];
  /** Container wall time, or null when the container never ran. */
  run_ms: number | null;
  /** Set when the sandbox failed us (engine, image, timeout of the whole run): infra_error. */
  infra: string | null;
}

export interface ExecutorOptions {
  key: string;
  image: string;
  checkout: string;
  repo: string;
  stepTimeoutSeconds: number;
  runTimeoutSeconds: number;
  onFailure: 'continue' | 'stop';
  outputCapBytes: number;
}

export async function executeSteps(sandbox: Sandbox, plan: readonly PlannedStep[], o: ExecutorOptions): Promise<ExecutorRun> {
  const driver = await readFile(join(scriptsDir(), 'readme-steps.sh'));
  const sent = plan.filter((s) => s.kind !== 'never');
  const files = [
    { path: '/envforge/readme-steps.sh', content: driver, mode: 0o755 },
    ...sent.map((s) => ({ path: `/envforge/steps/${pad(s.n)}.sh`, content: Buffer.from(s.command + '\n'), mode: 0o644 })),
  ];
  const res = await sandbox.run({
    key: o.key,
    image: o.image,
    cmd: ['bash', '/envforge/readme-steps.sh'],
    copies: [{ hostDir: o.checkout, containerPath: `/src/${o.repo}` }],
    files,
    workdir: `/src/${o.repo}`,
    env: {
      START: `/src/${o.repo}`,
      STEP_TIMEOUT: String(o.stepTimeoutSeconds),
      LOG_CAP: String(o.outputCapBytes),
      ON_FAILURE: o.onFailure,
      PIP_DISABLE_PIP_VERSION_CHECK: '1',
    },
    timeoutMs: o.runTimeoutSeconds * 1000,
    collect: '/envforge/out',
  });
  if (res.aborted) throw new Error('interrupted');
  const tsv = res.files.get('steps.tsv')?.toString('utf8');
  const byN = new Map<number, { exit: number; ms: number; bytes: number }>();
  for (const line of (tsv ?? '').split('\n')) {
    const [n, exit, ms, bytes] = line.split('\t');
    if (n && exit !== undefined) byN.set(Number(n), { exit: Number(exit), ms: Number(ms), bytes: Number(bytes) });
  }
  const steps: StepResult[] = plan.map((s) => {
    const r = byN.get(s.n);
    return {
      n: s.n,
      line: s.line,
      end_line: s.end_line,
      text: s.text,
      kind: s.kind,
      ...(s.why ? { why: s.why } : {}),
      exit_code: r ? r.exit : null,
      duration_ms: r ? r.ms : null,
      timed_out: r ? r.exit === 124 || r.exit === 137 : false,
      output: r ? (res.files.get(`${pad(s.n)}.log`)?.toString('utf8') ?? '') : '',
      output_bytes: r ? r.bytes : 0,
    };
  });
  let infra: string | null = null;
  if (res.timedOut) infra = `the README run did not finish within ${o.runTimeoutSeconds} s (validate.run_timeout_seconds)`;
  else if (tsv === undefined) infra = res.oomKilled ? 'killed at the memory limit (sandbox.memory_mb)' : `the driver wrote no result (container exit ${res.exitCode})`;
  return { steps, run_ms: res.durationMs, infra };
}

function pad(n: number): string {
  return String(n).padStart(3, '0');
}

/** A container a weak-llm trajectory runs its commands in, one exec each, state carried over. */
export interface StepSession {
  run(step: PlannedStep): Promise<{ result: StepResult | null; infra: string | null }>;
  close(): Promise<void>;
}

export async function openStepSession(sandbox: Sandbox, o: Omit<ExecutorOptions, 'onFailure'>): Promise<StepSession> {
  const shell = await readFile(join(scriptsDir(), 'agent-shell.sh'));
  const start = `/src/${o.repo}`;
  const session = await sandbox.session({
    key: o.key,
    image: o.image,
    copies: [{ hostDir: o.checkout, containerPath: start }],
    // agent-shell.sh starts every command where the previous one ended: here, at first.
    files: [
      { path: '/envforge/agent-shell.sh', content: shell, mode: 0o755 },
      { path: '/envforge/session/cwd', content: `${start}\n` },
    ],
    workdir: start,
    env: { PIP_DISABLE_PIP_VERSION_CHECK: '1' },
    maxLifetimeMs: o.runTimeoutSeconds * 1000,
  });
  return {
    async run(step) {
      const base = { n: step.n, line: step.line, end_line: step.end_line, text: step.text, kind: step.kind, ...(step.why ? { why: step.why } : {}) };
      if (step.kind === 'never') return { result: { ...base, exit_code: null, duration_ms: null, timed_out: false, output: '', output_bytes: 0 }, infra: null };
      try {
        const x = await session.exec(['bash', '/envforge/agent-shell.sh', step.command], { timeoutMs: o.stepTimeoutSeconds * 1000, cap: o.outputCapBytes });
        return {
          result: { ...base, exit_code: x.exitCode, duration_ms: x.durationMs, timed_out: x.timedOut, output: x.output, output_bytes: x.outputBytes },
          infra: null,
        };
      } catch (err) {
        if (err instanceof SandboxError) return { result: null, infra: `${err.phase}: ${err.message}` };
        throw err;
      }
    },
    close: () => session.close(),
  };
}
