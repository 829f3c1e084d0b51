import type Docker from 'dockerode';
import { messageOf } from '../../pipeline/errors.js';
import { LABEL } from '../../pipeline/sandbox/container-run.js';
import { assertEngine, connectEngine } from '../../pipeline/sandbox/engine.js';

/**
 * Docker tests need a real engine and the registry-free base image. They FAIL, never skip, when
 * either is missing: call these from `beforeAll`.
 */
export const BASE_IMAGE = 'envforge/base:bookworm';

/** The engine the sandbox adapter would use ($DOCKER_HOST, else the local socket), checked to answer. */
export async function requireDocker(): Promise<Docker> {
  const docker = connectEngine({ docker_host: '' });
  try {
    await assertEngine(docker, 15_000);
  } catch (err) {
    throw new Error(`no Docker engine: run make engine (${messageOf(err)})`);
  }
  return docker;
}

/** The engine and the base image every sandbox image builds FROM. */
export async function requireBaseImage(docker: Docker, image = BASE_IMAGE): Promise<void> {
  const found = await docker
    .getImage(image)
    .inspect()
    .catch(() => undefined);
  if (!found) throw new Error(`no base image ${image}: run make base-image`);
}

/** envforge containers (running or not) that carry this label, e.g. a per-test-file run label. */
export async function envforgeContainers(docker: Docker, label: string): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({ all: true, filters: { label: [`${LABEL}=1`, label] } });
}

/** Polls until `check` is true or `timeoutMs` passes; returns the last value of `check`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
