import type Docker from 'dockerode';
import { join } from 'node:path';
import type { SandboxSettings } from '../config/schema.js';
import { packageRoot } from '../package-root.js';
import type { StageContext } from '../stage.js';
import { runContainer, type RunResult, type RunSpec } from './container-run.js';
import { openSession, type ContainerSession, type SessionSpec } from './container-session.js';
import { assertEngine, connectEngine } from './engine.js';
import { ensureImage, type BuiltImage } from './images.js';

/**
 * What a stage sees of the sandbox: images by name and runs with the configured limits,
 * network, CA bundle and labels already applied. One engine connection per settings.
 */
export interface Sandbox {
  docker: Docker;
  check(): Promise<void>;
  image(name: string): Promise<BuiltImage>;
  run(spec: StageRunSpec): Promise<RunResult>;
  /** A long-lived container for many commands (an agent's shell); the caller must `close()` it. */
  session(spec: StageSessionSpec): Promise<ContainerSession>;
}

export type StageSessionSpec = Pick<SessionSpec, 'image' | 'copies' | 'files' | 'workdir' | 'env' | 'maxLifetimeMs'> & {
  key: string;
};

export type StageRunSpec = Pick<RunSpec, 'image' | 'cmd' | 'copies' | 'files' | 'workdir' | 'env' | 'timeoutMs' | 'collect'> & {
  key: string;
};

const engines = new Map<string, Docker>();

export function sandboxFor(ctx: StageContext, stage: string): Sandbox {
  const s: SandboxSettings = ctx.config.config.sandbox;
  let docker = engines.get(s.docker_host);
  if (!docker) {
    docker = connectEngine(s);
    engines.set(s.docker_host, docker);
  }
  const d = docker;
  // The configured limits, network, CA bundle and labels every run and session gets.
  const configured = (key: string) => ({
    memoryMb: s.memory_mb,
    cpus: s.cpus,
    pids: s.pids,
    network: s.network,
    caBundle: s.ca_bundle || undefined,
    createTimeoutMs: s.create_timeout_seconds * 1000,
    logCap: s.log_cap_bytes,
    labels: { 'dev.envforge.stage': stage, 'dev.envforge.dataset': ctx.dataset, 'dev.envforge.key': key },
    signal: ctx.signal,
  });
  return {
    docker: d,
    check: () => assertEngine(d),
    image: (name) =>
      ensureImage(d, {
        name,
        imagesDir: join(packageRoot(), 'sandboxes', 'images'),
        baseImage: s.base_image,
        caBundle: s.ca_bundle,
        online: s.online_tools,
        onLog: (line) => ctx.log.info(line),
      }),
    run: (spec) => runContainer(d, { ...spec, ...configured(spec.key) }),
    session: (spec) => openSession(d, { ...spec, ...configured(spec.key) }),
  };
}

export function scriptsDir(): string {
  return join(packageRoot(), 'sandboxes', 'scripts');
}
