import { z } from 'zod';
import type { DatasetViews } from '../report/dataset-views.js';
import { acceptedExportTable, missingStages, type ExportedRecipe, type PlannedFile, type RecipeExporter, type SkippedRecipe } from './recipe.js';

/**
 * EnConda-Bench (../shared/reference/enconda.md): per instance
 * `enconda/error_gen_<owner>_<repo>/<instance>/README.<ext>` and `README.json` (the gold JSON in
 * the released shape: no line numbers, exactly four correction candidates), one JSONL of every
 * gold JSON, and the instances in Parquet. The stages (readme → inject → validate → review →
 * tiers) do not exist yet: until they do the exporter is skipped with a note, and the format is
 * pinned here and tested on fixture instances (enconda.test.ts).
 *
 * The columns `tiers` is expected to provide (a proposal for whoever builds it): `repository`
 * (owner/repo), `instance` (folder name, e.g. `owner_repo_error_readme_3_only_E1`), `readme_ext`
 * (md, rst, txt), `readme_text`, and `errors` (JSON: the gold errors).
 */

export const ENCONDA_STAGES = ['readme', 'inject', 'validate', 'review', 'tiers'] as const;
export const ERROR_TYPES = ['E1', 'E2', 'E4', 'E6', 'E7', 'E8'] as const;

export const encondaError = z
  .strictObject({
    error_type: z.enum(ERROR_TYPES),
    error_description: z.string().min(1),
    correction_candidates: z.array(z.string().min(1)).length(4),
    golden_answer: z.string().min(1),
  })
  .refine((e) => e.correction_candidates.includes(e.golden_answer), { message: 'golden_answer must be one of the correction_candidates' });

export const encondaGold = z.strictObject({
  readme: z.string().min(1),
  repo_name: z.string().regex(/^[^/\s]+$/),
  level: z.string().regex(/^level(?:[0-9]|10)$/),
  errors: z.array(encondaError),
});

export interface EncondaInstance {
  repository: string;
  instance: string;
  readme_ext: string;
  readme_text: string;
  errors: z.infer<typeof encondaError>[];
}

/** `level<K>` where K is the number of errors; the release puts 10 to 14 errors in level10. */
export function encondaLevel(errors: number): string {
  return `level${Math.min(errors, 10)}`;
}

/** The files of the EnConda layout for some instances, in a stable order. */
export function encondaFiles(instances: readonly EncondaInstance[]): PlannedFile[] {
  const files: PlannedFile[] = [];
  const golds: Record<string, unknown>[] = [];
  for (const inst of [...instances].sort((a, b) => (a.repository + a.instance < b.repository + b.instance ? -1 : 1))) {
    const repoName = inst.repository.replace('/', '_');
    const dir = `enconda/error_gen_${repoName}/${inst.instance}`;
    const gold = { readme: inst.instance, repo_name: repoName, level: encondaLevel(inst.errors.length), errors: inst.errors };
    files.push({ kind: 'text', path: `${dir}/README.${inst.readme_ext}`, text: inst.readme_text });
    files.push({ kind: 'json', path: `${dir}/README.json`, records: [gold], schema: encondaGold });
    golds.push(gold);
  }
  files.push({ kind: 'jsonl', path: 'enconda/instances.jsonl', records: golds, schema: encondaGold });
  return files;
}

export const encondaExporter: RecipeExporter = {
  recipe: 'enconda',
  title: 'EnConda-Bench',
  stages: ENCONDA_STAGES,
  format: '`error_gen_<owner>_<repo>/<instance>/README.<ext>` + `README.json` (gold errors), `instances.jsonl`, Parquet',
  async exportRows(views: DatasetViews): Promise<ExportedRecipe | SkippedRecipe> {
    const why = missingStages(views, this);
    if (why) return { recipe: this.recipe, title: this.title, skipped: why };
    await acceptedExportTable(views, 'enconda_export', 'tiers', 'repository, instance');
    const rows = await views.duck.all(`SELECT repository, instance, readme_ext, readme_text, errors FROM enconda_export ORDER BY repository, instance`);
    if (rows.length === 0) return { recipe: this.recipe, title: this.title, skipped: 'stage tiers has no accepted instances' };
    const instances = rows.map((r) => ({
      repository: String(r.repository),
      instance: String(r.instance),
      readme_ext: String(r.readme_ext),
      readme_text: String(r.readme_text),
      errors: (typeof r.errors === 'string' ? JSON.parse(r.errors) : r.errors) as EncondaInstance['errors'],
    }));
    const files = encondaFiles(instances);
    files.push({ kind: 'parquet', path: 'enconda/full/instances.parquet', query: 'SELECT * FROM enconda_export ORDER BY repository, instance', schema: z.looseObject({ instance: z.string() }) });
    return {
      recipe: this.recipe,
      title: this.title,
      files,
      splits: [
        { config: 'enconda', split: 'test', path: 'enconda/instances.jsonl', rows: instances.length },
        { config: 'enconda_full', split: 'test', path: 'enconda/full/instances.parquet', rows: instances.length },
      ],
      notes: ['config `enconda`: one gold JSON per README instance; the READMEs are under `enconda/error_gen_<owner>_<repo>/<instance>/`'],
      tags: ['enconda-bench', 'readme'],
    };
  },
};
