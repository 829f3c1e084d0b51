import type Docker from 'dockerode';
import { extract } from 'tar-stream';
import { messageOf } from '../errors.js';
import { CappedLog } from './capped-log.js';
import { archive, type ArchiveFile } from './repo-archive.js';

/**
 * One sandboxed command: create (limits, labels, no privileges, no host mounts but the CA
 * bundle), copy the inputs in, start, wait with a wall-clock timeout that kills, capture the
 * output within a cap, read back result files, and always remove the container.
 */
export interface RunSpec {
  image: string;
  cmd: string[];
  copies?: { hostDir: string; containerPath: string }[];
  files?: ArchiveFile[];
  workdir?: string;
  env?: Record<string, string>;
  memoryMb: number;
  cpus: number;
  pids: number;
  network: string;
  /** Host CA bundle to mount read-only and export to pip, requests, node and OpenSSL. */
  caBundle?: string;
  timeoutMs: number;
  createTimeoutMs: number;
  logCap: number;
  labels: Record<string, string>;
  /** A folder inside the container to read back after the run (small result files). */
  collect?: string;
  signal?: AbortSignal;
}

export interface RunResult {
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  oomKilled: boolean;
  durationMs: number;
  log: string;
  logBytes: number;
  logTruncated: boolean;
  imageId: string;
  files: Map<string, Buffer>;
}

/** The engine or the image failed us (not the code under test): the item is an `infra` failure. */
export class SandboxError extends Error {
  override name = 'SandboxError';
  constructor(
    readonly phase: 'create' | 'copy' | 'start' | 'wait' | 'collect',
    message: string,
  ) {
    super(message);
  }
}

export const CA_PATH = '/etc/envforge/ca-bundle.crt';
export const LABEL = 'dev.envforge';

/** Options every sandbox container is created with, whether it runs one command or a session. */
export type ContainerBase = Pick<RunSpec, 'image' | 'workdir' | 'env' | 'memoryMb' | 'cpus' | 'pids' | 'network' | 'caBundle' | 'createTimeoutMs' | 'labels'>;

/**
 * Create a container with the sandbox's settings: limits, no privileges, no host mounts but the
 * CA bundle (exported to pip, requests, node, curl, git and OpenSSL), the gc label. A failure
 * (engine, image, timeout) is a SandboxError of the `create` phase.
 */
export async function createSandboxContainer(docker: Docker, spec: ContainerBase, cmd: string[], labels: Record<string, string> = {}): Promise<Docker.Container> {
  const caEnv = spec.caBundle
    ? { SSL_CERT_FILE: CA_PATH, NODE_EXTRA_CA_CERTS: CA_PATH, PIP_CERT: CA_PATH, REQUESTS_CA_BUNDLE: CA_PATH, CURL_CA_BUNDLE: CA_PATH, GIT_SSL_CAINFO: CA_PATH }
    : {};
  try {
    return await withTimeout(
      docker.createContainer({
        Image: spec.image,
        Cmd: cmd,
        WorkingDir: spec.workdir,
        Env: Object.entries({ ...caEnv, ...spec.env }).map(([k, v]) => `${k}=${v}`),
        Labels: { [LABEL]: '1', ...labels, ...spec.labels },
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
        HostConfig: {
          Memory: spec.memoryMb * 1024 * 1024,
          MemorySwap: spec.memoryMb * 1024 * 1024,
          NanoCpus: Math.round(spec.cpus * 1e9),
          PidsLimit: spec.pids,
          NetworkMode: spec.network,
          Privileged: false,
          SecurityOpt: ['no-new-privileges'],
          Binds: spec.caBundle ? [`${spec.caBundle}:${CA_PATH}:ro`] : [],
        },
      }),
      spec.createTimeoutMs,
      'creating the container',
    );
  } catch (err) {
    throw new SandboxError('create', messageOf(err));
  }
}

