import { constants, promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Bounded, in-repository file access. Repositories are untrusted input: a manifest may be a
 * symlink to /etc/passwd, a symlink loop, a 50 MB blob or binary junk. Every read here goes
 * through realpath + containment, a size cap checked before allocating, and a text check, and
 * each problem becomes a finding instead of an exception.
 */

export class Findings {
  private readonly messages: string[] = [];
  private readonly seen = new Set<string>();
  private readonly malformed = new Set<string>();

  /** `unusable` marks the path's content as not usable (listed in malformed_files). */
  add(subject: string, problem: string, unusable = true): void {
    const message = `${subject}: ${problem}`;
    if (!this.seen.has(message)) {
      this.seen.add(message);
      this.messages.push(message);
    }
    if (unusable) this.malformed.add(subject);
  }

  list(): string[] {
    return [...this.messages];
  }

  malformedFiles(): string[] {
    return [...this.malformed];
  }
}

export type Resolved =
  | { kind: 'file'; real: string; size: number }
  | { kind: 'dir'; real: string }
  | { kind: 'missing' }
  | { kind: 'outside'; target: string }
  | { kind: 'loop' }
  | { kind: 'broken'; target: string }
  | { kind: 'special' }
  | { kind: 'error'; message: string };

/**
 * `missing`: no such path. `unsafe`: present but not something we may read (symlink out of the
 * repository, loop, broken link, directory or device). `too_large` and `binary`: a regular file
 * in the repository whose content we decline to parse — still evidence by name.
 */
export type ReadResult =
  | { ok: true; text: string }
  | { ok: false; reason: 'missing' | 'unsafe' | 'too_large' | 'binary' };

export type EntryType = 'file' | 'dir' | 'symlink' | 'other';

export interface DirEntry {
  name: string;
  type: EntryType;
}

/** Shared budget so that one giant directory cannot exhaust the whole walk silently. */
export interface EntryBudget {
  remaining: number;
  exhausted: boolean;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export class RepoFiles {
  private readonly resolved = new Map<string, Promise<Resolved>>();
  private readonly texts = new Map<string, Promise<ReadResult>>();

  private constructor(
    /** Real path of the repository root; every access must stay below it. */
    readonly root: string,
    readonly maxFileBytes: number,
    readonly findings: Findings,
  ) {}

  static async open(root: string, maxFileBytes: number, findings: Findings): Promise<RepoFiles> {
    const real = await fs.realpath(root);
    const stat = await fs.stat(real);
    if (!stat.isDirectory()) throw new Error(`inspect: ${root} is not a directory`);
    return new RepoFiles(real, maxFileBytes, findings);
  }

  /** Where `rel` really leads, without ever leaving the repository. Memoised per path. */
  resolve(rel: string): Promise<Resolved> {
    let pending = this.resolved.get(rel);
    if (!pending) {
      pending = this.resolveUncached(rel);
      this.resolved.set(rel, pending);
    }
    return pending;
  }

  /**
   * True for a regular file or directory inside the repository. Unsafe entries are reported
   * once and count as absent: we cannot tell what they would be inside the benchmark container.
   */
  async present(rel: string, want: 'file' | 'dir' | 'any' = 'file'): Promise<boolean> {
    const r = await this.resolve(rel);
    if (r.kind === 'missing') return false;
    if (r.kind === 'file' || r.kind === 'dir') {
      if (want === 'any' || want === r.kind) return true;
      this.findings.add(rel, `is a ${r.kind === 'dir' ? 'directory' : 'file'}, expected a ${want === 'dir' ? 'directory' : 'file'}`);
      return false;
    }
    this.reportUnsafe(rel, r);
    return false;
  }

  /** The file as UTF-8 text, or why not. Memoised, so each problem is reported once. */
  readText(rel: string): Promise<ReadResult> {
    let pending = this.texts.get(rel);
    if (!pending) {
      pending = this.readTextUncached(rel);
      this.texts.set(rel, pending);
    }
    return pending;
  }

  /**
   * Entries of a directory inside the repository, sorted by name. Reading stops when the budget
   * runs out, so a directory with a million entries costs at most the budget.
   */
  async listDir(rel: string, budget: EntryBudget): Promise<DirEntry[]> {
    const r = await this.resolve(rel);
    if (r.kind !== 'dir') {
      if (r.kind !== 'missing' && r.kind !== 'file') this.reportUnsafe(rel || '.', r);
      return [];
    }
    const entries: DirEntry[] = [];
    let dir;
    try {
      dir = await fs.opendir(r.real);
    } catch (error) {
      this.findings.add(rel || '.', `cannot list directory: ${errorCode(error)}`, false);
      return [];
    }
    try {
      for await (const dirent of dir) {
        if (budget.remaining <= 0) {
          budget.exhausted = true;
          break;
        }
        budget.remaining -= 1;
        const type: EntryType = dirent.isSymbolicLink()
          ? 'symlink'
          : dirent.isDirectory()
            ? 'dir'
            : dirent.isFile()
              ? 'file'
              : 'other';
        entries.push({ name: dirent.name, type });
      }
    } finally {
      // Breaking out of for-await closes the handle already; a second close throws.
      await dir.close().catch(() => undefined);
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  reportUnsafe(rel: string, r: Resolved): void {
    switch (r.kind) {
      case 'outside':
        this.findings.add(rel, `symlink leads outside the repository (-> ${r.target}); not followed`);
        break;
      case 'loop':
        this.findings.add(rel, 'symlink loop; not followed');
        break;
      case 'broken':
        this.findings.add(rel, `broken symlink (-> ${r.target})`);
        break;
      case 'special':
        this.findings.add(rel, 'not a regular file; not read');
        break;
      case 'error':
        this.findings.add(rel, `cannot access: ${r.message}`);
        break;
      default:
        break;
    }
  }

  private isInside(real: string): boolean {
    return real === this.root || real.startsWith(this.root + path.sep);
  }

  private async resolveUncached(rel: string): Promise<Resolved> {
    const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
    // Callers pass repository-relative paths; anything climbing out is treated as outside.
    if (path.isAbsolute(rel) || parts.includes('..')) return { kind: 'outside', target: rel };
    const abs = path.join(this.root, ...parts);
    let real: string;
    try {
      real = await fs.realpath(abs);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ELOOP') return { kind: 'loop' };
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        const link = await fs.readlink(abs).catch(() => null);
        return link === null ? { kind: 'missing' } : { kind: 'broken', target: link };
      }
      return { kind: 'error', message: code };
    }
    if (!this.isInside(real)) {
      const link = await fs.readlink(abs).catch(() => real);
      return { kind: 'outside', target: link };
    }
    try {
      const stat = await fs.stat(real);
      if (stat.isFile()) return { kind: 'file', real, size: stat.size };
      if (stat.isDirectory()) return { kind: 'dir', real };
      return { kind: 'special' };
    } catch (error) {
      return { kind: 'error', message: errorCode(error) };
    }
  }

  private async readTextUncached(rel: string): Promise<ReadResult> {
    const r = await this.resolve(rel);
    if (r.kind === 'missing') return { ok: false, reason: 'missing' };
    if (r.kind !== 'file') {
      if (r.kind === 'dir') this.findings.add(rel, 'is a directory, expected a file');
      else this.reportUnsafe(rel, r);
      return { ok: false, reason: 'unsafe' };
    }
    if (r.size > this.maxFileBytes) return this.tooLarge(rel, r.size);

    let handle;
    try {
      // O_NOFOLLOW: the path was resolved already; if it became a symlink since, refuse it.
      handle = await fs.open(r.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      this.findings.add(rel, `cannot open: ${errorCode(error)}`);
      return { ok: false, reason: 'unsafe' };
    }
    let bytes: Buffer;
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) {
        this.findings.add(rel, 'not a regular file; not read');
        return { ok: false, reason: 'unsafe' };
      }
      if (stat.size > this.maxFileBytes) return this.tooLarge(rel, stat.size);
      // One byte over the cap tells us the file grew past it after the stat.
      const buffer = Buffer.alloc(Math.min(stat.size, this.maxFileBytes) + 1);
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled > this.maxFileBytes) return this.tooLarge(rel, filled);
      bytes = buffer.subarray(0, filled);
    } finally {
      await handle.close();
    }

    if (bytes.includes(0)) {
      this.findings.add(rel, 'binary content (NUL bytes); not parsed');
      return { ok: false, reason: 'binary' };
    }
    try {
      return { ok: true, text: UTF8.decode(bytes) };
    } catch {
      this.findings.add(rel, 'not valid UTF-8 text; not parsed');
      return { ok: false, reason: 'binary' };
    }
  }

  private tooLarge(rel: string, size: number): ReadResult {
    this.findings.add(rel, `${size} bytes exceeds max_file_bytes (${this.maxFileBytes}); not read`);
    return { ok: false, reason: 'too_large' };
  }
}

export function errorCode(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return error instanceof Error ? error.message : String(error);
}
