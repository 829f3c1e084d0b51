import type { z } from 'zod';
import type { DatasetViews } from '../report/dataset-views.js';

/**
 * What one recipe's exporter hands to the export: files to write (nothing is written by the
 * exporter itself), the Hub configs and splits they form, and notes for the dataset card. The
 * export checks every record against the exporter's schema and every string for leaks before a
 * single byte is written (export-dataset.ts).
 */

/** A file of JSON lines (`.jsonl`) or one JSON document (`.json`), checked record by record. */
export interface JsonFile {
  kind: 'jsonl' | 'json';
  path: string;
  records: Record<string, unknown>[];
  schema: z.ZodType;
}

/** A text file written as is (an EnConda README); its text is leak-checked too. */
export interface TextFile {
  kind: 'text';
  path: string;
  text: string;
}

/**
 * A Parquet file written by DuckDB from `query`, a SELECT over a temporary table the exporter
 * materialized in the views' database (`CREATE TEMP TABLE ...`): the rows the export checks are
 * the rows it writes, even if a runner adds parts meanwhile. The query must ORDER BY a key.
 */
export interface ParquetFile {
  kind: 'parquet';
  path: string;
  query: string;
  schema: z.ZodType;
}

export type PlannedFile = JsonFile | TextFile | ParquetFile;

/** One split of a Hub config: a name and the files (relative to the export root) that hold it. */
export interface Split {
  config: string;
  split: string;
  path: string;
  rows: number;
}

export interface ExportedRecipe {
  recipe: string;
  title: string;
  files: PlannedFile[];
  splits: Split[];
  /** The config the Hub viewer opens first; one per export (the first recipe's). */
  defaultConfig?: string;
  /** Lines for the card: what each config holds, caveats. */
  notes: string[];
  /** Hub tags this recipe adds. */
  tags: string[];
  /** SPDX licenses of the repositories exported, for the card. */
  licenses?: { spdx: string; count: number }[];
}

export interface SkippedRecipe {
  recipe: string;
  title: string;
  skipped: string;
}

export interface RecipeExporter {
  recipe: string;
  title: string;
  /** The stages the recipe is built from, in order; the last one holds its instances. */
  stages: readonly string[];
  /** A one-line description of the published format for the card. */
  format: string;
  exportRows(views: DatasetViews): Promise<ExportedRecipe | SkippedRecipe>;
}

export function isSkipped(r: ExportedRecipe | SkippedRecipe): r is SkippedRecipe {
  return 'skipped' in r;
}

/** The common skip: a stage of the recipe is not in this envforge, or has not run, or left no rows. */
export function missingStages(views: DatasetViews, exporter: Pick<RecipeExporter, 'stages'>): string | undefined {
  const absent = exporter.stages.filter((s) => !views.has(s));
  if (absent.length > 0) return `its stages ${absent.join(', ')} do not exist in this version of envforge yet`;
  const last = exporter.stages[exporter.stages.length - 1]!;
  if (!views.ran(last)) {
    return `stage ${last} has not run in dataset "${views.layout.dataset}": run \`envforge run ${last}\` (make ${last}) first`;
  }
  return undefined;
}

/**
 * A temp table of a recipe's final stage: its accepted rows, without the row bookkeeping
 * (keys, status, reasons, input hash, timing) that describes envforge's run, not the benchmark.
 */
export async function acceptedExportTable(views: DatasetViews, table: string, stage: string, orderBy: string): Promise<void> {
  await views.duck.exec(
    `CREATE OR REPLACE TEMP TABLE ${table} AS SELECT * EXCLUDE (key, input_key, status, reason, reason_text, input_hash, duration_ms) ` +
      `FROM ${stage} WHERE status = 'accepted' ORDER BY ${orderBy}`,
  );
}
