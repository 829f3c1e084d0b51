import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where every artifact lives (DESIGN.md, "Artifacts"). Nothing else in envforge builds these paths. */
export interface Layout {
  dataDir: string;
  dataset: string;
  datasetDir: string;
  catalog: string;
  cacheDir: string;
  stageDir(stage: string): string;
  partGlob(stage: string): string;
  /** Manifests of the input keys each run read: `inputs-<run>.parquet`. */
  inputsGlob(stage: string): string;
  tmpDir: string;
  /** The LLM call ledger of the dataset: `ledger/part-<run>-<n>.parquet` (see ledger.ts). */
  ledgerDir: string;
  ledgerGlob: string;
}

export function layoutFor(dataDir: string, dataset: string): Layout {
  const root = resolve(dataDir);
  const datasetDir = join(root, dataset);
  return {
    dataDir: root,
    dataset,
    datasetDir,
    catalog: join(datasetDir, 'catalog.duckdb'),
    cacheDir: join(root, 'cache'),
    stageDir: (stage) => join(datasetDir, stage),
    partGlob: (stage) => join(datasetDir, stage, 'part-*.parquet'),
    inputsGlob: (stage) => join(datasetDir, stage, 'inputs-*.parquet'),
    tmpDir: join(datasetDir, '.tmp'),
    ledgerDir: join(datasetDir, 'ledger'),
    ledgerGlob: join(datasetDir, 'ledger', 'part-*.parquet'),
  };
}

/** True once a stage has written at least one Parquet part in this dataset. */
export function stageHasParts(layout: Layout, stage: string): boolean {
  return hasFile(layout, stage, 'part-');
}

/** True once a run of the stage has recorded the input keys it read. */
export function stageHasInputs(layout: Layout, stage: string): boolean {
  return hasFile(layout, stage, 'inputs-');
}

function hasFile(layout: Layout, stage: string, prefix: string): boolean {
  const dir = layout.stageDir(stage);
  return existsSync(dir) && readdirSync(dir).some((f) => f.startsWith(prefix) && f.endsWith('.parquet'));
}
