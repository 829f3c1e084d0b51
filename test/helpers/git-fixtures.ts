import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Real git repositories for tests: a working repository with a few commits, published as a
 * bare repository at `<root>/<owner>/<repo>.git` so stages clone it through `file://`.
 * Author, committer and dates are fixed; the user's and the system's git config are ignored.
 */
const GIT_ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'envforge test',
  GIT_AUTHOR_EMAIL: 'test@envforge.invalid',
  GIT_COMMITTER_NAME: 'envforge test',
  GIT_COMMITTER_EMAIL: 'test@envforge.invalid',
  GIT_TERMINAL_PROMPT: '0',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** One commit: file path → content (a file absent from a later snapshot is deleted). */
export type Snapshot = Record<string, string>;

export interface TestRemote {
  /** Absolute path of the bare repository. */
  bare: string;
  /** `file://` URL of the bare repository. */
  url: string;
  /** Commit SHAs, oldest first. */
  shas: string[];
  branch: string;
}

export interface RemoteOptions {
  /** Name of the default branch (default `main`). */
  branch?: string;
  /** Extra setup in the working repository before the first commit (e.g. `git submodule add`). */
  prepare?: (work: string) => void;
}

/** A bare repository at `<root>/<owner>/<repo>.git` with one commit per snapshot. */
export function makeRemote(root: string, repository: string, snapshots: Snapshot[], opts: RemoteOptions = {}): TestRemote {
  const branch = opts.branch ?? 'main';
  const work = mkdtempSync(join(tmpdir(), 'envforge-work-'));
  try {
    git(work, 'init', '--quiet', `--initial-branch=${branch}`);
    opts.prepare?.(work);
    const shas: string[] = [];
    let previous: Snapshot = {};
    snapshots.forEach((snap, i) => {
      for (const f of Object.keys(previous)) if (!(f in snap)) rmSync(join(work, f), { force: true });
      for (const [f, content] of Object.entries(snap)) {
        mkdirSync(dirname(join(work, f)), { recursive: true });
        writeFileSync(join(work, f), content);
      }
      const date = `2024-01-${String(i + 1).padStart(2, '0')}T12:00:00Z`;
      git(work, 'add', '--all');
      execFileSync('git', ['commit', '--quiet', '--no-gpg-sign', '--allow-empty', '-m', `commit ${i + 1}`], {
        cwd: work,
        env: { ...GIT_ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
        stdio: 'ignore',
      });
      shas.push(git(work, 'rev-parse', 'HEAD'));
      previous = snap;
    });
    const bare = join(root, `${repository}.git`);
    mkdirSync(dirname(bare), { recursive: true });
    git(root, 'clone', '--quiet', '--bare', work, bare);
    return { bare, url: `file://${bare}`, shas, branch };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A bare repository with no commits at all. */
export function makeEmptyRemote(root: string, repository: string): string {
  const bare = join(root, `${repository}.git`);
  mkdirSync(bare, { recursive: true });
  git(bare, 'init', '--quiet', '--bare', '--initial-branch=main');
  return bare;
}

export interface TestServer {
  port: number;
  /** Number of requests (or, for a silent server, connections) seen so far. */
  hits(): number;
  close(): Promise<void>;
}

async function serve(server: Server, counter: () => number): Promise<TestServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    hits: counter,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Accepts connections and requests and never answers any of them. */
export function silentServer(): Promise<TestServer> {
  let n = 0;
  const server = createServer(() => {
    n++;
  });
  return serve(server, () => n);
}

/** Answers every request with 401 and a Basic challenge, as a private repository does. */
export function authRequiredServer(): Promise<TestServer> {
  let n = 0;
  const server = createServer((_req, res) => {
    n++;
    res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="envforge test"', 'Content-Type': 'text/plain' });
    res.end('authentication required\n');
  });
  return serve(server, () => n);
}

/** A TCP port on 127.0.0.1 that nothing listens on (it was just bound and released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
