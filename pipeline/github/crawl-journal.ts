import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync, writeSync, fstatSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sha256, stableStringify } from '../config/fingerprint.js';

/**
 * Checkpoints of GitHub crawls: an engine-provided API, so a stage never builds a path in
 * `data/` itself. A crawl depends on its query only (not on the dataset), so like clones and
 * images it lives in the shared cache: `<cacheDir>/github/crawls/<key>/`, key = hash of the
 * query spec (API URL, qualifiers, date range, snapshot name). Every dataset asking the same
 * query reuses the same crawl.
 *
 * A journal is an append-only JSON-lines file: one line per answered request, written right
 * after the answer and before the next request, with a single write(2). A SIGKILL can tear only
 * the last line; reopening drops a torn tail, so what was answered and written is never asked
 * again and what was not is asked once more. A lock file (host + pid) keeps two processes
 * (e.g. `--shard` runs) from crawling the same query at once: the second waits for the first
 * and then reads its finished journal.
 */

export interface CrawlDir {
  key: string;
  dir: string;
}

/** The folder of the crawl with this key (its journals: `journal.jsonl`, `contributors.jsonl`). */
export function crawlDirPath(cacheDir: string, key: string): string {
  return join(cacheDir, 'github', 'crawls', key);
}

export function crawlDir(cacheDir: string, spec: unknown): CrawlDir {
  const key = sha256(stableStringify(spec)).slice(0, 16);
  const dir = crawlDirPath(cacheDir, key);
  mkdirSync(dir, { recursive: true });
  const specFile = join(dir, 'spec.json');
  if (!existsSync(specFile)) writeFileSync(specFile, `${JSON.stringify(spec, null, 2)}\n`);
  return { key, dir };
}

export class Journal<E> {
  private fd: number;

  private constructor(
    readonly file: string,
    readonly entries: E[],
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Open (or create) `<dir>/<name>.jsonl`, dropping a torn last line left by a kill. */
  static open<E>(dir: string, name: string): Journal<E> {
    const file = join(dir, `${name}.jsonl`);
    const fd = openSync(file, 'a+');
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(size);
    if (size > 0) readSync(fd, buf, 0, size, 0);
    const text = buf.toString('utf8');
    const end = text.lastIndexOf('\n') + 1;
    const entries: E[] = [];
    let good = 0;
    for (const line of text.slice(0, end).split('\n')) {
      if (line === '') continue;
      try {
        entries.push(JSON.parse(line) as E);
        good += Buffer.byteLength(line) + 1;
      } catch {
        break; // a damaged line: everything after it is dropped and asked again
      }
    }
    if (good < size) ftruncateSync(fd, good);
    return new Journal<E>(file, entries, fd);
  }

  append(entry: E): void {
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    this.entries.push(entry);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

export interface CrawlLock {
  release(): void;
}

/** Take `<dir>/lock`; while another live process holds it, wait (abortably). A dead holder's lock is taken over. */
export async function lockCrawl(dir: string, signal: AbortSignal, onWait: (holder: string) => void): Promise<CrawlLock> {
  const file = join(dir, 'lock');
  const me = `${hostname()} ${process.pid}`;
  let told = false;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, me);
      closeSync(fd);
      return { release: () => rmSync(file, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = '';
    try {
      holder = readFileSync(file, 'utf8').trim();
    } catch {
      continue; // released meanwhile
    }
    const [host, pidText] = holder.split(' ');
    const pid = Number(pidText);
    const sameHost = host === hostname();
    // A lock of a process that no longer runs (killed) is stale. On another host we cannot
    // tell; a lock untouched for a day is taken as stale too.
    const stale = sameHost ? !alive(pid) || pid === process.pid : Date.now() - mtime(file) > 24 * 3600_000;
    if (stale) {
      rmSync(file, { force: true });
      continue;
    }
    if (!told) onWait(holder);
    told = true;
    await sleep(500, undefined, { signal });
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function mtime(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
