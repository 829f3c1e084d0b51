import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sectionFingerprint } from '../config/fingerprint.js';
import type { LoadedConfig } from '../config/load.js';
import { findStage } from '../graph-types.js';
import { packageRoot } from '../package-root.js';
import type { DatasetViews } from '../report/dataset-views.js';
import { datasetFunnel, type StageFunnel } from '../report/funnel.js';
import { llmUsage, type LlmUsage } from '../report/llm-usage.js';
import { sqlIdent } from '../store/duck.js';

/**
 * Where an export came from, as data (provenance.json) and as the card's tables: the envforge
 * version, each stage's versions, config hashes and run ids, the date cutoffs, the models used
 * and the funnel. Only values found in the artifacts or the config: no clock, so the same
 * artifacts give the same bytes.
 */

export interface StageProvenance {
  stage: string;
  stage_versions: number[];
  config_hashes: string[];
  /** The current config's fingerprint of the stage's sections is one of config_hashes. */
  config_current: boolean;
  run_ids: string[];
  /** Oldest and newest `created_at` of the current rows. */
  made_from: string | null;
  made_until: string | null;
}

export interface Cutoff {
  key: string;
  value: string;
  meaning: string;
  /** False when the stage's current rows were made with another config than the one read now. */
  matches_rows: boolean;
}

export interface Provenance {
  envforge_version: string;
  dataset: string;
  stages: StageProvenance[];
  cutoffs: Cutoff[];
  /** Models the current rows were made with, by stage (from the LLM call ledger of their runs; empty without LLM stages). */
  models: LlmUsage[];
  funnel: StageFunnel[];
}

export function envforgeVersion(): string {
  return String((JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version);
}

export async function collectProvenance(views: DatasetViews, loaded: LoadedConfig): Promise<Provenance> {
  const funnel = (await datasetFunnel(views)).filter((f) => f.ran);
  const stages: StageProvenance[] = [];
  for (const f of funnel) {
    const stage = findStage(views.graph, f.stage)!;
    const [t] = await views.duck.all(`SELECT min(created_at)::VARCHAR AS a, max(created_at)::VARCHAR AS b FROM ${sqlIdent(f.stage)}`);
    stages.push({
      stage: f.stage,
      stage_versions: f.stageVersions,
      config_hashes: f.configHashes,
      config_current: f.configHashes.includes(sectionFingerprint(loaded, stage.configSections ?? [stage.name])),
      run_ids: f.runIds,
      made_from: (t?.a as string | null) ?? null,
      made_until: (t?.b as string | null) ?? null,
    });
  }
  const cutoffs: Cutoff[] = [];
  const search = loaded.config.search;
  if (search && views.ran('search')) {
    cutoffs.push({
      key: 'search.last_commit_after',
      value: search.last_commit_after,
      meaning: 'repositories whose last commit is older were not selected (contamination cutoff)',
      matches_rows: stages.find((s) => s.stage === 'search')?.config_current ?? false,
    });
  }
  return { envforge_version: envforgeVersion(), dataset: views.layout.dataset, stages, cutoffs, models: await llmUsage(views, 'current', stages.flatMap((s) => s.run_ids)), funnel };
}
