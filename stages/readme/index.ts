import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '../../pipeline/config/fingerprint.js';
import { accept, fail, reject, type Columns, type Item, type Stage } from '../../pipeline/stage.js';
import { clonesRoot } from '../clone/index.js';
import { Findings, RepoFiles } from '../inspect/safe-files.js';
import { extractDoc, setupSteps, type DocExtract } from './extract.js';

/**
 * readme: the setup documentation of each repository inspect accepted (EnConda-Bench worked on
 * EnvBench's repositories; inspect's accepted rows are those that passed EnvBench's content
 * filters, for both families, without waiting for the Docker baseline). The README and the
 * secondary documents inspect found (INSTALL*, docs/install*, CONTRIBUTING*) are read from the
 * checkout; each yields its sections, code blocks and shell steps with exact line ranges. The
 * document the later stages inject errors into (`doc_path`) is the README when it has setup
 * steps, else the first secondary document that has some.
 */

const columns = {
  repository: 'VARCHAR',
  language: 'VARCHAR',
  family: 'VARCHAR',
  manager: 'VARCHAR',
  revision: 'VARCHAR',
  clone_path: 'VARCHAR',
  /** The README inspect found (may differ from doc_path). */
  readme_path: 'VARCHAR',
  /** The document with the setup steps, its format, full text, hash and line count. */
  doc_path: 'VARCHAR',
  doc_format: 'VARCHAR',
  doc_text: 'VARCHAR',
  doc_sha256: 'VARCHAR',
  doc_lines: 'INTEGER',
  /** Every document read: path, format, bytes, lines, sha256, counts (or the problem reading it). */
  documents: 'JSON',
  /** Full text of the other documents read, by path. */
  secondary_texts: 'JSON',
  /** Sections titled as install/setup, of every document: doc, title, level, line, start_line, end_line. */
  setup_sections: 'JSON',
  /** Every code block of every document with its line range, tag and whether it is shell. */
  code_blocks: 'JSON',
  /** Shell steps of every document: doc, line, end_line, column, text, program, category, source, block, section. */
  steps: 'JSON',
  shell_block_count: 'INTEGER',
  step_count: 'INTEGER',
  setup_step_count: 'INTEGER',
  findings: 'VARCHAR[]',
} satisfies Columns;

export const readmeStage: Stage<Item> = {
  name: 'readme',
  version: 1,
  description: 'extract setup docs: full text, install sections, shell code blocks and steps with line ranges',
  input: 'inspect',
  columns,
  key: (row) => String(row.repository),
  async run(row, ctx) {
    const s = ctx.config.config.readme;
    const base = {
      repository: String(row.repository),
      language: (row.language as string | null) ?? null,
      family: (row.family as string | null) ?? null,
      manager: (row.manager as string | null) ?? null,
      revision: (row.revision as string | null) ?? null,
      clone_path: (row.clone_path as string | null) ?? null,
      readme_path: (row.readme_path as string | null) ?? null,
    };
    const dir = join(clonesRoot(ctx.cacheDir), String(row.clone_path));
    if (!row.clone_path || !existsSync(dir)) {
      return fail('checkout_missing', `the checkout ${String(row.clone_path)} is not in the clone cache: rerun clone with --force --only ${base.repository}`, base);
    }
    const declared = Array.isArray(row.setup_docs) ? (row.setup_docs as string[]) : [];
    const paths = [...new Set([...(base.readme_path ? [base.readme_path] : []), ...(s.secondary_docs ? declared : [])])];
    if (paths.length === 0) return reject('no_setup_docs', 'inspect found no README, INSTALL, docs/install or CONTRIBUTING document', base);

    const findings = new Findings();
    const files = await RepoFiles.open(dir, s.max_file_bytes, findings);
    const docs: { extract: DocExtract; text: string; bytes: number }[] = [];
    const documents: Record<string, unknown>[] = [];
    let offset = 0;
    for (const path of paths) {
      const read = await files.readText(path);
      if (!read.ok) {
        documents.push({ path, problem: read.reason });
        if (read.reason === 'missing') findings.add(path, 'named by inspect but missing from the checkout');
        continue;
      }
      const extract = extractDoc(path, read.text, offset);
      offset += extract.blocks.length;
      const bytes = Buffer.byteLength(read.text);
      docs.push({ extract, text: read.text, bytes });
      documents.push({
        path,
        format: extract.format,
        bytes,
        lines: extract.lines,
        sha256: sha256(read.text),
        headings: extract.headings.length,
        setup_sections: extract.setup_sections.length,
        code_blocks: extract.blocks.length,
        shell_blocks: extract.blocks.filter((b) => b.shell).length,
        steps: extract.steps.length,
        setup_steps: setupSteps(extract).length,
      });
    }
    const all = docs.map((d) => d.extract);
    const target = docs.find((d) => d.extract.path === base.readme_path && setupSteps(d.extract).length > 0) ?? docs.find((d) => setupSteps(d.extract).length > 0);
    const cells = {
      ...base,
      doc_path: target?.extract.path ?? null,
      doc_format: target?.extract.format ?? null,
      doc_text: target?.text ?? null,
      doc_sha256: target ? sha256(target.text) : null,
      doc_lines: target?.extract.lines ?? null,
      documents: json(documents),
      secondary_texts: Object.fromEntries(docs.filter((d) => d !== target).map((d) => [d.extract.path, d.text])),
      setup_sections: json(all.flatMap((d) => d.setup_sections)),
      code_blocks: json(all.flatMap((d) => d.blocks)),
      steps: json(all.flatMap((d) => d.steps)),
      shell_block_count: all.reduce((n, d) => n + d.blocks.filter((b) => b.shell).length, 0),
      step_count: all.reduce((n, d) => n + d.steps.length, 0),
      setup_step_count: all.reduce((n, d) => n + setupSteps(d).length, 0),
      findings: findings.list(),
    };
    if (docs.length === 0) return reject('setup_docs_unreadable', `none of ${paths.join(', ')} could be read (${findings.list().join('; ')})`, cells);
    if (!target) {
      const runOnly = cells.step_count > 0 ? ` (${cells.step_count} command${cells.step_count === 1 ? '' : 's'}, none installs, builds or sets up)` : '';
      return reject('no_setup_steps', `no setup steps in ${docs.map((d) => d.extract.path).join(', ')}${runOnly}`, cells);
    }
    return accept(cells);
  },
};

/** A JSON column's value (an array or object; the Cells type names objects only). */
function json(value: unknown): Record<string, unknown> {
  return value as Record<string, unknown>;
}
