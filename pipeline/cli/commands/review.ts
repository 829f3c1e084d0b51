import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { ConfigError, SetupError } from '../../errors.js';
import type { StageGraph } from '../../graph-types.js';
import { openCatalog } from '../../store/catalog.js';
import { decisionsSql, writeDecisions, type DecisionRow } from '../../store/review-decisions.js';
import { stageHasParts } from '../../store/layout.js';
import { newRunId } from '../../runner/run-stage.js';
import { timestampText } from '../../runner/cells.js';
import { openContext, type GlobalOptions, type Io } from '../context.js';
import { runCommand } from './run.js';
import { jsonCell } from '../../store/json-cell.js';

/**
 * `envforge review export | import <file> | status`: the human pass of EnConda-Bench's review.
 * export writes one YAML entry per valid error (diff, validation evidence, LLM verdict, and a
 * `decision` to fill in: accept | reject); import stores the decisions through the store
 * (pipeline/store/review-decisions.ts), reports the LLM↔human agreement and reruns review and
 * tiers so the decisions take effect; status prints the error funnel and the agreement.
 */

export interface ReviewEntry {
  error_id: string;
  repository: string;
  instance: string;
  error_type: string;
  description: string;
  golden_answer: string;
  diff: string;
  evidence: { validation: string; reason: string; failing_step: string | null; output: string };
  llm_verdict: string;
  llm_rationale: string;
  decision: 'accept' | 'reject' | null;
  note: string;
}

const HEADER =
  '# envforge review file: one entry per injected error that validation judged valid.\n' +
  '# Set `decision` to accept (a real, well-described error the golden answer fixes) or reject,\n' +
  '# optionally a `note`, then: envforge review import <this file>. Entries left null are skipped.\n';

export async function reviewExportCommand(opts: GlobalOptions & { out?: string }, graph: StageGraph, io: Io): Promise<{ file: string; entries: ReviewEntry[] }> {
  const ctx = await openContext(opts, io);
  if (!stageHasParts(ctx.layout, 'review')) throw new SetupError('review export: the review stage has not run in this dataset: run `envforge run review` first');
  const duck = await openCatalog(ctx.layout, graph.stages);
  let entries: ReviewEntry[];
  try {
    const rows = await duck.all(`SELECT repository, instance, doc_path, reviews, kept_errors, gold FROM review ORDER BY key`);
    const injected = await duck.all(`SELECT key, errors FROM validate`);
    const errorsOf = new Map(injected.map((r) => [String(r.key), jsonCell(r.errors) as Record<string, unknown>[]]));
    const decided = new Map((await duck.all(`SELECT error_id, decision, note FROM review_decisions`)).map((r) => [String(r.error_id), r]));
    entries = [];
    for (const r of rows) {
      const reviews = jsonCell(r.reviews) as Record<string, unknown>[];
      const errs = errorsOf.get(String(r.instance)) ?? [];
      for (const rv of reviews) {
        if (!rv.valid) continue;
        const e = errs[Number(rv.index) - 1] ?? {};
        const edit = (e.edit ?? {}) as Record<string, unknown>;
        const step = rv.failing_step as { line: number; text: string; exit_code: number | null } | null;
        const prior = decided.get(String(rv.error_id));
        entries.push({
          error_id: String(rv.error_id),
          repository: String(r.repository),
          instance: String(r.instance),
          error_type: String(rv.error_type),
          description: String(e.error_description ?? ''),
          golden_answer: String(e.golden_answer ?? ''),
          diff: unifiedDiff(String(r.doc_path), edit),
          evidence: {
            validation: String(rv.validate_reason),
            reason: String(rv.validate_text ?? ''),
            failing_step: step ? `line ${step.line}: ${step.text} (exit ${step.exit_code})` : null,
            output: String(rv.output_excerpt ?? ''),
          },
          llm_verdict: String(rv.llm_verdict),
          llm_rationale: String(rv.llm_rationale ?? ''),
          decision: prior ? (String(prior.decision) as 'accept' | 'reject') : null,
          note: prior ? String(prior.note ?? '') : '',
        });
      }
    }
  } finally {
    duck.close();
  }
  const file = opts.out ?? join(ctx.layout.datasetDir, 'review', 'review.yaml');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, HEADER + YAML.stringify(entries, { lineWidth: 0 }));
  io.out(`review: ${entries.length} errors to review written to ${file}`);
  io.out(await reviewSummary(opts, graph, io));
  return { file, entries };
}

