import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SetupError } from '../pipeline/errors.js';
import { LABEL, removeLeftovers, runContainer, SandboxError, type RunSpec } from '../pipeline/sandbox/container-run.js';
import { assertEngine, connectEngine } from '../pipeline/sandbox/engine.js';
import { ensureImage, type ImageRequest } from '../pipeline/sandbox/images.js';
import { BASE_IMAGE, envforgeContainers, requireBaseImage, requireDocker, waitFor } from './helpers/docker.js';
import { tempDirs } from './helpers/temp-dir.js';

/**
 * The sandbox adapter against a real engine: a tiny image built FROM the base image (no
 * network needed), real containers with limits, timeouts, aborts, log caps, copies in and
 * files out. Every container of this file carries a per-run label, so the leftover checks and
 * the cleanup never touch containers of other tests running at the same time.
 */
const RUN = `dev.envforge.test=sandbox-${randomBytes(4).toString('hex')}`;
const [RUN_KEY, RUN_VALUE] = RUN.split('=') as [string, string];

const dirs = tempDirs();
let docker: Docker;
let imagesDir: string;
let image: string;
let imageId: string;
const builtTags: string[] = [];

function request(over: Partial<ImageRequest> = {}): ImageRequest {
  return { name: 'tiny', imagesDir, baseImage: BASE_IMAGE, caBundle: '', online: false, ...over };
}

function spec(over: Partial<RunSpec>): RunSpec {
  return {
    image,
    cmd: ['true'],
    memoryMb: 256,
    cpus: 1,
    pids: 256,
    network: 'none',
    timeoutMs: 30_000,
    createTimeoutMs: 30_000,
    logCap: 64 * 1024,
    labels: { [RUN_KEY]: RUN_VALUE },
    ...over,
  };
}

const sh = (script: string) => ['bash', '-c', script];
const leftovers = () => envforgeContainers(docker, RUN);

beforeAll(async () => {
  docker = await requireDocker();
  await requireBaseImage(docker);
  imagesDir = dirs.make('envforge-images-');
  mkdirSync(join(imagesDir, 'tiny'));
  // A fresh nonce per run, so the first build really builds and the image can be removed after.
  writeFileSync(join(imagesDir, 'tiny', 'Dockerfile'), 'ARG BASE_IMAGE=envforge/base:bookworm\nFROM ${BASE_IMAGE}\nCOPY nonce /nonce\n');
  writeFileSync(join(imagesDir, 'tiny', 'nonce'), randomBytes(8).toString('hex'));
  const built = await ensureImage(docker, request());
  expect(built.built).toBe(true);
  image = built.tag;
  imageId = built.id;
  builtTags.push(built.tag);
}, 120_000);

afterAll(async () => {
  if (docker) {
    for (const c of await leftovers().catch(() => [])) await docker.getContainer(c.Id).remove({ force: true }).catch(() => {});
    for (const tag of builtTags) await docker.getImage(tag).remove({ force: true }).catch(() => {});
  }
  dirs.cleanup();
});

