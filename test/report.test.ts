import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Io } from '../pipeline/cli/context.js';
import { reportCommand } from '../pipeline/cli/commands/report.js';
import { runCommand } from '../pipeline/cli/commands/run.js';
import { buildLocalRemotes } from '../pipeline/git/local-remotes.js';
import { GRAPH } from '../pipeline/graph.js';
import { findStage } from '../pipeline/graph-types.js';
import { main } from '../pipeline/cli/main.js';
import { buildReport } from '../pipeline/report/build-report.js';
import { openDatasetViews } from '../pipeline/report/dataset-views.js';
import { ArtifactStore } from '../pipeline/store/artifact-store.js';
import { openDuck, sqlString } from '../pipeline/store/duck.js';
import { layoutFor, type Layout } from '../pipeline/store/layout.js';
import { envbenchRows, sha, writeEnvbenchDataset } from './helpers/envbench-dataset.js';
import { tempDirs } from './helpers/temp-dir.js';

/** envforge report on an empty dataset, a stage with only errors, and a full run (real search → clone → inspect, fixture baseline rows). */

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const io: Io = { out: () => {}, err: { write: () => true } as unknown as NodeJS.WritableStream, tty: false };

async function report(layout: Layout, dir: string) {
  const views = await openDatasetViews(layout, GRAPH);
  try {
    return await buildReport(views, dir);
  } finally {
    views.close();
  }
}

const read = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8');

function selfContained(html: string): void {
  expect(html).toMatch(/^<!doctype html>/);
  expect(html).not.toMatch(/<script|<link |src="http|href="http|@import/);
}

