import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sha256 } from '../../pipeline/config/fingerprint.js';
import { loadConfig } from '../../pipeline/config/load.js';
import { createLogger } from '../../pipeline/log/logger.js';
import type { StageContext } from '../../pipeline/stage.js';
import { MemoryLedger } from '../../pipeline/store/ledger.js';
import { applyEdits, LineDoc, type Edit } from '../../stages/inject/edits.js';
import type { InjectedError } from '../../stages/inject/gold.js';

/**
 * Fixtures for validate/review/tiers tests: a generated repository placed in a clone cache as
 * the clone stage would (`<cache>/clones/<owner>/<repo>/<sha>/`), and inject rows built from
 * hand-made edits of its README.
 */

export const REVISION = 'a'.repeat(40);

export function writeCheckout(cacheDir: string, repository: string, files: Record<string, string>): string {
  const [owner, repo] = repository.split('/') as [string, string];
  const root = join(cacheDir, 'clones', owner, repo, REVISION);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** An edit replacing lines `start..end` (1-based) of `original` with `lines` (same count: later line numbers stay). */
export function lineEdit(original: string, start: number, end: number, lines: string[]): Edit {
  const doc = new LineDoc(original);
  const before = doc.region(start, end);
  return {
    line_start: start,
    line_end: end,
    injected_line_start: start,
    injected_line_end: start + lines.length - 1,
    original: before,
    injected: lines.join('\n'),
    original_text: before.trim(),
    injected_text: lines.join('\n').trim(),
  };
}

export function injectedError(type: string, edit: Edit, description = `injected ${type}`): InjectedError {
  const golden = edit.original_text;
  return {
    error_type: type,
    error_description: description,
    correction_candidates: [golden, `${golden} # a`, `${golden} # b`, `${golden} # c`],
    golden_answer: golden,
    edit,
    origin: 'test',
  };
}

/** An inject row (the columns validate reads) for `errors` applied to `original`. */
export function injectRow(repository: string, instance: string, original: string, errors: InjectedError[], docPath = 'README.md'): Record<string, unknown> {
  const applied = applyEdits(original, errors.map((e) => e.edit));
  if (!applied.ok) throw new Error(applied.problem);
  return {
    key: instance,
    instance,
    repository,
    repo_name: repository.replace('/', '_'),
    revision: REVISION,
    doc_path: docPath,
    injected_text: applied.text,
    original_sha256: sha256(original),
    errors,
    gold: { readme: instance, repo_name: repository.replace('/', '_'), level: `level${errors.length}`, errors: [] },
  };
}

export async function stageContext(configFile: string, dataDir: string, dataset = 't'): Promise<StageContext & { ledger: MemoryLedger }> {
  const config = await loadConfig(configFile);
  return {
    config,
    dataset,
    cacheDir: join(dataDir, 'cache'),
    log: createLogger('silent'),
    signal: new AbortController().signal,
    ledger: new MemoryLedger(),
  };
}
