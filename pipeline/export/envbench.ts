import { z } from 'zod';
import { findStage } from '../graph-types.js';
import type { DatasetViews } from '../report/dataset-views.js';
import { sqlIdent, sqlString } from '../store/duck.js';
import { missingStages, type ExportedRecipe, type PlannedFile, type RecipeExporter, type SkippedRecipe, type Split } from './recipe.js';

/**
 * EnvBench: the repositories the deterministic script could not configure (the `baseline`
 * stage's accepted rows), one split per family. The published format is JSONL with exactly
 * `repository` and `revision` (JetBrains-Research/EnvBench); every column envforge knows about
 * a repository — baseline outcome, inspect facts, clone and search metadata, provenance of each
 * stage — goes to a Parquet file per split beside it.
 */

export const ENVBENCH_STAGES = ['search', 'clone', 'inspect', 'baseline'] as const;
export const ENVBENCH_FAMILIES = ['python', 'jvm'] as const;

const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

export const envbenchRecord = z.strictObject({
  repository: z.string().regex(REPOSITORY, 'expected owner/name'),
  revision: z.string().regex(SHA, 'expected a full commit SHA'),
});

/** The columns the published Parquet promises; the rest are every other column of the stages. */
export const envbenchFullRow = z.looseObject({
  repository: z.string().regex(REPOSITORY, 'expected owner/name'),
  revision: z.string().regex(SHA, 'expected a full commit SHA'),
  family: z.enum(ENVBENCH_FAMILIES),
  manager: z.enum(['pip', 'poetry', 'maven', 'gradle']),
  language: z.string().nullable(),
  failure_class: z.enum(['setup', 'metric']),
  exit_code: z.number().int().nullable(),
  issues_count: z.number().int().nullable(),
  baseline_run_id: z.string().min(1),
  baseline_config_hash: z.string().min(1),
});

/** Columns that only make sense on this machine or restate the row's status: never exported. */
const LOCAL_COLUMNS = new Set(['key', 'input_key', 'status', 'reason', 'reason_text', 'input_hash', 'duration_ms', 'clone_path']);
const PROVENANCE = ['run_id', 'stage_version', 'config_hash', 'created_at'] as const;
/** Stage aliases in the join; the first stage that has a column gives it. */
const ORDER = [
  ['baseline', 'b'],
  ['inspect', 'i'],
  ['clone', 'c'],
  ['search', 's'],
] as const;
const LEADING = ['repository', 'revision', 'family', 'manager', 'language'];

export const ENVBENCH_TABLE = 'envbench_export';

/** The SELECT list of the wide row: leading columns, then each stage's own, then provenance per stage. */
export function envbenchColumns(views: DatasetViews): string[] {
  const owner = new Map<string, string>();
  for (const [name, alias] of ORDER) {
    const stage = findStage(views.graph, name)!;
    for (const col of Object.keys(stage.columns)) if (!LOCAL_COLUMNS.has(col) && !owner.has(col)) owner.set(col, alias);
  }
  const names = [...LEADING.filter((c) => owner.has(c)), ...[...owner.keys()].filter((c) => !LEADING.includes(c))];
  const select = names.map((c) => `${owner.get(c)}.${sqlIdent(c)}`);
  for (const [name, alias] of ORDER) for (const p of PROVENANCE) select.push(`${alias}.${sqlIdent(p)} AS ${sqlIdent(`${name}_${p}`)}`);
  return select;
}

export const envbenchExporter: RecipeExporter = {
  recipe: 'envbench',
  title: 'EnvBench',
  stages: ENVBENCH_STAGES,
  format: 'JSONL per split with `repository` and `revision` (EnvBench\'s format); every envforge column in Parquet',
  async exportRows(views): Promise<ExportedRecipe | SkippedRecipe> {
    const why = missingStages(views, this);
    if (why) return { recipe: this.recipe, title: this.title, skipped: why };
    await views.duck.exec(
      `CREATE OR REPLACE TEMP TABLE ${ENVBENCH_TABLE} AS SELECT ${envbenchColumns(views).join(', ')} FROM baseline b ` +
        `LEFT JOIN inspect i ON i.key = b.input_key LEFT JOIN clone c ON c.key = i.input_key LEFT JOIN search s ON s.key = c.input_key ` +
        `WHERE b.status = 'accepted' ORDER BY b.repository`,
    );
    const counts = await views.duck.all(`SELECT family, count(*) AS n FROM ${ENVBENCH_TABLE} GROUP BY 1 ORDER BY 1`);
    const byFamily = new Map(counts.map((r) => [String(r.family), Number(r.n)]));
    const unknown = [...byFamily.keys()].filter((f) => !(ENVBENCH_FAMILIES as readonly string[]).includes(f));
    if (unknown.length > 0) {
      // Checked by the schema too; said here so the message names the families.
      throw new Error(`baseline accepted rows of unknown families: ${unknown.join(', ')}`);
    }
    if (counts.length === 0) {
      return { recipe: this.recipe, title: this.title, skipped: `stage baseline has no accepted rows in dataset "${views.layout.dataset}" (see \`envforge status\`)` };
    }
    const files: PlannedFile[] = [];
    const splits: Split[] = [];
    const notes: string[] = [];
    for (const family of ENVBENCH_FAMILIES) {
      const n = byFamily.get(family) ?? 0;
      if (n === 0) {
        notes.push(`split \`${family}\`: no accepted repository in this run, so no file (the Hub rejects empty splits)`);
        continue;
      }
      const where = `FROM ${ENVBENCH_TABLE} WHERE family = ${sqlString(family)} ORDER BY repository`;
      const records = await views.duck.all(`SELECT repository, revision ${where}`);
      files.push({ kind: 'jsonl', path: `envbench/${family}.jsonl`, records, schema: envbenchRecord });
      files.push({ kind: 'parquet', path: `envbench/full/${family}.parquet`, query: `SELECT * ${where}`, schema: envbenchFullRow });
      splits.push({ config: 'envbench', split: family, path: `envbench/${family}.jsonl`, rows: n });
      splits.push({ config: 'envbench_full', split: family, path: `envbench/full/${family}.parquet`, rows: n });
    }
    splits.sort((a, b) => (a.config === b.config ? 0 : a.config < b.config ? -1 : 1));
    notes.unshift(
      'config `envbench`: EnvBench\'s own format, one JSON object per line with `repository` (owner/name) and `revision` (the pinned commit SHA)',
      'config `envbench_full`: the same repositories with every column envforge recorded: the baseline outcome (`failure_class` setup or metric, `exit_code`, `issues_count`, `missing_modules`, capped `log`), the inspect facts, clone and search metadata, and `<stage>_run_id` / `_config_hash` / `_stage_version` / `_created_at` for each stage',
    );
    const licenses = (await views.duck.all(`SELECT coalesce(license_spdx, 'unknown') AS spdx, count(*) AS n FROM ${ENVBENCH_TABLE} GROUP BY 1 ORDER BY 2 DESC, 1`)).map(
      (r) => ({ spdx: String(r.spdx), count: Number(r.n) }),
    );
    return { recipe: this.recipe, title: this.title, files, splits, defaultConfig: 'envbench', notes, tags: ['envbench', 'environment-setup'], licenses };
  },
};
