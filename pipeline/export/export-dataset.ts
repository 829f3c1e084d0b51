import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import type { LoadedConfig } from '../config/load.js';
import { SetupError } from '../errors.js';
import type { DatasetViews } from '../report/dataset-views.js';
import { sqlString } from '../store/duck.js';
import { renderCard } from './dataset-card.js';
import { EXPORTERS } from './exporters.js';
import { scanRecord, type HostPath, type Leak } from './leak-check.js';
import { collectProvenance, type Provenance } from './provenance.js';
import { isSkipped, type ExportedRecipe, type PlannedFile, type RecipeExporter, type SkippedRecipe } from './recipe.js';

/**
 * `envforge export`: every recipe in its published format plus Parquet, a dataset card and
 * provenance.json, ready for `huggingface-cli upload`.
 *
 * Why a command and not a runner stage: a stage is per-item work with a key, resumed and
 * fingerprinted per row; an export is one whole-dataset snapshot over the current views of
 * several stages, whose value is that its files agree with each other (card counts = file rows).
 * It has nothing to resume (it takes seconds) and its output is a publishable folder, not rows
 * in data/<dataset>/<stage>/. So it reads through the same views and writes nothing into the
 * artifacts; rerun it after any stage.
 *
 * Order of work: plan every file, check every record against its schema and every string for a
 * leak (leak-check.ts), and only then write — a refused export leaves the target untouched.
 * Files go to a staging folder inside the target and are renamed into place; envforge owns
 * README.md, provenance.json and one folder per recipe there, and leaves anything else (a .git
 * of a Hub clone, a .gitattributes) alone.
 *
 * Determinism: records are ordered by their key, JSON keys in a fixed order, no clock values
 * (times are the rows' created_at), and Parquet is written by DuckDB on one thread with pinned
 * settings (PARQUET_SETTINGS).
 */

export const PARQUET_SETTINGS = `FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 3, ROW_GROUP_SIZE 1000000, PARQUET_VERSION v1`;
const MAX_LISTED = 10;

export interface ExportOptions {
  dir: string;
  loaded: LoadedConfig;
  hostPaths: HostPath[];
  exporters?: readonly RecipeExporter[];
}

export interface ExportResult {
  dir: string;
  /** Files written, relative to dir, sorted. */
  files: string[];
  exported: ExportedRecipe[];
  skipped: SkippedRecipe[];
  provenance: Provenance;
}

type Written = { path: string; bytes: Buffer } | { path: string; query: string };

export async function exportDataset(views: DatasetViews, opts: ExportOptions): Promise<ExportResult> {
  const exporters = opts.exporters ?? EXPORTERS;
  const exported: ExportedRecipe[] = [];
  const skipped: SkippedRecipe[] = [];
  for (const e of exporters) {
    const r = await e.exportRows(views);
    if (isSkipped(r)) skipped.push(r);
    else exported.push(r);
  }
  if (exported.length === 0) {
    throw new SetupError(
      `nothing to export from dataset "${views.layout.dataset}":\n` + skipped.map((s) => `  ${s.title}: ${s.skipped}`).join('\n'),
    );
  }

  const problems: string[] = [];
  const leaks: Leak[] = [];
  const outputs: Written[] = [];
  for (const file of exported.flatMap((r) => r.files)) outputs.push(await checkFile(views, file, opts.hostPaths, problems, leaks));

  const provenance = await collectProvenance(views, opts.loaded);
  const card = renderCard({ provenance, exported, skipped, exporters });
  const provenanceJson = JSON.stringify(provenance, null, 2) + '\n';
  scanRecord(card, 'README.md', 0, opts.hostPaths, leaks);
  scanRecord(provenance, 'provenance.json', 0, opts.hostPaths, leaks);
  outputs.push({ path: 'README.md', bytes: Buffer.from(card) }, { path: 'provenance.json', bytes: Buffer.from(provenanceJson) });

  if (problems.length > 0) {
    throw new SetupError(
      `export refused: ${problems.length} record(s) do not match their published format (nothing was written):\n` +
        problems.slice(0, MAX_LISTED).map((p) => `  ${p}`).join('\n') + (problems.length > MAX_LISTED ? `\n  ... and ${problems.length - MAX_LISTED} more` : ''),
    );
  }
  if (leaks.length > 0) {
    throw new SetupError(
      `export refused: ${leaks.length} value(s) would publish a secret or a path of this machine (nothing was written; values not shown):\n` +
        leaks.slice(0, MAX_LISTED).map((l) => `  ${l.file} row ${l.row + 1}${l.id ?? ''} column ${l.column}: ${l.what}`).join('\n') +
        (leaks.length > MAX_LISTED ? `\n  ... and ${leaks.length - MAX_LISTED} more` : '') +
        '\nFind the rows with `envforge sql`, fix the stage that wrote them and rerun it (--force --only KEY), then export again.',
    );
  }

  await writeAll(views, opts.dir, outputs, ownedEntries(exporters));
  return { dir: opts.dir, files: outputs.map((o) => o.path).sort(), exported, skipped, provenance };
}

async function checkFile(views: DatasetViews, file: PlannedFile, paths: HostPath[], problems: string[], leaks: Leak[]): Promise<Written> {
  if (file.kind === 'text') {
    scanRecord(file.text, file.path, 0, paths, leaks);
    return { path: file.path, bytes: Buffer.from(file.text) };
  }
  const records = file.kind === 'parquet' ? await views.duck.all(file.query) : file.records;
  records.forEach((r, i) => {
    checkRecord(file.schema, r, `${file.path} row ${i + 1}${label(r)}`, problems);
    const before = leaks.length;
    scanRecord(r, file.path, i, paths, leaks);
    for (const l of leaks.slice(before)) l.id = label(r);
  });
  if (file.kind === 'parquet') return { path: file.path, query: file.query };
  const text = file.kind === 'jsonl' ? records.map((r) => JSON.stringify(r) + '\n').join('') : JSON.stringify(records[0], null, 2) + '\n';
  return { path: file.path, bytes: Buffer.from(text) };
}

function checkRecord(schema: z.ZodType, record: unknown, where: string, problems: string[]): void {
  const res = schema.safeParse(record);
  if (res.success) return;
  for (const issue of res.error.issues.slice(0, 3)) problems.push(`${where}: ${issue.path.join('.') || '(record)'}: ${issue.message}`);
}

function label(r: Record<string, unknown>): string {
  const id = r.repository ?? r.instance_id ?? r.readme;
  return typeof id === 'string' ? ` (${id})` : '';
}

function ownedEntries(exporters: readonly RecipeExporter[]): string[] {
  return ['README.md', 'provenance.json', ...exporters.map((e) => e.recipe)];
}

async function writeAll(views: DatasetViews, dir: string, outputs: Written[], owned: string[]): Promise<void> {
  const staging = join(dir, `.envforge-export-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  try {
    for (const o of outputs) {
      const target = join(staging, o.path);
      await mkdir(dirname(target), { recursive: true });
      if ('bytes' in o) await writeFile(target, o.bytes);
      else await views.duck.exec(`COPY (${o.query}) TO ${sqlString(target)} (${PARQUET_SETTINGS})`);
    }
    const tops = new Set(outputs.map((o) => o.path.split('/')[0]!));
    for (const entry of owned) {
      await rm(join(dir, entry), { recursive: true, force: true });
      if (tops.has(entry)) await rename(join(staging, entry), join(dir, entry));
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
