import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxError } from '../../pipeline/sandbox/container-run.js';
import { sandboxFor, scriptsDir } from '../../pipeline/sandbox/sandbox.js';
import { accept, fail, reject, type Cells, type Columns, type Item, type Stage } from '../../pipeline/stage.js';
import { clonesRoot } from '../clone/index.js';
import { readDriverOutput } from './metrics.js';

/**
 * baseline: EnvBench's "not trivially configurable" filter. The deterministic setup script and
 * the metric run in a sandbox on a copy of the checkout; a repository they configure (exit 0,
 * 0 issues) is rejected, one they cannot is accepted into the benchmark with the failure class.
 */

const columns = {
  repository: 'VARCHAR',
  family: 'VARCHAR',
  manager: 'VARCHAR',
  revision: 'VARCHAR',
  image: 'VARCHAR',
  image_id: 'VARCHAR',
  /** The setup script's exit code, or EnvBench's negative codes: -127 timeout, -777 create, -888 docker. */
  exit_code: 'INTEGER',
  metric_exit_code: 'INTEGER',
  build_tool: 'VARCHAR',
  issues_count: 'INTEGER',
  missing_modules: 'VARCHAR[]',
  /** infra (engine, image, timeout), setup (the script failed) or metric (setup ran, issues > 0). */
  failure_class: 'VARCHAR',
  timed_out: 'BOOLEAN',
  oom_killed: 'BOOLEAN',
  run_ms: 'BIGINT',
  log: 'VARCHAR',
  log_bytes: 'BIGINT',
  log_truncated: 'BOOLEAN',
} satisfies Columns;

const SCRIPTS = ['run-baseline.sh', 'python-setup.sh', 'jvm-setup.sh'];

export const baselineStage: Stage<Item> = {
  name: 'baseline',
  version: 1,
  description: "run EnvBench's deterministic setup script and metric in a sandbox; drop what it configures",
  input: 'inspect',
  // The image and its limits decide results as much as the stage's own settings do.
  configSections: ['baseline', 'sandbox'],
  columns,
  key: (row) => String(row.repository),
  async preflight(ctx) {
    await sandboxFor(ctx, 'baseline').check();
  },
  async run(row, ctx) {
    const s = ctx.config.config.baseline;
    const sandbox = sandboxFor(ctx, 'baseline');
    const family = String(row.family);
    const imageName = family === 'python' ? s.python_image : family === 'jvm' ? s.jvm_image : undefined;
    const base: Cells = {
      repository: String(row.repository),
      family,
      manager: (row.manager as string | null) ?? null,
      revision: (row.revision as string | null) ?? null,
    };
    if (!imageName) return fail('no_image', `no sandbox image for family ${JSON.stringify(family)}`, base);
    const checkout = join(clonesRoot(ctx.cacheDir), String(row.clone_path));
    if (!row.clone_path || !existsSync(checkout)) {
      return fail('checkout_missing', `the checkout ${String(row.clone_path)} is not in the clone cache: rerun clone with --force --only ${String(row.repository)}`, base);
    }
    const image = await sandbox.image(imageName);
    Object.assign(base, { image: image.tag, image_id: image.id });
    const files = await Promise.all(
      SCRIPTS.map(async (f) => ({ path: `/envforge/${f}`, content: await readFile(join(scriptsDir(), f)), mode: 0o755 })),
    );
    let res;
    try {
      res = await sandbox.run({
        key: String(row.repository),
        image: image.tag,
        cmd: ['bash', '/envforge/run-baseline.sh', family],
        copies: [{ hostDir: checkout, containerPath: '/repo' }],
        files,
        workdir: '/repo',
        timeoutMs: s.timeout_seconds * 1000,
        collect: '/envforge/out',
      });
    } catch (err) {
      if (err instanceof SandboxError) {
        return fail(`infra_${err.phase}`, err.message, { ...base, failure_class: 'infra', exit_code: err.phase === 'create' ? -777 : -888 });
      }
      throw err;
    }
    if (res.aborted) throw new Error('interrupted');
    const cells: Cells = {
      ...base,
      timed_out: res.timedOut,
      oom_killed: res.oomKilled,
      run_ms: res.durationMs,
      log: res.log,
      log_bytes: res.logBytes,
      log_truncated: res.logTruncated,
    };
    if (res.timedOut) {
      return fail('timeout', `no result within ${s.timeout_seconds} s (baseline.timeout_seconds)`, { ...cells, failure_class: 'infra', exit_code: -127 });
    }
    const d = readDriverOutput(res.files, family);
    if (d.setupExit === undefined) {
      const why = res.oomKilled ? `killed at the memory limit (sandbox.memory_mb)` : `the driver wrote no result (container exit ${res.exitCode})`;
      return fail(res.oomKilled ? 'oom' : 'infra_no_result', why, { ...cells, failure_class: 'infra', exit_code: -999 });
    }
    cells.exit_code = d.setupExit;
    if (d.setupExit !== 0) return accept({ ...cells, failure_class: 'setup' });
    cells.metric_exit_code = d.metricExit;
    if (d.metricProblem !== null) return fail('metric_unreadable', d.metricProblem, { ...cells, failure_class: 'infra' });
    if (family === 'python') cells.missing_modules = d.missingModules;
    else cells.build_tool = d.buildTool;
    const issues = d.issues ?? 0;
    cells.issues_count = issues;
    if (issues === 0) {
      return reject('trivially_configurable', `the deterministic script configured it: setup exit 0 and 0 issues`, { ...cells });
    }
    return accept({ ...cells, failure_class: 'metric' });
  },
};
