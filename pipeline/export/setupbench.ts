import { z } from 'zod';
import type { DatasetViews } from '../report/dataset-views.js';
import { acceptedExportTable, missingStages, type ExportedRecipe, type RecipeExporter, type SkippedRecipe } from './recipe.js';

/**
 * SetupBench's dependency_resolution tasks (../shared/reference/setupbench.md): one JSONL with
 * exactly the published fields, in the published order, and the same rows with every envforge
 * column in Parquet. The stages (conflicts → locate → reproduce) do not exist yet: until they do
 * the exporter is skipped with a note; the record format is pinned and tested here.
 *
 * Columns `reproduce` is expected to provide (a proposal): ecosystem, repo (owner/name),
 * issue_number, issue_url, comment_id, snippet, base_commit, success_command, base_image, image_tag.
 */

export const SETUPBENCH_STAGES = ['conflicts', 'locate', 'reproduce'] as const;

/** The published field list, in order. */
export const SETUPBENCH_FIELDS = [
  'ecosystem', 'repo', 'issue_number', 'issue_url', 'comment_id', 'snippet', 'base_commit', 'success_command',
  'instance_id', 'problem_statement', 'task_type', 'base_image', 'repo_url', 'image_tag',
] as const;

export const setupbenchRecord = z.strictObject({
  // The reference's five plus any added in config ([conflicts.ecosystems.<name>]): same name rule.
  ecosystem: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
  repo: z.string().regex(/^[^/\s]+\/[^/\s]+$/),
  issue_number: z.number().int().positive(),
  issue_url: z.string().url(),
  comment_id: z.number().int().positive(),
  snippet: z.string().min(1),
  base_commit: z.string().regex(/^[0-9a-f]{40}$/),
  success_command: z.string().min(1),
  instance_id: z.string().regex(/^deps-.+-[0-9a-f]{5}$/),
  problem_statement: z.string().min(1),
  task_type: z.literal('dependency_resolution'),
  base_image: z.string().min(1),
  repo_url: z.string().url(),
  image_tag: z.string().min(1),
});

export type SetupbenchInput = Pick<z.infer<typeof setupbenchRecord>, 'ecosystem' | 'repo' | 'issue_number' | 'issue_url' | 'comment_id' | 'snippet' | 'base_commit' | 'success_command' | 'base_image' | 'image_tag'>;

/** One dataset entry in the published field order. */
export function setupbenchEntry(r: SetupbenchInput): Record<string, unknown> {
  const name = r.repo.split('/')[1]!;
  const derived = {
    instance_id: `deps-${name}-${r.base_commit.slice(0, 5)}`,
    problem_statement:
      `There is a dependency conflict in this project when running ${r.success_command}. ` +
      'Please resolve the dependency conflict so that the command can run successfully.',
    task_type: 'dependency_resolution',
    repo_url: `https://github.com/${r.repo}`,
  };
  const all: Record<string, unknown> = { ...r, ...derived };
  return Object.fromEntries(SETUPBENCH_FIELDS.map((f) => [f, all[f]]));
}

export const setupbenchExporter: RecipeExporter = {
  recipe: 'setupbench',
  title: 'SetupBench (dependency resolution)',
  stages: SETUPBENCH_STAGES,
  format: 'the dependency_resolution JSONL with SetupBench\'s field list; every envforge column in Parquet',
  async exportRows(views: DatasetViews): Promise<ExportedRecipe | SkippedRecipe> {
    const why = missingStages(views, this);
    if (why) return { recipe: this.recipe, title: this.title, skipped: why };
    await acceptedExportTable(views, 'setupbench_export', 'reproduce', 'repo, issue_number, comment_id');
    const rows = await views.duck.all(`SELECT * FROM setupbench_export ORDER BY repo, issue_number, comment_id`);
    if (rows.length === 0) return { recipe: this.recipe, title: this.title, skipped: 'stage reproduce has no accepted conflicts' };
    const records = rows.map((r) => setupbenchEntry(r as unknown as SetupbenchInput));
    return {
      recipe: this.recipe,
      title: this.title,
      files: [
        { kind: 'jsonl', path: 'setupbench/dependency_resolution.jsonl', records, schema: setupbenchRecord },
        { kind: 'parquet', path: 'setupbench/full/dependency_resolution.parquet', query: 'SELECT * FROM setupbench_export ORDER BY repo, issue_number, comment_id', schema: z.looseObject({ repo: z.string() }) },
      ],
      splits: [
        { config: 'setupbench', split: 'test', path: 'setupbench/dependency_resolution.jsonl', rows: records.length },
        { config: 'setupbench_full', split: 'test', path: 'setupbench/full/dependency_resolution.parquet', rows: records.length },
      ],
      notes: ['config `setupbench`: SetupBench dependency_resolution tasks, field for field'],
      tags: ['setupbench', 'dependency-resolution'],
    };
  },
};
