import { orderedStages } from '../graph-types.js';
import { EXPORTERS } from '../export/exporters.js';
import { envforgeVersion } from '../export/provenance.js';
import { familyForLanguage } from '../../stages/inspect/content-filter.js';
import { sqlIdent } from '../store/duck.js';
import { diffStates, planChanges, type Snapshot, type StageChanges } from './changes.js';
import type { DatasetViews } from './dataset-views.js';
import { datasetFunnel, funnelLine, funnelLines, type StageFunnel } from './funnel.js';
import { llmUsage, type LlmUsage } from './llm-usage.js';
import { rolloutModels, type RolloutModelLine } from './rollout-models.js';

/**
 * Everything the report shows, gathered from the dataset's views in one pass; the HTML and
 * Markdown renderers only format it. Every section copes with stages that have not run (empty
 * views) and with recipes whose stages do not exist yet.
 */

export interface RecipeFunnel {
  recipe: string;
  title: string;
  /** Stages of the recipe that exist in this envforge, with their counts. */
  stages: StageFunnel[];
  missing: string[];
}

/** A count by category (and optional series, e.g. status or family), for a chart and a table. */
export interface Distribution {
  id: string;
  title: string;
  note: string;
  series: string;
  rows: { category: string; series: string; count: number }[];
}

export interface PaperStep {
  step: string;
  /** The step's chart label. */
  short: string;
  python: number;
  jvm: number;
}

export interface SandboxTime {
  /** Every sandbox run of the dataset (history: reruns included). */
  runs: number;
  total_ms: number;
  /** Percentiles over the current rows, by family and overall. */
  groups: { family: string; runs: number; total_ms: number; p50_ms: number; p90_ms: number; p95_ms: number; max_ms: number }[];
  points: { family: string; repository: string; run_ms: number; status: string }[];
}

export interface ReportData {
  dataset: string;
  envforgeVersion: string;
  /** All funnels on one line (`; `-separated), for one-line messages. */
  funnelLine: string;
  /** One line per chain of stages (recipe). */
  funnelLines: string[];
  funnel: StageFunnel[];
  recipes: RecipeFunnel[];
  envbenchSteps: PaperStep[];
  distributions: Distribution[];
  sandbox: SandboxTime;
  llm: LlmUsage[];
  /** One line per model of the rollout stage (empty when it has not run). */
  rollout?: RolloutModelLine[];
  changes: StageChanges[];
  changesSince: string;
  /** Written next to the report after it renders. */
  snapshot: Snapshot;
}

export async function gatherReport(views: DatasetViews, reportDir: string): Promise<ReportData> {
  const funnel = await datasetFunnel(views);
  const recipes: RecipeFunnel[] = EXPORTERS.map((e) => ({
    recipe: e.recipe,
    title: e.title,
    stages: e.stages.map((s) => funnel.find((f) => f.stage === s)).filter((f): f is StageFunnel => f !== undefined),
    missing: e.stages.filter((s) => !views.has(s)),
  }));
  const plan = await planChanges(views, reportDir);
  return {
    dataset: views.layout.dataset,
    envforgeVersion: envforgeVersion(),
    funnelLine: funnelLine(funnel),
    funnelLines: funnelLines(funnel),
    funnel,
    recipes,
    envbenchSteps: await envbenchSteps(views),
    distributions: await distributions(views),
    sandbox: await sandboxTime(views),
    llm: await llmUsage(views, 'all'),
    rollout: await rolloutModels(views),
    changes: diffStates(orderedStages(views.graph).map((s) => s.name), plan.current, plan.previous, plan.label),
    changesSince: plan.label,
    snapshot: plan.next,
  };
}

type Counts = { python: number; jvm: number };
const zero = (): Counts => ({ python: 0, jvm: 0 });

/** EnvBench's funnel per family, in the paper's order (§3.3): what survives each filter. */
async function envbenchSteps(views: DatasetViews): Promise<PaperStep[]> {
  if (!['search', 'clone', 'inspect', 'baseline'].every((s) => views.has(s))) return [];
  const byLanguage = async (stage: string, where: string) => {
    const c = zero();
    for (const r of await views.duck.all(`SELECT language, count(*) AS n FROM ${sqlIdent(stage)} WHERE ${where} GROUP BY 1`)) {
      const f = familyForLanguage(r.language as string | null);
      if (f) c[f] += Number(r.n);
    }
    return c;
  };
  const byFamily = async (stage: string, where: string) => {
    const c = zero();
    for (const r of await views.duck.all(`SELECT family, count(*) AS n FROM ${sqlIdent(stage)} WHERE ${where} GROUP BY 1`)) {
      if (r.family === 'python' || r.family === 'jvm') c[r.family] += Number(r.n);
    }
    return c;
  };
  const steps: [string, string, Counts][] = [
    ['candidates (rows of the search input)', 'candidates', await byLanguage('search', 'true')],
    ['selected by search (thresholds, license, cutoff)', 'selected', await byLanguage('search', `status = 'accepted'`)],
    ['cloned at a pinned revision', 'cloned', await byLanguage('clone', `status = 'accepted'`)],
    ['exactly one dependency manager', 'one manager', await byFamily('inspect', `status = 'accepted' OR reason NOT IN ('no_dependency_manager', 'multiple_dependency_managers', 'wrong_family')`)],
    ['no Docker configuration', 'no Docker', await byFamily('inspect', `status = 'accepted' OR reason = 'monorepo'`)],
    ['not a monorepo', 'no monorepo', await byFamily('inspect', `status = 'accepted'`)],
    ['not configured by the deterministic script (final)', 'not configurable', await byFamily('baseline', `status = 'accepted'`)],
  ];
  return steps.map(([step, short, c]) => ({ step, short, ...c }));
}

