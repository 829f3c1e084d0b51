import { markdownTable } from 'markdown-table';
import YAML from 'yaml';
import type { Provenance } from './provenance.js';
import type { ExportedRecipe, RecipeExporter, SkippedRecipe, Split } from './recipe.js';

/**
 * The dataset card: README.md with the YAML header the Hugging Face Hub reads (configs with
 * data_files per split, license, size category, task categories, tags, pretty name) and a body
 * with what a reader needs to trust the data: the recipes, row counts per split, provenance
 * (envforge version, config hashes, run ids, cutoffs, models) and the funnel.
 */

export interface CardInput {
  provenance: Provenance;
  exported: ExportedRecipe[];
  skipped: SkippedRecipe[];
  exporters: readonly RecipeExporter[];
}

export function sizeCategory(n: number): string {
  const bounds: [number, string][] = [
    [1_000, 'n<1K'],
    [10_000, '1K<n<10K'],
    [100_000, '10K<n<100K'],
    [1_000_000, '100K<n<1M'],
    [10_000_000, '1M<n<10M'],
  ];
  for (const [b, label] of bounds) if (n < b) return label;
  return 'n>10M';
}

/** The YAML header as an object, key order fixed. */
export function cardHeader(input: CardInput): Record<string, unknown> {
  const splits = input.exported.flatMap((r) => r.splits);
  const configs = new Map<string, Split[]>();
  for (const s of splits) configs.set(s.config, [...(configs.get(s.config) ?? []), s]);
  const defaultConfig = input.exported.find((r) => r.defaultConfig)?.defaultConfig;
  // A config's rows: each instance appears once per config, so the largest config is the size.
  const rows = Math.max(0, ...[...configs.values()].map((ss) => ss.reduce((n, s) => n + s.rows, 0)));
  return {
    pretty_name: `envforge ${input.provenance.dataset}`,
    license: 'other',
    license_name: 'per-repository',
    license_details:
      'Each row names a public repository, which keeps its own license (column license_spdx of the *_full configs; ' +
      'selected licenses are permissive). The metadata envforge adds follows the license of whoever publishes it.',
    size_categories: [sizeCategory(rows)],
    task_categories: ['text-generation'],
    tags: ['code', 'software-engineering', 'agents', 'benchmark', 'envforge', ...new Set(input.exported.flatMap((r) => r.tags))],
    configs: [...configs.entries()].map(([name, ss]) => ({
      config_name: name,
      ...(name === defaultConfig ? { default: true } : {}),
      data_files: ss.map((s) => ({ split: s.split, path: s.path })),
    })),
  };
}

const table = (rows: (string | number)[][]) => markdownTable(rows.map((r) => r.map(String)));
const code = (s: string) => `\`${s}\``;

export function renderCard(input: CardInput): string {
  const p = input.provenance;
  const header = YAML.stringify(cardHeader(input), { lineWidth: 0 });
  const out: string[] = ['---', header.trimEnd(), '---', '', `# envforge dataset ${code(p.dataset)}`, ''];
  out.push(
    `Environment-setup benchmark instances rebuilt by envforge ${p.envforge_version} from public GitHub repositories, ` +
      'following the construction recipes of the published benchmarks. Every file is written deterministically from the pipeline\'s artifacts: ' +
      'the same artifacts give the same bytes.',
    '',
    '## Recipes',
    '',
  );
  for (const e of input.exporters) {
    const done = input.exported.find((r) => r.recipe === e.recipe);
    const skipped = input.skipped.find((r) => r.recipe === e.recipe);
    out.push(`### ${e.title}`, '', `Format: ${e.format}.`, '');
    if (done) {
      out.push(table([['config', 'split', 'rows', 'file'], ...done.splits.map((s) => [s.config, s.split, s.rows, code(s.path)])]), '');
      for (const n of done.notes) out.push(`- ${n}`);
      out.push('');
    } else if (skipped) {
      out.push(`Not exported: ${skipped.skipped}.`, '');
    }
  }
  for (const r of input.exported) {
    if (!r.licenses?.length) continue;
    out.push(`## Licenses (${r.title})`, '', table([['license (SPDX)', 'repositories'], ...r.licenses.map((l) => [l.spdx, l.count])]), '');
  }
  out.push('## Provenance', '', `- envforge version: ${p.envforge_version}`, `- dataset: ${code(p.dataset)}`);
  for (const c of p.cutoffs) {
    out.push(`- date cutoff ${code(c.key)} = ${c.value}: ${c.meaning}${c.matches_rows ? '' : ' (read from the current config, which differs from the one the rows were made with)'}`);
  }
  if (p.models.length === 0) out.push('- models used: none (no stage of this dataset called a language model)');
  else for (const m of p.models) out.push(`- model ${code(m.model)} in stage ${m.stage}: ${m.calls} calls (${m.cached} from the cache), ${m.tokens_in} tokens in, ${m.tokens_out} out`);
  out.push('', 'Stages, as recorded in the rows (a stage\'s config hash covers only its own config sections):', '');
  out.push(
    table([
      ['stage', 'version', 'config hash', 'current config', 'run ids', 'rows made'],
      ...p.stages.map((s) => [
        s.stage,
        s.stage_versions.join(', '),
        s.config_hashes.map(code).join(', '),
        s.config_current ? 'same' : 'changed since',
        s.run_ids.map(code).join(', '),
        s.made_from === s.made_until ? (s.made_from ?? '') : `${s.made_from} … ${s.made_until}`,
      ]),
    ]),
    '',
  );
  out.push('## Funnel', '', 'Current rows of each stage; a stage reads its upstream\'s accepted rows.', '');
  out.push(
    table([
      ['stage', 'input', 'rows', 'accepted', 'rejected', 'error', 'top reasons'],
      ...p.funnel.map((f) => [f.stage, f.input, f.rows, f.accepted, f.rejected, f.error, f.topReasons.slice(0, 4).map((r) => `${r.status}:${r.reason} ${r.count}`).join(', ')]),
    ]),
    '',
  );
  out.push(
    '## Files',
    '',
    '- `provenance.json`: the provenance and funnel above, as data.',
    '- `*.jsonl`: the benchmarks\' published formats; `*/full/*.parquet`: every envforge column (zstd, one row group).',
    '',
    '## Upload',
    '',
    '```sh',
    'huggingface-cli upload <org>/<name> . --repo-type dataset   # from this folder',
    '```',
    '',
  );
  return out.join('\n');
}