/** Copy folders and files into a container (a copy: the host side is never touched). */
export async function copyInto(container: Docker.Container, copies: { hostDir: string; containerPath: string }[], files: ArchiveFile[]): Promise<void> {
  if (copies.length === 0 && files.length === 0) return;
  try {
    await container.putArchive(archive(copies, files) as unknown as NodeJS.ReadableStream, { path: '/' });
  } catch (err) {
    throw new SandboxError('copy', messageOf(err));
  }
}

export async function runContainer(docker: Docker, spec: RunSpec): Promise<RunResult> {
  const container = await createSandboxContainer(docker, spec, spec.cmd);
  const log = new CappedLog(spec.logCap);
  let timedOut = false;
  let aborted = false;
  const kill = () => container.kill().catch(() => {});
  const onAbort = () => {
    aborted = true;
    void kill();
  };
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await copyInto(container, spec.copies ?? [], spec.files ?? []);
    const stream = await container.attach({ stream: true, stdout: true, stderr: true });
    container.modem.demuxStream(stream, log, log);
    const ended = new Promise<void>((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', () => resolve());
    });
    if (spec.signal?.aborted) onAbort();
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    // An abort before the start (while copying, say) found nothing to kill: then never start.
    let status: { StatusCode: number } | undefined;
    let durationMs = 0;
    if (!aborted) {
      try {
        await container.start();
      } catch (err) {
        throw new SandboxError('start', messageOf(err));
      }
      // An abort during the start also killed nothing: kill now that it runs.
      if (aborted) void kill();
      timer = setTimeout(() => {
        timedOut = true;
        void kill();
      }, spec.timeoutMs);
      try {
        status = (await container.wait()) as { StatusCode: number };
      } catch (err) {
        throw new SandboxError('wait', messageOf(err));
      }
      clearTimeout(timer);
      durationMs = Date.now() - started;
      await withTimeout(ended, 5000, 'reading the output').catch(() => {});
    }
    const state = await container.inspect().catch(() => undefined);
    const files = spec.collect && !timedOut && !aborted ? await collectFiles(container, spec.collect) : new Map<string, Buffer>();
    return {
      exitCode: timedOut || aborted || !status ? null : status.StatusCode,
      timedOut,
      aborted,
      oomKilled: Boolean(state?.State?.OOMKilled),
      durationMs,
      log: log.text(),
      logBytes: log.total,
      logTruncated: log.truncated,
      imageId: state?.Image ?? '',
      files,
    };
  } finally {
    clearTimeout(timer);
    spec.signal?.removeEventListener('abort', onAbort);
    await container.remove({ force: true, v: true }).catch(() => {});
  }
}

/** Read a folder of small result files back from a container (absent folder: no files). */
export async function collectFiles(container: Docker.Container, path: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  let tar: NodeJS.ReadableStream;
  try {
    tar = await container.getArchive({ path });
  } catch {
    return files; // the run never created the folder: its absence is a result, not an error
  }
  const ex = extract();
  const MAX = 16 * 1024 * 1024;
  ex.on('entry', (header, body, next) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (data: unknown) => {
      const c = data as Buffer;
      if (size < MAX) chunks.push(c);
      size += c.length;
    });
    body.on('end', () => {
      if (header.type === 'file') files.set(header.name.split('/').slice(1).join('/'), Buffer.concat(chunks));
      next();
    });
    body.resume();
  });
  await new Promise<void>((resolve, reject) => {
    ex.on('finish', resolve);
    ex.on('error', (e) => reject(new SandboxError('collect', messageOf(e))));
    tar.pipe(ex);
  });
  return files;
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(t)),
    new Promise<T>((_, reject) => {
      t = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
    }),
  ]);
}

/** `envforge gc`: remove every envforge container left behind (a crash, a kill -9). */
export async function removeLeftovers(docker: Docker): Promise<string[]> {
  const list = await docker.listContainers({ all: true, filters: { label: [`${LABEL}=1`] } });
  await Promise.all(list.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => {})));
  return list.map((c) => c.Id.slice(0, 12));
}
