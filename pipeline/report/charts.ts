import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { Distribution, PaperStep, SandboxTime } from './report-data.js';
import type { StageFunnel } from './funnel.js';

/**
 * The report's charts: Vega-Lite specs rendered to SVG on the server (vega's headless View, no
 * canvas, no browser), so the page and the Markdown need no script and no external asset.
 */

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
const STATUS = { domain: ['accepted', 'rejected', 'error'], range: ['#2e7d32', '#ef8f00', '#c62828'] };
const FAMILY = { domain: ['python', 'jvm', '(other)'], range: ['#3572a5', '#8e44ad', '#9e9e9e'] };

const config = {
  font: FONT,
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 11, titleFontWeight: 'normal', grid: false, domainColor: '#888', tickColor: '#888' },
  legend: { labelFontSize: 11, titleFontSize: 11, orient: 'bottom' },
  background: 'white',
} as const;

let chartSeq = 0;

/** SVG text of a spec; ids are made unique per chart so several can sit inline in one page. */
export async function renderSvg(spec: TopLevelSpec, id = `c${++chartSeq}`): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg.replace(/id="([^"]+)"/g, `id="${id}-$1"`).replace(/url\(#([^)]+)\)/g, `url(#${id}-$1)`);
}

export function funnelSpec(stages: readonly StageFunnel[]): TopLevelSpec {
  const values = stages
    .filter((s) => s.ran)
    .flatMap((s) => (['accepted', 'rejected', 'error'] as const).map((status, rank) => ({ stage: s.stage, status, rank, count: s[status] })));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 520,
    height: { step: 26 },
    data: { values },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      y: { field: 'stage', type: 'nominal', sort: stages.map((s) => s.stage), title: null },
      x: { field: 'count', type: 'quantitative', title: 'rows', stack: 'zero' },
      color: { field: 'status', type: 'nominal', scale: STATUS, title: null },
      order: { field: 'rank', sort: 'ascending' },
    },
    config,
  };
}

export function paperSpec(steps: readonly PaperStep[]): TopLevelSpec {
  const values = steps.flatMap((s, i) => [
    { step: `${i + 1}. ${s.short}`, family: 'python', count: s.python },
    { step: `${i + 1}. ${s.short}`, family: 'jvm', count: s.jvm },
  ]);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 360,
    height: { step: 12 },
    data: { values },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      y: { field: 'step', type: 'nominal', sort: null, title: null, axis: { labelLimit: 400 } },
      yOffset: { field: 'family', type: 'nominal', sort: ['python', 'jvm'] },
      x: { field: 'count', type: 'quantitative', title: 'repositories' },
      color: { field: 'family', type: 'nominal', scale: FAMILY, title: null },
    },
    config,
  };
}

export function distributionSpec(d: Distribution): TopLevelSpec {
  const scale = d.series === 'status' ? STATUS : d.series === 'family' ? FAMILY : undefined;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 300,
    height: { step: 20 },
    data: { values: d.rows },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      y: { field: 'category', type: 'nominal', sort: '-x', title: null, axis: { labelLimit: 240 } },
      x: { field: 'count', type: 'quantitative', title: 'count', stack: 'zero', axis: { tickMinStep: 1 } },
      color: { field: 'series', type: 'nominal', title: null, ...(scale ? { scale } : {}) },
    },
    config,
  };
}

export function sandboxSpec(t: SandboxTime): TopLevelSpec {
  const values = t.points.map((p) => ({ ...p, seconds: Math.round(p.run_ms / 100) / 10 }));
  const perRepo = values.length <= 40;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 520,
    height: perRepo ? { step: 16 } : 200,
    data: { values },
    mark: { type: 'bar', tooltip: true },
    encoding: perRepo
      ? {
          y: { field: 'repository', type: 'nominal', sort: '-x', title: null, axis: { labelLimit: 400 } },
          x: { field: 'seconds', type: 'quantitative', title: 'sandbox seconds (setup script + metric)' },
          color: { field: 'family', type: 'nominal', scale: FAMILY, title: null },
        }
      : {
          x: { field: 'seconds', type: 'quantitative', bin: { maxbins: 30 }, title: 'sandbox seconds per repository' },
          y: { aggregate: 'count', type: 'quantitative', title: 'repositories', stack: 'zero' },
          color: { field: 'family', type: 'nominal', scale: FAMILY, title: null },
        },
    config,
  };
}
