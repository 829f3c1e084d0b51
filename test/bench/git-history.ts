import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { Prng } from './prng.js';

/**
 * A bare repository with a real history for the clone benchmark, written in one
 * `git fast-import` run: a handful of text files of a few KB edited by every commit, plus
 * binary-ish blobs replaced from time to time (the part of a history a shallow clone skips).
 * Author, committer and dates are fixed in the stream, so the same seed gives the same SHAs.
 */

const GIT_ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 }).trim();
}

export interface HistoryOptions {
  commits: number;
  seed: number;
  /** Text files edited over time (a few KB each). */
  textFiles: number;
  /** Binary blob replaced every `binaryEvery` commits. */
  binaryEvery: number;
  binaryBytes: number;
}

export interface HistoryRemote {
  bare: string;
  head: string;
  commits: number;
  /** Distinct blob versions of the binary files across the history. */
  binaryVersions: number;
  /** Size of the bare repository's object store after `git gc`. */
  packBytes: number;
}

/** Fixed start of the history: 2024-01-01T00:00:00Z, one commit an hour. */
const EPOCH = 1_704_067_200;

const TEXT_PATHS = ['README.md', 'pyproject.toml', 'src/app/core.py', 'src/app/util.py', 'src/app/cli.py', 'docs/guide.md', 'CHANGELOG.md', 'tests/test_core.py'];

function textLine(rng: Prng, i: number): string {
  const w = ['cache', 'index', 'parser', 'worker', 'stream', 'schema', 'router', 'token', 'engine', 'loader'];
  return `${rng.pick(w)}_${rng.pick(w)}(${i}, ${rng.int(0, 9999)})  # ${rng.pick(w)} ${rng.pick(w)} ${rng.int(0, 99)}`;
}

export function buildHistoryRemote(bare: string, opts: HistoryOptions): HistoryRemote {
  const rng = new Prng(opts.seed);
  mkdirSync(bare, { recursive: true });
  git(bare, 'init', '--quiet', '--bare', '--initial-branch=main');

  const paths = TEXT_PATHS.slice(0, opts.textFiles);
  const texts = new Map<string, string[]>();
  for (const p of paths) {
    const lines: string[] = [];
    for (let i = 0, size = 0; size < rng.int(2500, 6000); i += 1) {
      const l = textLine(rng, i);
      lines.push(l);
      size += l.length + 1;
    }
    texts.set(p, lines);
  }

  const chunks: Buffer[] = [];
  const put = (s: string): void => {
    chunks.push(Buffer.from(s));
  };
  const data = (content: Buffer): void => {
    put(`data ${content.length}\n`);
    chunks.push(content, Buffer.from('\n'));
  };
  let binaryVersions = 0;

  for (let c = 0; c < opts.commits; c += 1) {
    const when = `${EPOCH + c * 3600} +0000`;
    put(`commit refs/heads/main\nmark :${c + 1}\n`);
    put(`author Bench Author <bench@envforge.invalid> ${when}\ncommitter Bench Author <bench@envforge.invalid> ${when}\n`);
    data(Buffer.from(`Commit ${c + 1}: update ${c === 0 ? 'everything' : 'sources'}\n`));
    if (c > 0) put(`from :${c}\n`);

    // Which text files change: all of them in the first commit, one to three afterwards.
    const changed = c === 0 ? paths : [...new Set(Array.from({ length: rng.int(1, 3) }, () => rng.pick(paths)))];
    for (const p of changed) {
      const lines = texts.get(p)!;
      if (c > 0) {
        for (let k = rng.int(1, 6); k > 0; k -= 1) lines[rng.int(0, lines.length - 1)] = textLine(rng, c);
        if (p === 'CHANGELOG.md' || rng.chance(0.3)) lines.push(textLine(rng, c));
        // Keep the files at "a few KB": drop the oldest lines once they grow past ~8 KB.
        while (lines.join('\n').length > 8000) lines.splice(rng.int(0, lines.length - 1), 1);
      }
      put(`M 100644 inline ${p}\n`);
      data(Buffer.from(lines.join('\n') + '\n'));
    }
    // Binary-ish blobs: a model file replaced every `binaryEvery` commits, an image half as often.
    if (c % opts.binaryEvery === 0) {
      put('M 100644 inline assets/model.bin\n');
      data(rng.bytes(opts.binaryBytes, 0.25));
      binaryVersions += 1;
    }
    if (c % (opts.binaryEvery * 2) === 0) {
      put('M 100644 inline assets/logo.png\n');
      data(rng.bytes(Math.round(opts.binaryBytes / 3), 0.5));
      binaryVersions += 1;
    }
    put('\n');
  }
  put('done\n');

  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: bare, env: GIT_ENV, input: Buffer.concat(chunks), stdio: ['pipe', 'ignore', 'pipe'] });
  // Like a hosting server: one well-deltified pack.
  git(bare, 'gc', '--quiet', '--prune=now');
  const head = git(bare, 'rev-parse', 'refs/heads/main');
  const packBytes = Number(/size-pack: (\d+)/.exec(git(bare, 'count-objects', '-v'))?.[1] ?? '0') * 1024;
  return { bare, head, commits: opts.commits, binaryVersions, packBytes };
}

/** Server-side switch for partial clone over file:// (upload-pack refuses filters without it). */
export function setAllowFilter(bare: string, allow: boolean): void {
  git(bare, 'config', 'uploadpack.allowFilter', allow ? 'true' : 'false');
}
