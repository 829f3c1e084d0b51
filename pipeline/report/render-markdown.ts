import { markdownTable } from 'markdown-table';
import { duration, percent, sample, usd } from './format.js';
import type { ReportData } from './report-data.js';

/** report.md: the same sections as report.html, as GitHub-flavoured Markdown; charts are the SVG files beside it. */
export function renderMarkdown(d: ReportData, charts: Record<string, string>): string {
  const t = (rows: (string | number)[][]) => markdownTable(rows.map((r) => r.map(String)));
  const img = (id: string, alt: string) => (charts[id] ? [`![${alt}](${charts[id]})`, ''] : []);
  const out: string[] = [`# envforge report: dataset \`${d.dataset}\``, '', `envforge ${d.envforgeVersion}.`, '', ...(d.funnelLines.length ? d.funnelLines : [d.funnelLine]).map((l) => `- funnel: ${l}`), ''];

  out.push('## Funnel', '');
  const ran = d.funnel.filter((s) => s.ran);
  if (ran.length === 0) out.push('No stage has run in this dataset yet: start with `envforge run search` (or `make demo`).', '');
  else {
    out.push(...img('funnel', 'rows per stage by status'));
    out.push(
      t([
        ['stage', 'input', 'rows', 'accepted', 'rejected', 'error', 'kept', 'top rejection reasons'],
        ...d.funnel.map((s) =>
          s.ran
            ? [s.stage, s.input, s.rows, s.accepted, s.rejected, s.error, percent(s.accepted, s.rows), s.topReasons.map((r) => `${r.status}:${r.reason} ${r.count}`).join('<br>')]
            : [s.stage, s.input, 'not run', '', '', '', '', ''],
        ),
      ]),
      '',
    );
  }
  for (const r of d.recipes) {
    if (r.missing.length > 0) out.push(`- ${r.title}: not built yet (stages ${r.missing.join(', ')} do not exist in this envforge).`);
  }
  if (d.recipes.some((r) => r.missing.length > 0)) out.push('');

  if (d.envbenchSteps.length > 0) {
    out.push('## EnvBench funnel per family', '', 'What survives each filter, in the order of the paper (§3.3).', '');
    out.push(...img('paper', 'EnvBench funnel per family'));
    out.push(t([['step', 'Python', 'JVM'], ...d.envbenchSteps.map((s) => [s.step, s.python, s.jvm])]), '');
  }

  out.push('## Distributions', '');
  for (const dist of d.distributions) {
    out.push(`### ${dist.title}`, '', `${dist.note}.`, '');
    if (dist.rows.length === 0) {
      out.push('No data.', '');
      continue;
    }
    out.push(...img(dist.id, dist.title));
    out.push(t([['', dist.series, 'count'], ...dist.rows.map((r) => [r.category, r.series, r.count])]), '');
  }

  out.push('## Sandbox time', '');
  if (d.sandbox.runs === 0) out.push('No sandbox run in this dataset yet (the baseline stage has not run).', '');
  else {
    out.push(`${d.sandbox.runs} sandbox runs in this dataset, reruns included: ${duration(d.sandbox.total_ms)} in total. Current rows:`, '');
    out.push(
      t([['family', 'runs', 'total', 'p50', 'p90', 'p95', 'max'], ...d.sandbox.groups.map((g) => [g.family, g.runs, duration(g.total_ms), duration(g.p50_ms), duration(g.p90_ms), duration(g.p95_ms), duration(g.max_ms)])]),
      '',
    );
    out.push(...img('sandbox', 'sandbox seconds per repository'));
  }

  out.push('## LLM tokens and cost', '');
  if (d.llm.length === 0) out.push('None: no stage of this dataset called a language model (no entry in its call ledger).', '');
  else {
    out.push(
      t([['stage', 'model', 'calls', 'cached', 'tokens in', 'tokens out', 'cost'], ...d.llm.map((l) => [l.stage, l.model, l.calls, l.cached, l.tokens_in, l.tokens_out, usd(l.cost_usd)])]),
      '',
    );
  }

  if (d.rollout?.length) {
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    out.push('## Rollout per model', '');
    out.push(
      t([['model', 'instances', 'trajectories', 'pass@1', 'pass@k', 'tokens / trajectory', 'turns / trajectory', 'cost', 'errors'], ...d.rollout.map((r) => [r.model, r.instances, r.trajectories, pct(r.pass_at_1), `${pct(r.pass_at_k)} (k=${r.k})`, Math.round(r.tokens_per_trajectory), r.turns_per_trajectory.toFixed(1), usd(r.cost_usd), r.errors])]),
      '',
    );
  }

  out.push('## Changes since the previous run', '', `Compared with ${d.changesSince}.`, '');
  out.push(
    t([
      ['stage', 'new', 'dropped', 'changed', 'unchanged', 'examples'],
      ...d.changes.map((c) =>
        c.basis === 'not run'
          ? [c.stage, '', '', '', '', 'not run']
          : c.basis === 'first run'
            ? [c.stage, c.added.length, '', '', '', 'first run: nothing earlier to compare with']
            : [c.stage, c.added.length, c.dropped.length, c.changed.length, c.unchanged, changeExamples(c)],
      ),
    ]),
    '',
  );
  return out.join('\n');
}

export function changeExamples(c: ReportData['changes'][number]): string {
  const parts: string[] = [];
  if (c.added.length) parts.push(`new: ${sample(c.added, 3)}`);
  if (c.dropped.length) parts.push(`dropped: ${sample(c.dropped, 3)}`);
  if (c.changed.length) parts.push(`changed: ${c.changed.slice(0, 3).map((x) => `${x.key} ${x.from} → ${x.to}`).join(', ')}${c.changed.length > 3 ? ', …' : ''}`);
  return parts.join('; ') || 'no change';
}
