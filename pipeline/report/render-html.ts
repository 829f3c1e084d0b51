import { escapeHtml as h, duration, percent, usd } from './format.js';
import type { ReportData } from './report-data.js';
import { changeExamples } from './render-markdown.js';

/**
 * report.html: one self-contained page (inline CSS and SVG, no script, no external asset), so it
 * can be mailed, attached to a CI run or opened from a file:// URL.
 */

const CSS = `
:root { --fg:#1d2330; --muted:#5f6b7a; --line:#e3e7ee; --bg:#f6f8fb; --acc:#2e7d32; --rej:#ef8f00; --err:#c62828; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif; color:var(--fg); background:var(--bg); }
main { max-width:1120px; margin:0 auto; padding:28px 32px 60px; }
header h1 { font-size:26px; margin:0 0 4px; letter-spacing:-0.01em; }
header p { margin:0; color:var(--muted); }
.tiles { display:grid; grid-template-columns:repeat(4,1fr); gap:14px; margin:22px 0 8px; }
.tile { background:#fff; border:1px solid var(--line); border-radius:10px; padding:14px 16px; }
.tile b { display:block; font-size:26px; line-height:1.2; }
.tile span { color:var(--muted); font-size:13px; }
section { background:#fff; border:1px solid var(--line); border-radius:10px; padding:18px 22px; margin:18px 0; }
section h2 { font-size:18px; margin:0 0 10px; }
section h3 { font-size:15px; margin:14px 0 4px; }
.note { color:var(--muted); font-size:13px; margin:2px 0 10px; }
.row { display:flex; flex-wrap:wrap; gap:24px; align-items:flex-start; }
.grid { display:grid; grid-template-columns:repeat(2,minmax(0,1fr)); gap:8px 28px; }
table { border-collapse:collapse; font-size:13.5px; margin:6px 0; }
th, td { text-align:left; padding:5px 10px; border-bottom:1px solid var(--line); vertical-align:top; }
th { color:var(--muted); font-weight:600; font-size:12px; text-transform:uppercase; letter-spacing:.03em; }
td.n { text-align:right; font-variant-numeric:tabular-nums; }
.acc { color:var(--acc); } .rej { color:var(--rej); } .err { color:var(--err); }
.pill { display:inline-block; padding:0 7px; margin:1px 3px 1px 0; border-radius:9px; font-size:12px; background:#f1f3f7; white-space:nowrap; }
.pill.error { background:#fdecec; } .pill.rejected { background:#fff4e0; }
.chart svg { max-width:100%; height:auto; }
.empty { color:var(--muted); font-style:italic; }
footer { color:var(--muted); font-size:12px; margin-top:24px; }
code { font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; background:#f1f3f7; padding:0 4px; border-radius:4px; }
`;

