import { extname } from 'node:path';
import { accept, reject, type Cells, type Columns, type Item, type Outcome, type Stage } from '../../pipeline/stage.js';
import type { InjectedError } from '../inject/gold.js';
import { jsonCell } from '../../pipeline/store/json-cell.js';
import { deriveTiers, goldErrors, type TierSource } from './compose.js';

/**
 * tiers: EnConda-Bench's levels 1..10+. The review stage's accepted instances are grouped by
 * repository (Stage.group); from each group come the base instances (the errors that survived
 * validation and review), the single-type splits and the merges (compose.ts). One row per
 * derived instance, keyed by its name, with exactly what the EnConda exporter writes
 * (pipeline/export/enconda.ts): repository, instance, readme_ext, readme_text, errors (the gold
 * errors) — plus the gold JSON with its level and the edits each error came from. Merges that
 * would combine overlapping edits, and instances beyond a level target, are rejected rows.
 */

const columns = {
  repository: 'VARCHAR',
  repo_name: 'VARCHAR',
  instance: 'VARCHAR',
  /** base, split (`_only_E<k>`) or merge (`_merge_k<N>`). */
  kind: 'VARCHAR',
  level: 'VARCHAR',
  error_count: 'INTEGER',
  error_types: 'VARCHAR[]',
  doc_path: 'VARCHAR',
  readme_ext: 'VARCHAR',
  readme_text: 'VARCHAR',
  /** The gold errors, in the released shape (what the exporter writes into README.json). */
  errors: 'JSON',
  /** The reference's README.json: readme, repo_name, level, errors. */
  gold: 'JSON',
  /** Per error: its edit (original line range, original and injected text) and the base instance and error it came from. */
  edits: 'JSON',
  sources: 'VARCHAR[]',
} satisfies Columns;

export const tiersStage: Stage<Item> = {
  name: 'tiers',
  version: 1,
  description: 'split instances into single-type errors and merge instances of a repository into levels 1..10+',
  input: 'review',
  columns,
  group: (row) => String(row.repository),
  key: (item) => String(item.group),
  async run(item, ctx) {
    const s = ctx.config.config.tiers;
    const repository = String(item.group);
    const repoName = repository.replace('/', '_');
    const rows = (item.rows as Item[]) ?? [];
    const docPath = String(rows[0]?.doc_path ?? 'README.md');
    const sources: TierSource[] = rows.map((r) => ({
      instance: String(r.instance),
      original: String(r.original_text ?? ''),
      errors: jsonCell(r.kept_errors) as InjectedError[],
    }));
    const { instances, refusals } = deriveTiers(repoName, sources, s);
    const ext = readmeExt(docPath);
    const base: Cells = { repository, repo_name: repoName, doc_path: docPath, readme_ext: ext };
    const out: Outcome[] = instances.map((d) =>
      accept(
        {
          ...base,
          instance: d.instance,
          kind: d.kind,
          level: d.level,
          error_count: d.errors.length,
          error_types: d.errors.map((e) => e.error_type),
          readme_text: d.text,
          errors: goldErrors(d.errors) as unknown as Record<string, unknown>,
          gold: { readme: d.instance, repo_name: repoName, level: d.level, errors: goldErrors(d.errors) },
          edits: d.errors.map((e, i) => ({ ...d.origins[i], error_type: e.error_type, edit: e.edit })) as unknown as Record<string, unknown>,
          sources: d.sources,
        },
        d.instance,
      ),
    );
    for (const r of refusals) out.push(reject(r.reason, r.text, { ...base, instance: r.instance }, r.instance));
    if (out.length === 0) return reject('no_errors_kept', 'no instance of this repository kept an error', base);
    return out;
  },
};

/** `md`, `rst`, `txt` ...: the README's extension as the release names the file (`README.<ext>`). */
export function readmeExt(docPath: string): string {
  const e = extname(docPath).slice(1).toLowerCase();
  return e === '' ? 'txt' : e;
}
