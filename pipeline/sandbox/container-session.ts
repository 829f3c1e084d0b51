import type Docker from 'dockerode';
import { PassThrough } from 'node:stream';
import { messageOf } from '../errors.js';
import { CappedLog } from './capped-log.js';
import { SandboxError, collectFiles, copyInto, createSandboxContainer, type RunSpec } from './container-run.js';
import type { ArchiveFile } from './repo-archive.js';

/**
 * A long-lived sandbox: one container (same limits, labels, CA bundle and no-privilege settings
 * as a run) kept alive while a caller runs many commands in it with `exec` — an agent's shell.
 * Each exec has its own wall-clock limit (enforced inside by coreutils `timeout`, and outside by
 * a host timer) and its own capped output. `close()` always removes the container; a session
 * left by a `kill -9` carries `dev.envforge=1` and is removed by `envforge gc`.
 */

export type SessionSpec = Omit<RunSpec, 'cmd' | 'timeoutMs' | 'collect'> & {
  /** Wall clock of the whole session: past it, every exec fails fast and the container is killed. */
  maxLifetimeMs?: number;
};

export interface ExecResult {
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  output: string;
  outputBytes: number;
  outputTruncated: boolean;
}

export interface ExecOptions {
  timeoutMs: number;
  /** Bytes of output kept (head and tail); default the session's logCap. */
  cap?: number;
  workdir?: string;
  env?: Record<string, string>;
}

export interface ContainerSession {
  id: string;
  imageId: string;
  exec(cmd: string[], opts: ExecOptions): Promise<ExecResult>;
  /** Write files into the running container. */
  put(files: ArchiveFile[]): Promise<void>;
  /** Read a folder of small result files back. */
  collect(path: string): Promise<Map<string, Buffer>>;
  close(): Promise<void>;
}

export async function openSession(docker: Docker, spec: SessionSpec): Promise<ContainerSession> {
  // PID 1 only waits; the session's commands are execs.
  const container = await createSandboxContainer(docker, spec, ['sh', '-c', 'trap "exit 0" TERM INT; while :; do sleep 3600 & wait $!; done'], {
    'dev.envforge.session': '1',
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    clearTimeout(lifetime);
    spec.signal?.removeEventListener('abort', onAbort);
    await container.remove({ force: true, v: true }).catch(() => {});
  };
  const onAbort = () => void close();
  let lifetime: NodeJS.Timeout | undefined;
  let expired = false;
  try {
    await copyInto(container, spec.copies ?? [], spec.files ?? []);
    try {
      await container.start();
    } catch (err) {
      throw new SandboxError('start', messageOf(err));
    }
  } catch (err) {
    await close();
    throw err;
  }
  if (spec.signal?.aborted) onAbort();
  spec.signal?.addEventListener('abort', onAbort, { once: true });
  if (spec.maxLifetimeMs) {
    lifetime = setTimeout(() => {
      expired = true;
      void container.kill().catch(() => {});
    }, spec.maxLifetimeMs);
  }
  const state = await container.inspect().catch(() => undefined);

  return {
    id: container.id,
    imageId: state?.Image ?? '',
    async exec(cmd, opts) {
      if (closed || expired) throw new SandboxError('wait', closed ? 'the session is closed' : 'the session reached its wall-clock limit');
      const secs = Math.max(1, Math.ceil(opts.timeoutMs / 1000));
      const log = new CappedLog(opts.cap ?? spec.logCap);
      const started = Date.now();
      let exec: Docker.Exec;
      try {
        exec = await container.exec({
          // Inside: a KILL after the limit, so a runaway command cannot outlive its step.
          Cmd: ['timeout', '-s', 'KILL', String(secs), ...cmd],
          AttachStdout: true,
          AttachStderr: true,
          WorkingDir: opts.workdir ?? spec.workdir,
          Env: opts.env ? Object.entries(opts.env).map(([k, v]) => `${k}=${v}`) : undefined,
        });
      } catch (err) {
        throw new SandboxError('start', messageOf(err));
      }
      let stream: NodeJS.ReadableStream;
      try {
        stream = (await exec.start({ hijack: true, stdin: false })) as unknown as NodeJS.ReadableStream;
      } catch (err) {
        throw new SandboxError('start', messageOf(err));
      }
      const out = new PassThrough();
      out.on('data', (c: Buffer) => log.push(c));
      container.modem.demuxStream(stream, out, out);
      let hostTimedOut = false;
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          hostTimedOut = true;
          resolve();
        }, opts.timeoutMs + 10_000);
        const done = () => {
          clearTimeout(t);
          resolve();
        };
        stream.on('end', done);
        stream.on('close', done);
        stream.on('error', done);
      });
      const info = await exec.inspect().catch(() => undefined);
      const code = info && !info.Running ? info.ExitCode : null;
      // coreutils timeout: 124 (TERM) / 137 (KILL) when it fired.
      const timedOut = hostTimedOut || (code === 137 && Date.now() - started >= opts.timeoutMs - 1000);
      if (expired) throw new SandboxError('wait', 'the session reached its wall-clock limit');
      return {
        exitCode: timedOut ? null : (code ?? null),
        timedOut,
        durationMs: Date.now() - started,
        output: log.text(),
        outputBytes: log.total,
        outputTruncated: log.truncated,
      };
    },
    put: (files) => copyInto(container, [], files),
    collect: (path) => collectFiles(container, path),
    close,
  };
}