export function renderHtml(d: ReportData, svgs: Record<string, string>): string {
  const chart = (id: string) => (svgs[id] ? `<div class="chart" id="chart-${id}">${svgs[id]}</div>` : '');
  const num = (n: number | string) => `<td class="n">${h(String(n))}</td>`;
  const first = d.funnel.find((s) => s.ran);
  const final = d.funnel.find((s) => s.stage === 'baseline');
  const llmCost = d.llm.reduce((s, l) => s + l.cost_usd, 0);
  const tiles = [
    [first ? String(first.rows) : '–', 'candidates read'],
    [final?.ran ? String(final.accepted) : '–', 'repositories in the benchmark (EnvBench)'],
    [d.sandbox.runs ? duration(d.sandbox.total_ms) : '–', `sandbox time (${d.sandbox.runs} runs)`],
    [d.llm.length ? usd(llmCost) : 'none', 'LLM cost'],
  ];
  const parts: string[] = [];
  parts.push(
    `<header><h1>envforge report · dataset <code>${h(d.dataset)}</code></h1><p>envforge ${h(d.envforgeVersion)}</p>${(d.funnelLines.length ? d.funnelLines : [d.funnelLine]).map((l) => `<p>funnel: ${h(l)}</p>`).join('')}</header>`,
    `<div class="tiles">${tiles.map(([v, l]) => `<div class="tile"><b>${h(v!)}</b><span>${h(l!)}</span></div>`).join('')}</div>`,
  );

  // Funnel
  const ran = d.funnel.filter((s) => s.ran);
  let funnel = '<section><h2>Funnel</h2><p class="note">Current rows of every stage; a stage reads its upstream\'s accepted rows. Reasons are the rows\' machine-readable codes.</p>';
  if (ran.length === 0) funnel += '<p class="empty">No stage has run in this dataset yet: start with <code>envforge run search</code> (or <code>make demo</code>).</p>';
  else {
    funnel += `<div class="row">${chart('funnel')}</div><table><tr><th>stage</th><th>input</th><th>rows</th><th>accepted</th><th>rejected</th><th>error</th><th>kept</th><th>top rejection reasons</th></tr>`;
    for (const s of d.funnel) {
      funnel += s.ran
        ? `<tr><td><b>${h(s.stage)}</b></td><td>${h(s.input)}</td>${num(s.rows)}<td class="n acc">${s.accepted}</td><td class="n rej">${s.rejected}</td><td class="n err">${s.error}</td>${num(percent(s.accepted, s.rows))}<td>${s.topReasons.map((r) => `<span class="pill ${r.status}">${h(r.reason)} ${r.count}</span>`).join('') || '<span class="empty">none</span>'}</td></tr>`
        : `<tr><td><b>${h(s.stage)}</b></td><td>${h(s.input)}</td><td colspan="6" class="empty">not run</td></tr>`;
    }
    funnel += '</table>';
  }
  const missing = d.recipes.filter((r) => r.missing.length > 0);
  if (missing.length) funnel += `<p class="note">${missing.map((r) => `${h(r.title)}: not built yet (stages ${h(r.missing.join(', '))} do not exist in this envforge).`).join('<br>')}</p>`;
  parts.push(funnel + '</section>');

  if (d.envbenchSteps.length > 0) {
    parts.push(
      `<section><h2>EnvBench funnel per family</h2><p class="note">What survives each filter, in the order of the paper (§3.3): selection, one dependency manager, no Docker, no monorepo, and not configured by the deterministic script.</p><div class="row">` +
        `<table><tr><th>step</th><th>Python</th><th>JVM</th></tr>${d.envbenchSteps.map((s) => `<tr><td>${h(s.step)}</td>${num(s.python)}${num(s.jvm)}</tr>`).join('')}</table>${chart('paper')}</div></section>`,
    );
  }

  parts.push(
    `<section><h2>Distributions</h2><div class="grid">${d.distributions
      .map((dist) => `<div><h3>${h(dist.title)}</h3><p class="note">${h(dist.note)}.</p>${dist.rows.length ? chart(dist.id) : '<p class="empty">No data.</p>'}</div>`)
      .join('')}</div></section>`,
  );

  let sandbox = '<section><h2>Sandbox time</h2>';
  if (d.sandbox.runs === 0) sandbox += '<p class="empty">No sandbox run in this dataset yet (the baseline stage has not run).</p>';
  else {
    sandbox +=
      `<p class="note">${d.sandbox.runs} sandbox runs in this dataset, reruns included: ${h(duration(d.sandbox.total_ms))} in total. Percentiles over the current rows.</p>` +
      `<table><tr><th>family</th><th>runs</th><th>total</th><th>p50</th><th>p90</th><th>p95</th><th>max</th></tr>${d.sandbox.groups
        .map((g) => `<tr><td>${h(g.family)}</td>${num(g.runs)}${num(duration(g.total_ms))}${num(duration(g.p50_ms))}${num(duration(g.p90_ms))}${num(duration(g.p95_ms))}${num(duration(g.max_ms))}</tr>`)
        .join('')}</table>${chart('sandbox')}`;
  }
  parts.push(sandbox + '</section>');

  let llm = '<section><h2>LLM tokens and cost</h2>';
  if (d.llm.length === 0) llm += '<p class="empty">None: no stage of this dataset called a language model (no entry in its call ledger).</p>';
  else {
    llm += `<table><tr><th>stage</th><th>model</th><th>calls</th><th>cached</th><th>tokens in</th><th>tokens out</th><th>cost</th></tr>${d.llm
      .map((l) => `<tr><td>${h(l.stage)}</td><td><code>${h(l.model)}</code></td>${num(l.calls)}${num(l.cached)}${num(l.tokens_in)}${num(l.tokens_out)}${num(usd(l.cost_usd))}</tr>`)
      .join('')}</table>`;
  }
  parts.push(llm + '</section>');
  if (d.rollout?.length) {
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    parts.push(
      `<section><h2>Rollout per model</h2><table><tr><th>model</th><th>instances</th><th>trajectories</th><th>pass@1</th><th>pass@k</th><th>tokens / trajectory</th><th>turns / trajectory</th><th>cost</th><th>errors</th></tr>${d.rollout
        .map((r) => `<tr><td><code>${h(r.model)}</code></td>${num(r.instances)}${num(r.trajectories)}${num(pct(r.pass_at_1))}${num(`${pct(r.pass_at_k)} (k=${r.k})`)}${num(Math.round(r.tokens_per_trajectory))}${num(r.turns_per_trajectory.toFixed(1))}${num(usd(r.cost_usd))}${num(r.errors)}</tr>`)
        .join('')}</table></section>`,
    );
  }

  parts.push(
    `<section><h2>Changes since the previous run</h2><p class="note">Compared with ${h(d.changesSince)}. A change is a new status or reason for the same key.</p>` +
      `<table><tr><th>stage</th><th>new</th><th>dropped</th><th>changed</th><th>unchanged</th><th>examples</th></tr>${d.changes
        .map((c) =>
          c.basis === 'not run'
            ? `<tr><td>${h(c.stage)}</td><td colspan="5" class="empty">not run</td></tr>`
            : c.basis === 'first run'
              ? `<tr><td>${h(c.stage)}</td>${num(c.added.length)}<td colspan="4" class="empty">first run: nothing earlier to compare with</td></tr>`
              : `<tr><td>${h(c.stage)}</td>${num(c.added.length)}${num(c.dropped.length)}${num(c.changed.length)}${num(c.unchanged)}<td>${h(changeExamples(c))}</td></tr>`,
        )
        .join('')}</table></section>`,
  );

  const runs = d.funnel.filter((s) => s.ran).map((s) => `${s.stage} ${s.runIds.join(' ')}`);
  parts.push(`<footer>Made from the runs: ${h(runs.join(' · ') || 'none')}. Markdown version: report.md.</footer>`);
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>envforge report · ${h(d.dataset)}</title><style>${CSS}</style></head>\n<body><main>\n${parts.join('\n')}\n</main></body></html>\n`;
}