describe('envforge report', () => {
  it('renders for a dataset where no stage has run', async () => {
    const root = dirs.make();
    const out = join(root, 'report');
    const r = await report(layoutFor(join(root, 'data'), 'empty'), out);
    const html = read(out, 'report.html');
    selfContained(html);
    expect(html).toContain('No stage has run in this dataset yet');
    expect(html).toContain('No sandbox run in this dataset yet');
    expect(html).toContain('None: no stage of this dataset called a language model');
    expect(html).not.toContain('<svg');
    expect(read(out, 'report.md')).toContain('No stage has run in this dataset yet');
    expect(r.data.changes.every((c) => c.basis === 'not run')).toBe(true);
    expect(existsSync(join(out, 'snapshot.json'))).toBe(true);
  });

  it('is wired into the CLI: report exits 0 on an empty dataset, export exits 3 with nothing to export', async () => {
    const root = dirs.make();
    const config = join(root, 'c.toml');
    writeFileSync(config, `dataset = "empty"\ndata_dir = ${JSON.stringify(join(root, 'data'))}\n[run]\nlog_level = "silent"\n`);
    const [stdout, stderr] = [process.stdout.write, process.stderr.write];
    const said: string[] = [];
    process.stdout.write = ((t: string) => said.push(t) > 0) as typeof stdout;
    process.stderr.write = ((t: string) => said.push(t) > 0) as typeof stderr;
    try {
      expect(await main(['node', 'envforge', '--config', config, 'report', '--out', join(root, 'r')])).toBe(0);
      expect(await main(['node', 'envforge', '--config', config, 'export', '--to', join(root, 'x')])).toBe(3);
    } finally {
      process.stdout.write = stdout;
      process.stderr.write = stderr;
    }
    expect(existsSync(join(root, 'r', 'report.html'))).toBe(true);
    expect(said.join('')).toContain('setup error: nothing to export from dataset "empty"');
  });

  it('renders a stage with only errors', async () => {
    const root = dirs.make();
    const search = envbenchRows().search.map((r) => ({ ...r, status: 'error', reason: 'malformed_row', reason_text: 'row 1: commits: not a number' }));
    const ds = await writeEnvbenchDataset(join(root, 'data'), { search });
    const out = join(root, 'report');
    const r = await report(ds.layout, out);
    expect(r.data.funnel[0]).toMatchObject({ stage: 'search', rows: 11, accepted: 0, error: 11, topReasons: [{ status: 'error', reason: 'malformed_row', count: 11 }] });
    expect(r.data.funnelLine).toBe('11 in → search 0');
    const html = read(out, 'report.html');
    selfContained(html);
    expect(html).toContain('<span class="pill error">malformed_row 11</span>');
    expect(html).toMatch(/<td><b>clone<\/b><\/td><td>search<\/td><td colspan="6" class="empty">not run<\/td>/);
    expect(html.match(/<svg/g)?.length).toBeGreaterThanOrEqual(2); // funnel + languages
    expect(read(out, 'report.md')).toMatch(/\| search +\| \S+ +\| 11 +\| 0 +\| 0 +\| 11 +\| 0\.0% +\| error:malformed_row 11/);
  });

  it('renders a full run: the funnel, the EnvBench table per family, distributions, sandbox time, LLM cost and changes', async () => {
    const dir = dirs.make('envforge-report-');
    await buildLocalRemotes(resolve('data/samples/repos'), join(dir, 'remotes'), 'envforge-demo');
    const config = join(dir, 'demo.toml');
    writeFileSync(
      config,
      `dataset = "demo"\ndata_dir = ${JSON.stringify(join(dir, 'data'))}\n[run]\nlog_level = "silent"\n` +
        `[search]\nexport = ${JSON.stringify(resolve('data/samples/seart-ghs/results.csv'))}\nlicenses = ["MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause"]\n` +
        `[clone]\nurl_template = "file://${dir}/remotes/{owner}/{repo}.git"\nmin_free_gb = 0\ntimeout_seconds = 60\n`,
    );
    await runCommand(['search', 'clone', 'inspect'], { config }, GRAPH, io);
    const layout = layoutFor(join(dir, 'data'), 'demo');
    // Baseline rows as the Docker stage would write them, for the inspect stage's accepted rows.
    const store = await ArtifactStore.open(layout);
    const inspected = await store.latestRows(findStage(GRAPH, 'inspect')!, `status = 'accepted'`);
    const baselineRow = (r: Record<string, unknown>, i: number, runId: string, at: string, flip = false) => ({
      key: r.key, input_key: r.key, status: flip || i === 0 ? 'rejected' : 'accepted', reason: flip || i === 0 ? 'trivially_configurable' : null, reason_text: null,
      input_hash: sha(String(r.key)).slice(0, 16), run_id: runId, stage_version: 1, config_hash: 'fixture', created_at: at, duration_ms: 1000 + i,
      repository: r.repository, family: r.family, manager: r.manager, revision: r.revision, exit_code: i % 2, failure_class: i === 0 || flip ? null : i % 2 ? 'setup' : 'metric',
      issues_count: i % 2 ? null : i, run_ms: 2000 + 1000 * i,
    });
    const baseline = findStage(GRAPH, 'baseline')!;
    await store.writer(baseline, '20240301T100300000-dddddd').write(inspected.map((r, i) => baselineRow(r, i, '20240301T100300000-dddddd', '2024-03-01 10:03:00.000')));
    const ledgerDir = join(layout.datasetDir, 'ledger');
    mkdirSync(ledgerDir, { recursive: true });
    const duck = await openDuck();
    await duck.exec(
      `COPY (SELECT 'validate' AS stage, 'gpt-4.1-mini' AS model, x > 1 AS cached, 1200::BIGINT AS tokens_in, 300::BIGINT AS tokens_out, ` +
        `CASE WHEN x > 1 THEN 0 ELSE 0.0015 END::DOUBLE AS cost_usd, 'r1' AS run_id FROM range(3) t(x)) TO ${sqlString(join(ledgerDir, 'part-r1-00000.parquet'))} (FORMAT parquet)`,
    );
    duck.close();

    const out = join(dir, 'report');
    const r = await reportCommand({ config }, GRAPH, io);
    expect(r.dir).toBe(join(layout.datasetDir, 'report'));
    expect(r.data.funnelLine).toBe('36 in → search 18 → clone 15 → inspect 10 → baseline 9');
    expect(r.data.envbenchSteps.map((s) => [s.short, s.python, s.jvm])).toEqual([
      ['candidates', 21, 8], ['selected', 11, 7], ['cloned', 9, 6], ['one manager', 7, 6], ['no Docker', 6, 6], ['no monorepo', 6, 4], ['not configurable', expect.any(Number), expect.any(Number)],
    ]);
    expect(r.data.distributions.map((d) => d.id)).toEqual(['languages', 'families', 'managers', 'final-managers', 'failure-classes', 'findings']);
    expect(r.data.distributions.find((d) => d.id === 'findings')!.rows.map((x) => x.category).sort()).toEqual(['invalid TOML', 'invalid XML']);
    expect(r.data.sandbox).toMatchObject({ runs: 10, total_ms: 65000 });
    expect(r.data.sandbox.groups.find((g) => g.family === 'all')).toMatchObject({ runs: 10, p50_ms: 6000, max_ms: 11000 });
    expect(r.data.llm).toEqual([{ stage: 'validate', model: 'gpt-4.1-mini', calls: 3, cached: 1, tokens_in: 3600, tokens_out: 900, cost_usd: 0.003 }]);
    expect(r.data.changes.filter((c) => c.basis !== 'not run').map((c) => [c.stage, c.basis, c.added.length])).toEqual([['search', 'first run', 36], ['clone', 'first run', 18], ['inspect', 'first run', 15], ['baseline', 'first run', 10]]);
    const rdir = r.dir;
    const html = read(rdir, 'report.html');
    selfContained(html);
    for (const id of ['funnel', 'paper', 'languages', 'managers', 'failure-classes', 'sandbox']) {
      expect(html).toMatch(new RegExp(`<div class="chart" id="chart-${id}"><svg `)); // inline SVG
      expect(existsSync(join(rdir, 'charts', `${id}.svg`))).toBe(true);
      expect(read(rdir, 'report.md')).toContain(`](charts/${id}.svg)`);
    }
    expect(html).toContain('<code>gpt-4.1-mini</code>');

    // A later baseline run: one repository flips, one leaves the view (no row), the rest stay.
    const later = inspected.slice(0, -1).map((row, i) => baselineRow(row, i, '20240302T100300000-eeeeee', '2024-03-02 10:03:00.000', i === 1));
    await store.writer(baseline, '20240302T100300000-eeeeee').write(later);
    store.close();
    const again = await reportCommand({ config }, GRAPH, io);
    const b = again.data.changes.find((c) => c.stage === 'baseline')!;
    expect(b).toMatchObject({ basis: 'compared', since: 'the previous report', added: [], dropped: [], unchanged: 9 });
    expect(b.changed).toEqual([{ key: inspected[1]!.key, from: 'accepted', to: 'rejected:trivially_configurable' }]);
    expect(again.data.changes.find((c) => c.stage === 'search')).toMatchObject({ basis: 'compared', added: [], dropped: [], changed: [], unchanged: 36 });
    // Rendering again without a new run shows the same comparison.
    const third = await reportCommand({ config }, GRAPH, io);
    expect(third.data.changes.find((c) => c.stage === 'baseline')!.changed).toEqual(b.changed);
    expect(read(rdir, 'report.md')).toContain('changed: envforge-demo/');
    expect(out).toBeTruthy();
  });
});
