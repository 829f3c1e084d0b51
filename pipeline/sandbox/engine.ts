import Docker from 'dockerode';
import type { SandboxSettings } from '../config/schema.js';
import { SetupError, messageOf } from '../errors.js';

/**
 * The Docker engine the sandboxes run on: any Docker API endpoint (local socket, tcp://,
 * ssh://), so many machines can share work. Checked once before a stage that needs it.
 */
export function connectEngine(s: Pick<SandboxSettings, 'docker_host'>, env: NodeJS.ProcessEnv = process.env): Docker {
  const host = s.docker_host || env.DOCKER_HOST || '';
  if (!host) return new Docker({ socketPath: '/var/run/docker.sock' });
  if (host.startsWith('unix://')) return new Docker({ socketPath: host.slice('unix://'.length) });
  if (host.startsWith('/')) return new Docker({ socketPath: host });
  const url = new URL(host);
  if (url.protocol === 'ssh:') {
    return new Docker({ protocol: 'ssh', host: url.hostname, port: Number(url.port || 22), username: url.username || undefined });
  }
  if (url.protocol === 'tcp:' || url.protocol === 'http:' || url.protocol === 'https:') {
    const tls = url.protocol === 'https:' || env.DOCKER_TLS_VERIFY === '1';
    return new Docker({ protocol: tls ? 'https' : 'http', host: url.hostname, port: Number(url.port || (tls ? 2376 : 2375)) });
  }
  throw new SetupError(`sandbox.docker_host ${JSON.stringify(host)}: expected unix://PATH, tcp://HOST:PORT or ssh://USER@HOST`);
}

export function describeEndpoint(docker: Docker): string {
  const m = docker.modem as unknown as { socketPath?: string; host?: string; port?: number; protocol?: string };
  return m.socketPath ? `unix://${m.socketPath}` : `${m.protocol ?? 'tcp'}://${m.host}:${m.port}`;
}

/** One actionable message when no engine answers, instead of an error per item. */
export async function assertEngine(docker: Docker, timeoutMs = 10_000): Promise<void> {
  try {
    await Promise.race([
      docker.ping(),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs).unref()),
    ]);
  } catch (err) {
    throw new SetupError(
      `no Docker engine at ${describeEndpoint(docker)} (${messageOf(err).split('\n')[0]}): start one ` +
        '(Debian: apt-get install -y docker.io && dockerd &), or point DOCKER_HOST / sandbox.docker_host at a running engine',
    );
  }
}
