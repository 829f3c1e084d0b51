import { homedir, tmpdir } from 'node:os';
import { resolve, sep } from 'node:path';
import { redact } from '../log/secrets.js';

/**
 * An export never contains a token or a path of this machine. Every string of every record and
 * file goes through `findLeak` before anything is written, and a hit REFUSES the export (it is
 * not scrubbed): the leak is in the artifacts too, a silently rewritten value would differ from
 * what the catalog says, and the fix belongs upstream (a stage that echoes a path or a token).
 * The refusal names the file, row and column, never the value.
 *
 * Secrets: every value registered by config interpolation (pipeline/log/secrets.ts) and the
 * shapes of common credentials (GitHub and OpenAI tokens, credentials inside URLs), registered
 * or not. Host paths: the data, dataset, cache and export folders, the working directory, the
 * envforge checkout and the home directory — each only when it has two or more segments: `/root`
 * or `/tmp` name nothing about this machine and appear in every container log (`/root/.cache`).
 */

export interface HostPath {
  label: string;
  path: string;
}

const TOKEN_SHAPES: { label: string; re: RegExp }[] = [
  { label: 'a GitHub token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})/ },
  { label: 'an API key (sk-...)', re: /\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}/ },
  { label: 'credentials in a URL', re: /\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i },
];

/** The folders of this machine an export must not mention (deduplicated, longest first). */
export function hostPaths(candidates: HostPath[]): HostPath[] {
  const seen = new Set<string>();
  const out: HostPath[] = [];
  for (const c of candidates) {
    const p = resolve(c.path).replace(/\/+$/, '');
    if (p.split(sep).filter(Boolean).length < 2 || seen.has(p)) continue;
    seen.add(p);
    out.push({ label: c.label, path: p });
  }
  return out.sort((a, b) => b.path.length - a.path.length);
}

export function defaultHostPaths(extra: HostPath[] = []): HostPath[] {
  return hostPaths([...extra, { label: 'the working directory', path: process.cwd() }, { label: 'the home directory', path: homedir() }, { label: 'the temporary directory', path: tmpdir() }]);
}

/** What leaks from one string, or undefined. Never returns the value itself. */
export function findLeak(text: string, paths: readonly HostPath[]): string | undefined {
  if (redact(text) !== text) return 'a registered secret or URL credentials';
  for (const t of TOKEN_SHAPES) if (t.re.test(text)) return t.label;
  for (const p of paths) if (text.includes(p.path)) return `a host path (${p.label})`;
  return undefined;
}

export interface Leak {
  file: string;
  row: number;
  column: string;
  what: string;
  /** The record's key (repository, instance id), when it has one. */
  id?: string;
}

/** Every string inside a record (arrays and nested objects too), with the column path. */
export function scanRecord(record: unknown, file: string, row: number, paths: readonly HostPath[], out: Leak[], column = ''): void {
  if (typeof record === 'string') {
    const what = findLeak(record, paths);
    if (what) out.push({ file, row, column: column || '(value)', what });
  } else if (Array.isArray(record)) {
    record.forEach((v, i) => scanRecord(v, file, row, paths, out, `${column}[${i}]`));
  } else if (record && typeof record === 'object') {
    for (const [k, v] of Object.entries(record)) scanRecord(v, file, row, paths, out, column ? `${column}.${k}` : k);
  }
}
