import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type Docker from 'dockerode';
import { pack } from 'tar-stream';
import { SetupError, messageOf } from '../errors.js';

/**
 * Sandbox images, built through the Docker API from `sandboxes/images/<name>/` and tagged by a
 * hash of everything that decides their content (files, build arguments, base image id, CA
 * bundle), so an unchanged image is never rebuilt and a changed one always is.
 */
export interface ImageRequest {
  name: string;
  imagesDir: string;
  baseImage: string;
  /** PEM bundle baked in as extra-ca.crt for egress proxies; empty for none. */
  caBundle: string;
  online: boolean;
  onLog?: (line: string) => void;
}

export interface BuiltImage {
  tag: string;
  id: string;
  built: boolean;
}

const inFlight = new Map<string, Promise<BuiltImage>>();

export async function ensureImage(docker: Docker, req: ImageRequest): Promise<BuiltImage> {
  const dir = join(req.imagesDir, req.name);
  if (!existsSync(join(dir, 'Dockerfile'))) throw new SetupError(`no sandbox image "${req.name}": ${dir}/Dockerfile does not exist`);
  const base = await docker
    .getImage(req.baseImage)
    .inspect()
    .catch(() => {
      throw new SetupError(`base image ${req.baseImage} is missing: run \`make base-image\` (sandboxes/bootstrap-base.sh builds it without a registry)`);
    });
  const files = await contextFiles(dir, req.caBundle);
  const buildargs = { BASE_IMAGE: req.baseImage, ONLINE: req.online ? '1' : '0' };
  const hash = createHash('sha256');
  for (const [path, content] of files) hash.update(`${path}\0${content.length}\0`).update(content);
  hash.update(JSON.stringify(buildargs)).update(base.Id);
  const tag = `envforge/${req.name}:${hash.digest('hex').slice(0, 12)}`;

  let job = inFlight.get(tag);
  if (!job) {
    job = buildIfMissing(docker, tag, files, buildargs, req).finally(() => inFlight.delete(tag));
    inFlight.set(tag, job);
  }
  return job;
}

async function buildIfMissing(
  docker: Docker,
  tag: string,
  files: [string, Buffer][],
  buildargs: Record<string, string>,
  req: ImageRequest,
): Promise<BuiltImage> {
  const existing = await docker.getImage(tag).inspect().catch(() => undefined);
  if (existing) return { tag, id: existing.Id, built: false };
  req.onLog?.(`building sandbox image ${tag} (${req.name}); later runs reuse it`);
  const tar = pack();
  for (const [name, content] of files) tar.entry({ name, mode: 0o644 }, content);
  tar.finalize();
  const tail: string[] = [];
  try {
    const stream = await docker.buildImage(tar as unknown as NodeJS.ReadableStream, {
      t: tag,
      buildargs,
      // Not dev.envforge=1: containers inherit image labels, and that one marks what `gc` removes.
      labels: { 'dev.envforge.image': req.name },
      rm: true,
      forcerm: true,
    });
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(
        stream,
        (err: Error | null, events: { error?: string }[]) => {
          const failed = err ?? events.find((e) => e.error);
          if (failed) reject(new Error(failed instanceof Error ? failed.message : String(failed.error)));
          else resolve();
        },
        (event: { stream?: string; error?: string }) => {
          for (const line of (event.stream ?? event.error ?? '').split('\n')) {
            if (!line.trim()) continue;
            tail.push(line);
            if (tail.length > 20) tail.shift();
          }
        },
      );
    });
  } catch (err) {
    throw new SetupError(`sandbox image ${req.name} failed to build: ${messageOf(err)}\n${tail.join('\n')}`);
  }
  const built = await docker.getImage(tag).inspect();
  return { tag, id: built.Id, built: true };
}

async function contextFiles(dir: string, caBundle: string): Promise<[string, Buffer][]> {
  const out: [string, Buffer][] = [];
  const walk = async (d: string) => {
    for (const e of (await readdir(d, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile() && e.name !== 'extra-ca.crt') out.push([relative(dir, p), await readFile(p)]);
    }
  };
  await walk(dir);
  out.push(['extra-ca.crt', caBundle ? await readFile(caBundle) : Buffer.alloc(0)]);
  return out;
}