const decisionEntry = z.looseObject({
  error_id: z.string().regex(/^.+#\d+$/, { message: 'expected <instance>#<n>' }),
  decision: z.enum(['accept', 'reject']).nullable().optional(),
  note: z.string().nullable().optional(),
  llm_verdict: z.string().optional(),
  reviewer: z.string().optional(),
});

export interface ImportResult {
  imported: number;
  skipped: number;
  agreement: Agreement;
}

export async function reviewImportCommand(
  file: string,
  opts: GlobalOptions & { reviewer?: string; rerun?: boolean },
  graph: StageGraph,
  io: Io,
): Promise<ImportResult> {
  const ctx = await openContext(opts, io);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`review import: cannot read ${file}: ${(err as Error).message}`);
  }
  // JSONL (one entry per line) or YAML (a list).
  let raw: unknown;
  try {
    raw = file.endsWith('.jsonl') ? text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown) : YAML.parse(text);
  } catch (err) {
    throw new ConfigError(`review import: ${file} is not valid ${file.endsWith('.jsonl') ? 'JSONL' : 'YAML'}: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!Array.isArray(raw)) throw new ConfigError(`review import: ${file}: expected a list of entries`);
  const rows: DecisionRow[] = [];
  let skipped = 0;
  const now = timestampText(new Date());
  raw.forEach((entry, i) => {
    const p = decisionEntry.safeParse(entry);
    if (!p.success) throw new ConfigError(`review import: ${file}: entry ${i + 1}: ${p.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`);
    if (!p.data.decision) {
      skipped++;
      return;
    }
    const [instance, n] = [p.data.error_id.slice(0, p.data.error_id.lastIndexOf('#')), Number(p.data.error_id.split('#').pop())];
    rows.push({
      error_id: p.data.error_id,
      instance,
      error_index: n,
      decision: p.data.decision,
      reviewer: p.data.reviewer ?? opts.reviewer ?? '',
      note: p.data.note ?? '',
      llm_verdict: p.data.llm_verdict ?? '',
      decided_at: now,
    });
  });
  if (rows.length > 0) await writeDecisions(ctx.layout, newRunId(), rows);
  io.out(`review: ${rows.length} decisions imported from ${file}${skipped ? ` (${skipped} entries without a decision skipped)` : ''}`);
  if (rows.length > 0 && opts.rerun !== false) {
    // The decisions change what review keeps; LLM verdicts come from the response cache.
    await runCommand(['review', 'tiers'], { ...opts, force: true }, graph, io);
  }
  const agreement = await computeAgreement(opts, graph, io);
  io.out(formatAgreement(agreement));
  return { imported: rows.length, skipped, agreement };
}

export interface Agreement {
  /** Errors with both an LLM verdict (keep/reject) and a human decision. */
  compared: number;
  agreed: number;
  rate: number | null;
  humanDecisions: number;
}

export async function computeAgreement(opts: GlobalOptions, graph: StageGraph, io: Io): Promise<Agreement> {
  const ctx = await openContext(opts, io);
  const duck = await openCatalog(ctx.layout, graph.stages);
  try {
    const [r] = await duck.all(
      `SELECT count(*) AS decisions, count(*) FILTER (llm_verdict IN ('keep', 'reject')) AS compared, ` +
        `count(*) FILTER ((llm_verdict = 'keep' AND decision = 'accept') OR (llm_verdict = 'reject' AND decision = 'reject')) AS agreed ` +
        `FROM (${decisionsSql(ctx.layout)})`,
    );
    const compared = Number(r?.compared ?? 0);
    const agreed = Number(r?.agreed ?? 0);
    return { compared, agreed, rate: compared ? agreed / compared : null, humanDecisions: Number(r?.decisions ?? 0) };
  } finally {
    duck.close();
  }
}

export function formatAgreement(a: Agreement): string {
  if (a.rate === null) return `LLM↔human agreement: n/a (${a.humanDecisions} human decisions, none on an error the LLM filter judged)`;
  return `LLM↔human agreement: ${(a.rate * 100).toFixed(1)}% (${a.agreed} of ${a.compared} errors; ${a.humanDecisions} human decisions)`;
}

export interface ErrorFunnel {
  injected: number;
  valid: number;
  kept: number;
  tierInstances: number;
  tierErrors: number;
  levels: Record<string, number>;
}

export async function errorFunnel(opts: GlobalOptions, graph: StageGraph, io: Io): Promise<ErrorFunnel> {
  const ctx = await openContext(opts, io);
  const duck = await openCatalog(ctx.layout, graph.stages);
  try {
    const one = async (sql: string) => Number((await duck.all(sql))[0]?.n ?? 0);
    const levels = await duck.all(`SELECT level, count(*) AS n FROM tiers WHERE status = 'accepted' GROUP BY level ORDER BY try_cast(substr(level, 6) AS INTEGER)`);
    return {
      injected: await one(`SELECT coalesce(sum(error_count), 0) AS n FROM inject WHERE status = 'accepted'`),
      valid: await one(`SELECT coalesce(sum(valid_errors), 0) AS n FROM validate`),
      kept: await one(`SELECT coalesce(sum(kept_count), 0) AS n FROM review WHERE status = 'accepted'`),
      tierInstances: await one(`SELECT count(*) AS n FROM tiers WHERE status = 'accepted'`),
      tierErrors: await one(`SELECT coalesce(sum(error_count), 0) AS n FROM tiers WHERE status = 'accepted'`),
      levels: Object.fromEntries(levels.map((l) => [String(l.level), Number(l.n)])),
    };
  } finally {
    duck.close();
  }
}

export function formatErrorFunnel(f: ErrorFunnel): string {
  const levels = Object.entries(f.levels).map(([l, n]) => `${l} ${n}`).join(', ');
  return `errors: inject ${f.injected} → validate ${f.valid} valid → review ${f.kept} kept → tiers ${f.tierInstances} instances with ${f.tierErrors} errors${levels ? ` (${levels})` : ''}`;
}

async function reviewSummary(opts: GlobalOptions, graph: StageGraph, io: Io): Promise<string> {
  return `${formatErrorFunnel(await errorFunnel(opts, graph, io))}\n${formatAgreement(await computeAgreement(opts, graph, io))}`;
}

export async function reviewStatusCommand(opts: GlobalOptions, graph: StageGraph, io: Io): Promise<{ funnel: ErrorFunnel; agreement: Agreement }> {
  const funnel = await errorFunnel(opts, graph, io);
  const agreement = await computeAgreement(opts, graph, io);
  io.out(`${formatErrorFunnel(funnel)}\n${formatAgreement(agreement)}`);
  return { funnel, agreement };
}

function unifiedDiff(docPath: string, edit: Record<string, unknown>): string {
  const a = String(edit.original ?? '').split('\n');
  const b = String(edit.injected ?? '').split('\n');
  return [`--- ${docPath} (original)`, `+++ ${docPath} (injected)`, `@@ -${edit.line_start},${a.length} +${edit.injected_line_start},${b.length} @@`, ...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)].join('\n') + '\n';
}
