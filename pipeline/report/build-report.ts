import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { distributionSpec, funnelSpec, paperSpec, renderSvg, sandboxSpec } from './charts.js';
import { writeSnapshot } from './changes.js';
import type { DatasetViews } from './dataset-views.js';
import { gatherReport, type ReportData } from './report-data.js';
import { renderHtml } from './render-html.js';
import { renderMarkdown } from './render-markdown.js';

/**
 * `envforge report`: report.html (self-contained), report.md, the charts as SVG files under
 * charts/ (the Markdown links them), and snapshot.json, the key → status map the next report
 * diffs against. Like export, a command over the current views, not a runner stage.
 */

export interface ReportResult {
  dir: string;
  files: string[];
  data: ReportData;
}

export async function buildReport(views: DatasetViews, dir: string): Promise<ReportResult> {
  await mkdir(dir, { recursive: true });
  const data = await gatherReport(views, dir);
  const specs = [
    ...(data.funnel.some((s) => s.ran) ? [['funnel', funnelSpec(data.funnel)] as const] : []),
    ...(data.envbenchSteps.some((s) => s.python + s.jvm > 0) ? [['paper', paperSpec(data.envbenchSteps)] as const] : []),
    ...data.distributions.filter((d) => d.rows.length > 0).map((d) => [d.id, distributionSpec(d)] as const),
    ...(data.sandbox.points.length > 0 ? [['sandbox', sandboxSpec(data.sandbox)] as const] : []),
  ];
  const svgs: Record<string, string> = {};
  const links: Record<string, string> = {};
  await rm(join(dir, 'charts'), { recursive: true, force: true });
  await mkdir(join(dir, 'charts'), { recursive: true });
  for (const [id, spec] of specs) {
    svgs[id] = await renderSvg(spec, id);
    links[id] = `charts/${id}.svg`;
    await writeFile(join(dir, links[id]), svgs[id]);
  }
  await writeFile(join(dir, 'report.html'), renderHtml(data, svgs));
  await writeFile(join(dir, 'report.md'), renderMarkdown(data, links));
  await writeSnapshot(dir, data.snapshot);
  return { dir, files: ['report.html', 'report.md', 'snapshot.json', ...Object.values(links)].sort(), data };
}