async function distributions(views: DatasetViews): Promise<Distribution[]> {
  const out: Distribution[] = [];
  const add = async (id: string, title: string, note: string, series: string, stage: string, sql: string) => {
    if (!views.has(stage)) return;
    const rows = await views.duck.all(sql);
    out.push({ id, title, note, series, rows: rows.map((r) => ({ category: String(r.category ?? '(none)'), series: String(r.series ?? ''), count: Number(r.count) })) });
  };
  await add('languages', 'Primary languages of the candidates', 'search rows by GitHub primary language and decision', 'status', 'search',
    `SELECT coalesce(language, '(none)') AS category, status AS series, count(*) AS count FROM search GROUP BY 1, 2 ORDER BY 1, 2`);
  await add('families', 'Families inspected', 'inspect rows by EnvBench family and decision', 'status', 'inspect',
    `SELECT coalesce(family, '(other)') AS category, status AS series, count(*) AS count FROM inspect GROUP BY 1, 2 ORDER BY 1, 2`);
  await add('managers', 'Dependency managers found', 'every manager declared in the root of an inspected repository (a repository may have several)', 'family', 'inspect',
    `SELECT m AS category, coalesce(family, '(other)') AS series, count(*) AS count FROM (SELECT unnest(managers) AS m, family FROM inspect) GROUP BY 1, 2 ORDER BY 1, 2`);
  await add('final-managers', 'Dependency managers of the final set', 'baseline accepted rows (the benchmark), as in the paper: pip / Poetry, Gradle / Maven', 'family', 'baseline',
    `SELECT coalesce(manager, '(none)') AS category, family AS series, count(*) AS count FROM baseline WHERE status = 'accepted' GROUP BY 1, 2 ORDER BY 1, 2`);
  await add('failure-classes', 'Baseline outcomes', 'accepted: why the script failed (setup or metric); rejected: configured; error: infrastructure', 'status', 'baseline',
    `SELECT CASE WHEN status = 'accepted' THEN coalesce(failure_class, '?') ELSE coalesce(reason, '?') END AS category, status AS series, count(*) AS count FROM baseline GROUP BY 1, 2 ORDER BY 1, 2`);
  await add('findings', 'Inspect findings', 'malformed, oversized or unsafe files and walk caps, by kind', 'family', 'inspect',
    `SELECT coalesce(nullif(trim(split_part(regexp_replace(f, '^[^:]*: ', ''), ':', 1)), ''), 'other') AS category, coalesce(family, '(other)') AS series, count(*) AS count ` +
      `FROM (SELECT unnest(findings) AS f, family FROM inspect) GROUP BY 1, 2 ORDER BY 1, 2`);
  return out;
}

async function sandboxTime(views: DatasetViews): Promise<SandboxTime> {
  const empty: SandboxTime = { runs: 0, total_ms: 0, groups: [], points: [] };
  if (!views.has('baseline')) return empty;
  const [h] = await views.duck.all(`SELECT count(run_ms) AS runs, coalesce(sum(run_ms), 0) AS total FROM baseline_history`);
  const stats = (where: string, by: string) =>
    views.duck.all(
      `SELECT ${by} AS family, count(run_ms) AS runs, coalesce(sum(run_ms), 0) AS total, coalesce(quantile_disc(run_ms, 0.5), 0) AS p50, ` +
        `coalesce(quantile_disc(run_ms, 0.9), 0) AS p90, coalesce(quantile_disc(run_ms, 0.95), 0) AS p95, coalesce(max(run_ms), 0) AS mx ` +
        `FROM baseline WHERE run_ms IS NOT NULL ${where} GROUP BY 1 ORDER BY 1`,
    );
  const groups = [...(await stats('', `coalesce(family, '(other)')`)), ...(await stats('', `'all'`))];
  const points = await views.duck.all(`SELECT family, repository, run_ms, status FROM baseline WHERE run_ms IS NOT NULL ORDER BY family, repository`);
  return {
    runs: Number(h?.runs ?? 0),
    total_ms: Number(h?.total ?? 0),
    groups: groups.map((g) => ({
      family: String(g.family),
      runs: Number(g.runs),
      total_ms: Number(g.total),
      p50_ms: Number(g.p50),
      p90_ms: Number(g.p90),
      p95_ms: Number(g.p95),
      max_ms: Number(g.mx),
    })),
    points: points.map((p) => ({ family: String(p.family ?? '(other)'), repository: String(p.repository), run_ms: Number(p.run_ms), status: String(p.status) })),
  };
}