describe('images', () => {
  it('reuses an image whose context did not change, and builds a new tag when a file changes', async () => {
    const again = await ensureImage(docker, request());
    expect(again).toEqual({ tag: image, id: imageId, built: false });
    expect(image).toMatch(/^envforge\/tiny:[0-9a-f]{12}$/);
    const info = await docker.getImage(image).inspect();
    // Images carry their name but not the gc label, which containers would inherit.
    expect(info.Config.Labels).toMatchObject({ 'dev.envforge.image': 'tiny' });
    expect(info.Config.Labels?.[LABEL]).toBeUndefined();

    writeFileSync(join(imagesDir, 'tiny', 'nonce'), randomBytes(8).toString('hex'));
    const changed = await ensureImage(docker, request());
    builtTags.push(changed.tag);
    expect(changed.built).toBe(true);
    expect(changed.tag).not.toBe(image);
    expect(changed.id).not.toBe(imageId);
    // The build arguments are part of the tag too.
    const online = await ensureImage(docker, request({ online: true }));
    builtTags.push(online.tag);
    expect(online.tag).not.toBe(changed.tag);
  });

  it('builds an image once when two stages ask for it at the same time', async () => {
    writeFileSync(join(imagesDir, 'tiny', 'nonce'), randomBytes(8).toString('hex'));
    const [a, b] = await Promise.all([ensureImage(docker, request()), ensureImage(docker, request())]);
    builtTags.push(a.tag);
    expect(a).toEqual(b);
    expect(a.built).toBe(true);
  });

  it('says which Dockerfile is missing and which base image to make', async () => {
    await expect(ensureImage(docker, request({ name: 'nope' }))).rejects.toThrow(SetupError);
    await expect(ensureImage(docker, request({ name: 'nope' }))).rejects.toThrow(/no sandbox image "nope".*Dockerfile does not exist/);
    const missingBase = ensureImage(docker, request({ baseImage: 'envforge/base:does-not-exist' }));
    await expect(missingBase).rejects.toThrow(SetupError);
    await expect(ensureImage(docker, request({ baseImage: 'envforge/base:does-not-exist' }))).rejects.toThrow(/make base-image/);
  });

  it('reports a failing build with the tail of its output', async () => {
    mkdirSync(join(imagesDir, 'broken'));
    writeFileSync(join(imagesDir, 'broken', 'Dockerfile'), `ARG BASE_IMAGE\nFROM \${BASE_IMAGE}\nRUN echo "about to fail ${randomBytes(4).toString('hex')}" && exit 7\n`);
    const err = await ensureImage(docker, request({ name: 'broken' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SetupError);
    expect((err as Error).message).toMatch(/sandbox image broken failed to build/);
    expect((err as Error).message).toContain('about to fail');
  });
});

describe('assertEngine', () => {
  it('throws one actionable SetupError for an endpoint where no engine answers', async () => {
    const dead = connectEngine({ docker_host: 'tcp://127.0.0.1:1' });
    const t0 = Date.now();
    const err = await assertEngine(dead, 5000).catch((e: unknown) => e);
    expect(Date.now() - t0).toBeLessThan(8000);
    expect(err).toBeInstanceOf(SetupError);
    const msg = (err as Error).message;
    expect(msg).toContain('no Docker engine at http://127.0.0.1:1');
    expect(msg).toMatch(/DOCKER_HOST|sandbox\.docker_host/);
  });

  it('passes against the engine the tests use', async () => {
    await expect(assertEngine(docker)).resolves.toBeUndefined();
  });
});

describe('runContainer', () => {
  it('returns exact exit codes (the status is one byte: 444 arrives as 188)', async () => {
    const ok = await runContainer(docker, spec({ cmd: sh('echo out; echo err >&2; exit 0') }));
    expect(ok.exitCode).toBe(0);
    expect(ok.timedOut).toBe(false);
    expect(ok.aborted).toBe(false);
    expect(ok.oomKilled).toBe(false);
    expect(ok.log).toContain('out\n');
    expect(ok.log).toContain('err\n');
    expect(ok.logTruncated).toBe(false);
    expect(ok.imageId).toBe(imageId);

    expect((await runContainer(docker, spec({ cmd: sh('exit 3') }))).exitCode).toBe(3);
    expect((await runContainer(docker, spec({ cmd: sh('exit 444') }))).exitCode).toBe(444 % 256);
    expect(await leftovers()).toEqual([]);
  });

  it('kills a run at the wall-clock timeout and removes the container', async () => {
    const t0 = Date.now();
    const res = await runContainer(docker, spec({ cmd: ['sleep', '600'], timeoutMs: 1500 }));
    const elapsed = Date.now() - t0;
    expect(res.timedOut).toBe(true);
    expect(res.exitCode).toBeNull();
    expect(res.aborted).toBe(false);
    expect(res.durationMs).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(10_000);
    expect(await leftovers()).toEqual([]);
  });

  it('holds a process to the memory limit', async () => {
    // tail keeps the one endless "line" in memory: far beyond 64 MB.
    // A child killed at the limit (SIGKILL: 137); the container's main process lives on.
    const child = await runContainer(docker, spec({ cmd: sh('head -c 300m /dev/zero | tail > /dev/null; echo "pipeline exit $?"'), memoryMb: 64 }));
    expect(child.log).toContain('pipeline exit 137');
    expect(child.exitCode).toBe(0);

    // The main process itself grows past the limit: the run ends with 137, reported as OOM.
    const main = await runContainer(docker, spec({ cmd: sh('x=$(head -c 300m /dev/zero | tr "\\0" a); echo survived ${#x}'), memoryMb: 64 }));
    expect(main.log).not.toContain('survived');
    expect(main.exitCode).toBe(137);
    expect(main.oomKilled).toBe(true);
    expect(main.timedOut).toBe(false);
  });

  it('applies the memory, pids and network limits it is given', async () => {
    const res = await runContainer(
      docker,
      spec({
        cmd: sh(
          'cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.max; ' +
            'cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids.max; ' +
            'ls /sys/class/net | sort | tr "\\n" " "; echo; id -u',
        ),
        memoryMb: 96,
        pids: 40,
        network: 'none',
      }),
    );
    expect(res.exitCode).toBe(0);
    const [mem, pids, nets] = res.log.split('\n');
    expect(Number(mem)).toBe(96 * 1024 * 1024);
    expect(pids).toBe('40');
    expect(nets!.trim()).toBe('lo');
  });

  it('caps the log: head and tail kept, total size recorded', async () => {
    const res = await runContainer(
      docker,
      spec({ cmd: sh('echo FIRST-LINE; head -c 1048576 /dev/zero | tr "\\0" x; echo; echo LAST-LINE'), logCap: 4096 }),
    );
    expect(res.exitCode).toBe(0);
    expect(res.logTruncated).toBe(true);
    expect(res.logBytes).toBe(11 + 1048576 + 1 + 10);
    expect(res.logBytes).toBeGreaterThanOrEqual(1024 * 1024);
    expect(res.log.startsWith('FIRST-LINE\nxxx')).toBe(true);
    expect(res.log.endsWith('xxx\nLAST-LINE\n')).toBe(true);
    expect(res.log).toMatch(/\[\.\.\. \d+ bytes omitted by envforge \.\.\.\]/);
    expect(res.log.length).toBeGreaterThan(4096);
    expect(res.log.length).toBeLessThan(4096 + 100);
  });

  it('reads back the files of the collect folder, and nothing when the folder was never made', async () => {
    const res = await runContainer(
      docker,
      spec({
        cmd: sh('mkdir -p /out/sub && echo -n 1 > /out/a.txt && printf "{\\"k\\": 2}" > /out/sub/b.json && ln -s a.txt /out/link'),
        collect: '/out',
      }),
    );
    expect(res.exitCode).toBe(0);
    expect([...res.files.keys()].sort()).toEqual(['a.txt', 'sub/b.json']);
    expect(res.files.get('a.txt')!.toString()).toBe('1');
    expect(JSON.parse(res.files.get('sub/b.json')!.toString())).toEqual({ k: 2 });

    const none = await runContainer(docker, spec({ cmd: ['true'], collect: '/never-made' }));
    expect(none.exitCode).toBe(0);
    expect(none.files.size).toBe(0);
  });

  it('passes generated files with their mode, the working directory and the environment', async () => {
    const res = await runContainer(
      docker,
      spec({
        cmd: ['/envforge/hello.sh'],
        files: [
          { path: '/envforge/hello.sh', content: '#!/bin/bash\necho "in $(pwd) as $GREETING"; cat /envforge/data.bin | wc -c\n', mode: 0o755 },
          { path: 'envforge/data.bin', content: Buffer.alloc(1234, 7) },
        ],
        workdir: '/tmp',
        env: { GREETING: 'hello there' },
      }),
    );
    expect(res.exitCode).toBe(0);
    expect(res.log).toBe('in /tmp as hello there\n1234\n');
  });

  it('mounts the CA bundle read-only and points the tools at it', async () => {
    const dir = dirs.make('envforge-ca-');
    const bundle = join(dir, 'bundle.pem');
    writeFileSync(bundle, '-----BEGIN CERTIFICATE-----\nnot really\n-----END CERTIFICATE-----\n');
    const res = await runContainer(
      docker,
      spec({ cmd: sh('cat "$SSL_CERT_FILE"; echo "$PIP_CERT $NODE_EXTRA_CA_CERTS"; echo x >> "$SSL_CERT_FILE" || echo read-only'), caBundle: bundle }),
    );
    expect(res.exitCode).toBe(0);
    expect(res.log).toContain('not really');
    expect(res.log).toContain('/etc/envforge/ca-bundle.crt /etc/envforge/ca-bundle.crt');
    expect(res.log).toContain('read-only');
    expect(readFileSync(bundle, 'utf8')).not.toContain('x\n-');
  });

  it('gives the container a copy of the repository: the host folder is untouched, symlinks stay links', async () => {
    const root = dirs.make('envforge-repo-');
    const repo = join(root, 'repo');
    const secret = join(root, 'secret.txt');
    writeFileSync(secret, 'host secret 12345\n');
    mkdirSync(join(repo, 'src'), { recursive: true });
    writeFileSync(join(repo, 'README.md'), 'readme\n');
    writeFileSync(join(repo, 'src', 'main.py'), 'print(1)\n');
    writeFileSync(join(repo, 'run.sh'), '#!/bin/sh\necho ran\n', { mode: 0o755 });
    symlinkSync('README.md', join(repo, 'inside-link'));
    symlinkSync(secret, join(repo, 'outside-link'));
    symlinkSync('../secret.txt', join(repo, 'relative-outside-link'));
    const before = snapshot(repo);

    const res = await runContainer(
      docker,
      spec({
        cmd: sh(
          [
            'cd /repo',
            'test -L inside-link && echo "inside: $(readlink inside-link) -> $(cat inside-link)"',
            'test -L outside-link && echo "outside: $(readlink outside-link)"',
            'cat outside-link 2>/dev/null || echo "outside target absent"',
            'test -L relative-outside-link && echo "relative: $(readlink relative-outside-link)"',
            'test -x run.sh && ./run.sh',
            'echo changed > README.md; rm src/main.py; echo new > added.txt; rm inside-link',
            'echo pwned > outside-link; echo pwned > relative-outside-link',
            'ls -A /repo | sort | tr "\\n" " "',
          ].join('\n'),
        ),
        copies: [{ hostDir: repo, containerPath: '/repo' }],
      }),
    );
    expect(res.exitCode).toBe(0);
    expect(res.log).toContain('inside: README.md -> readme');
    expect(res.log).toContain(`outside: ${secret}`);
    expect(res.log).toContain('outside target absent');
    expect(res.log).toContain('relative: ../secret.txt');
    expect(res.log).toContain('ran\n');
    expect(res.log).not.toContain('host secret');
    expect(res.log).toContain('README.md added.txt outside-link relative-outside-link run.sh src');

    expect(snapshot(repo)).toEqual(before);
    expect(readFileSync(secret, 'utf8')).toBe('host secret 12345\n');
    expect(lstatSync(join(repo, 'outside-link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(repo, 'outside-link'))).toBe(secret);
  });

  it('stops and removes the container when the run is aborted', async () => {
    const controller = new AbortController();
    const t0 = Date.now();
    const running = runContainer(docker, spec({ cmd: ['sleep', '600'], signal: controller.signal, labels: { [RUN_KEY]: RUN_VALUE, 'dev.envforge.key': 'abort-me' } }));
    const seen = await waitFor(async () => (await leftovers()).some((c) => c.State === 'running'), 20_000);
    expect(seen).toBe(true);
    const [live] = await leftovers();
    expect(live!.Labels).toMatchObject({ [LABEL]: '1', [RUN_KEY]: RUN_VALUE, 'dev.envforge.key': 'abort-me' });
    controller.abort();
    const res = await running;
    expect(res.aborted).toBe(true);
    expect(res.timedOut).toBe(false);
    expect(res.exitCode).toBeNull();
    expect(Date.now() - t0).toBeLessThan(25_000);
    expect(await leftovers()).toEqual([]);
  });

  it('never starts a run aborted while its files are copied in', async () => {
    const repo = dirs.make('envforge-big-');
    // 300 MB of zeros (a sparse file: cheap on the host, slow enough to stream into the container).
    writeFileSync(join(repo, 'small.txt'), 'x');
    truncateSync(join(repo, 'small.txt'), 300 * 1024 * 1024);
    const controller = new AbortController();
    const t0 = Date.now();
    const running = runContainer(
      docker,
      spec({ cmd: ['sleep', '600'], copies: [{ hostDir: repo, containerPath: '/repo' }], timeoutMs: 60_000, signal: controller.signal }),
    );
    expect(await waitFor(async () => (await leftovers()).length > 0, 20_000, 20)).toBe(true);
    controller.abort();
    const res = await running;
    expect(res.aborted).toBe(true);
    expect(res.exitCode).toBeNull();
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(await leftovers()).toEqual([]);
  });

  it('does not run at all when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const t0 = Date.now();
    const res = await runContainer(docker, spec({ cmd: sh('sleep 600'), signal: controller.signal }));
    expect(res.aborted).toBe(true);
    expect(res.exitCode).toBeNull();
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(await leftovers()).toEqual([]);
  });

  it('throws SandboxError(create) for an image that does not exist, leaving nothing behind', async () => {
    const err = await runContainer(docker, spec({ image: 'envforge/no-such-image:0' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxError);
    expect((err as SandboxError).phase).toBe('create');
    expect(await leftovers()).toEqual([]);
  });

  it('throws SandboxError(start) when the command cannot start, and removes the container', async () => {
    const err = await runContainer(docker, spec({ cmd: ['/no/such/binary'] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxError);
    expect((err as SandboxError).phase).toBe('start');
    expect(await leftovers()).toEqual([]);
  });
});

describe('removeLeftovers', () => {
  it('removes an envforge container that was created and never removed', async () => {
    const orphan = await docker.createContainer({ Image: image, Cmd: ['sleep', '600'], Labels: { [LABEL]: '1', [RUN_KEY]: RUN_VALUE } });
    await orphan.start();
    // A container started by hand, even from a sandbox image, is not labelled dev.envforge=1.
    const stranger = await docker.createContainer({ Image: image, Cmd: ['true'], Labels: { [RUN_KEY]: RUN_VALUE } });
    try {
      expect((await leftovers()).map((c) => c.Id)).toEqual([orphan.id]);
      // removeLeftovers removes EVERY envforge container of the engine (that is `envforge gc`);
      // the engine is shared with other tests, so its listing is narrowed to this file's label.
      const scoped = {
        listContainers: (opts: { all: boolean; filters: { label: string[] } }) => {
          expect(opts.filters.label).toContain(`${LABEL}=1`);
          return docker.listContainers({ ...opts, filters: { ...opts.filters, label: [...opts.filters.label, RUN] } });
        },
        getContainer: (id: string) => docker.getContainer(id),
      } as unknown as Docker;
      const removed = await removeLeftovers(scoped);
      expect(removed).toEqual([orphan.id.slice(0, 12)]);
      expect(await leftovers()).toEqual([]);
      // A container without the envforge label is not envforge's to remove.
      await expect(stranger.inspect()).resolves.toBeTruthy();
    } finally {
      await orphan.remove({ force: true }).catch(() => {});
      await stranger.remove({ force: true }).catch(() => {});
    }
  });
});

/** Every entry of a folder: files with content and mode, links with their target. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[prefix + name] = `link:${readlinkSync(p)}`;
      else if (st.isDirectory()) walk(p, `${prefix}${name}/`);
      else out[prefix + name] = `file:${(st.mode & 0o777).toString(8)}:${readFileSync(p, 'utf8')}`;
    }
  };
  walk(dir, '');
  return out;
}
