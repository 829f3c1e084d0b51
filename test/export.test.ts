import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { SetupError } from '../pipeline/errors.js';
import { exportDataset } from '../pipeline/export/export-dataset.js';
import { envbenchExporter } from '../pipeline/export/envbench.js';
import { EXPORTERS } from '../pipeline/export/exporters.js';
import { defaultHostPaths } from '../pipeline/export/leak-check.js';
import { GRAPH } from '../pipeline/graph.js';
import { clearSecrets, registerSecret } from '../pipeline/log/secrets.js';
import { openDatasetViews } from '../pipeline/report/dataset-views.js';
import { openDuck, sqlString } from '../pipeline/store/duck.js';
import { envbenchRows, writeEnvbenchDataset, type FixtureDataset } from './helpers/envbench-dataset.js';
import { tempDirs } from './helpers/temp-dir.js';

/**
 * The EnvBench export of a small fixed dataset: golden files (byte equality; UPDATE_GOLDEN=1
 * rewrites them after a deliberate format change), round trip through DuckDB, the dataset card,
 * determinism, and the refusal to publish secrets or host paths.
 */

const GOLDEN = join(import.meta.dirname, 'fixtures', 'golden', 'envbench');
const dirs = tempDirs();
afterEach(() => {
  dirs.cleanup();
  clearSecrets();
});

// Only EnvBench's exporter by default: the golden card must not change when other recipes' stages land.
async function exportFixture(ds: FixtureDataset, dir: string, exporters = [envbenchExporter]) {
  const views = await openDatasetViews(ds.layout, GRAPH);
  try {
    return await exportDataset(views, {
      dir,
      loaded: ds.loaded,
      exporters,
      hostPaths: defaultHostPaths([
        { label: 'the data folder', path: ds.layout.dataDir },
        { label: 'the export folder', path: dir },
      ]),
    });
  } finally {
    views.close();
  }
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out;
}

/** A Parquet file as text: its schema and rows as DuckDB reads them (stable across writers of the same data). */
async function parquetDump(file: string): Promise<string> {
  const duck = await openDuck();
  try {
    const schema = (await duck.all(`DESCRIBE SELECT * FROM read_parquet(${sqlString(file)})`)).map((c) => ({ name: c.column_name, type: c.column_type }));
    const rows = await duck.all(`SELECT * FROM read_parquet(${sqlString(file)})`);
    return JSON.stringify({ schema: schema.map((s) => `${String(s.name)} ${String(s.type)}`), rows }, null, 1) + '\n';
  } finally {
    duck.close();
  }
}

describe('envforge export: EnvBench on a fixed dataset', () => {
  it('matches the golden files byte for byte', async () => {
    const root = dirs.make();
    const ds = await writeEnvbenchDataset(join(root, 'data'));
    const out = join(root, 'export');
    const result = await exportFixture(ds, out);
    expect(result.files).toEqual(['README.md', 'envbench/full/jvm.parquet', 'envbench/full/python.parquet', 'envbench/jvm.jsonl', 'envbench/python.jsonl', 'provenance.json']);
    expect(listFiles(out)).toEqual(result.files);
    const actual: Record<string, string> = {};
    for (const f of result.files) {
      actual[f.endsWith('.parquet') ? `${f}.json` : f] = f.endsWith('.parquet') ? await parquetDump(join(out, f)) : readFileSync(join(out, f), 'utf8');
    }
    if (process.env.UPDATE_GOLDEN) {
      for (const [f, text] of Object.entries(actual)) {
        mkdirSync(join(GOLDEN, f, '..'), { recursive: true });
        writeFileSync(join(GOLDEN, f), text);
      }
    }
    expect(listFiles(GOLDEN)).toEqual(Object.keys(actual).sort());
    for (const [f, text] of Object.entries(actual)) expect(text, `${f} drifted from test/fixtures/golden/envbench/${f} (UPDATE_GOLDEN=1 after a deliberate change)`).toBe(readFileSync(join(GOLDEN, f), 'utf8'));
  });

  it('round-trips: the files read back with DuckDB give the rows of the artifacts', async () => {
    const root = dirs.make();
    const ds = await writeEnvbenchDataset(join(root, 'data'));
    const out = join(root, 'export');
    await exportFixture(ds, out);
    const rows = envbenchRows();
    const accepted = rows.baseline.filter((r) => r.status === 'accepted');
    const duck = await openDuck();
    try {
      for (const family of ['python', 'jvm']) {
        const expected = accepted.filter((r) => r.family === family).map((r) => ({ repository: r.repository, revision: r.revision })).sort((a, b) => String(a.repository).localeCompare(String(b.repository)));
        const jsonl = await duck.all(`SELECT * FROM read_json(${sqlString(join(out, 'envbench', `${family}.jsonl`))}, format = 'newline_delimited')`);
        expect(jsonl).toEqual(expected);
        const full = await duck.all(`SELECT * FROM read_parquet(${sqlString(join(out, 'envbench', 'full', `${family}.parquet`))})`);
        expect(full.map((r) => ({ repository: r.repository, revision: r.revision }))).toEqual(expected);
        for (const got of full) {
          const b = accepted.find((r) => r.repository === got.repository)!;
          const i = rows.inspect.find((r) => r.repository === got.repository)!;
          const s = rows.search.find((r) => r.repository === got.repository)!;
          for (const col of ['family', 'manager', 'failure_class', 'exit_code', 'issues_count', 'missing_modules', 'run_ms', 'log', 'image_id']) expect(got[col], col).toEqual(b[col]);
          for (const col of ['managers', 'python_version_specs', 'findings', 'is_monorepo']) expect(got[col], col).toEqual(i[col]);
          for (const col of ['stars', 'license_spdx', 'last_commit_date']) expect(got[col], col).toEqual(s[col]);
          expect(got).toMatchObject({ baseline_run_id: b.run_id, baseline_config_hash: b.config_hash, search_run_id: s.run_id, baseline_created_at: String(b.created_at).replace(/\.000$/, '') });
          expect(got).not.toHaveProperty('clone_path');
          expect(got).not.toHaveProperty('status');
        }
      }
    } finally {
      duck.close();
    }
  });

  it('writes a dataset card whose YAML header parses and lists every split with existing files', async () => {
    const root = dirs.make();
    const ds = await writeEnvbenchDataset(join(root, 'data'));
    const out = join(root, 'export');
    const result = await exportFixture(ds, out);
    const card = readFileSync(join(out, 'README.md'), 'utf8');
    const m = /^---\n([\s\S]*?)\n---\n/.exec(card);
    expect(m).not.toBeNull();
    const header = YAML.parse(m![1]!) as { configs: { config_name: string; default?: boolean; data_files: { split: string; path: string }[] }[]; license: string; size_categories: string[]; task_categories: string[]; pretty_name: string; tags: string[] };
    expect(header).toMatchObject({ license: 'other', size_categories: ['n<1K'], task_categories: ['text-generation'], pretty_name: 'envforge fixture' });
    expect(header.configs.map((c) => c.config_name)).toEqual(['envbench', 'envbench_full']);
    expect(header.configs.filter((c) => c.default).map((c) => c.config_name)).toEqual(['envbench']);
    const listed = header.configs.flatMap((c) => c.data_files.map((f) => `${c.config_name}/${f.split}:${f.path}`));
    expect(listed).toEqual(result.exported[0]!.splits.map((s) => `${s.config}/${s.split}:${s.path}`));
    for (const c of header.configs) for (const f of c.data_files) expect(existsSync(join(out, f.path)), f.path).toBe(true);
    // Every data file is in some config, and the card's counts are the files' lines.
    const dataFiles = result.files.filter((f) => /\.(jsonl|parquet)$/.test(f));
    expect(dataFiles.every((f) => listed.some((l) => l.endsWith(`:${f}`)))).toBe(true);
    expect(card).toMatch(/\| envbench +\| python +\| 2 +\|/);
    expect(readFileSync(join(out, 'envbench', 'python.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    expect(card).toContain('date cutoff `search.last_commit_after` = 2024-01-01');
    expect(card).toContain('models used: none');
  });

  it('is deterministic: two exports of the same artifacts are byte-identical, Parquet included', async () => {
    const root = dirs.make();
    const ds = await writeEnvbenchDataset(join(root, 'data'));
    const a = await exportFixture(ds, join(root, 'a'));
    const b = await exportFixture(ds, join(root, 'b'));
    expect(b.files).toEqual(a.files);
    for (const f of a.files) expect(readFileSync(join(root, 'b', f)).equals(readFileSync(join(root, 'a', f))), f).toBe(true);
  });

  it('refuses to publish a host path, naming the row and column but not the value, and writes nothing', async () => {
    const root = dirs.make();
    const rows = envbenchRows();
    const dataDir = join(root, 'data');
    rows.baseline.find((r) => r.repository === 'acme/py-pip')!.log = `cp: cannot stat '${dataDir}/cache/clones/acme/py-pip'`;
    const ds = await writeEnvbenchDataset(dataDir, rows);
    const out = join(root, 'export');
    const err = await exportFixture(ds, out).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SetupError);
    expect((err as Error).message).toMatch(/export refused: 1 value\(s\)/);
    expect((err as Error).message).toContain('envbench/full/python.parquet row 1 (acme/py-pip) column log: a host path (the data folder)');
    expect((err as Error).message).not.toContain(dataDir);
    expect(existsSync(out) ? listFiles(out) : []).toEqual([]);
  });

  it('refuses a secret registered after the rows were written, and a token of a known shape', async () => {
    const root = dirs.make();
    const rows = envbenchRows();
    const secret = 'hunter2-secret-value';
    rows.baseline.find((r) => r.repository === 'acme/jvm-maven')!.log = `using token ${secret}`;
    rows.baseline.find((r) => r.repository === 'acme/py-poetry')!.log = `export GITHUB_TOKEN=ghp_${'a1B2'.repeat(9)}`;
    const ds = await writeEnvbenchDataset(join(root, 'data'), rows);
    registerSecret(secret);
    const err = (await exportFixture(ds, join(root, 'export')).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(SetupError);
    expect(err.message).toContain('envbench/full/jvm.parquet row 2 (acme/jvm-maven) column log: a registered secret');
    expect(err.message).toContain('envbench/full/python.parquet row 2 (acme/py-poetry) column log: a GitHub token');
    expect(err.message).not.toContain(secret);
    expect(err.message).not.toContain('ghp_');
  });

  it('refuses records that do not match the published format', async () => {
    const root = dirs.make();
    const rows = envbenchRows();
    rows.baseline.find((r) => r.repository === 'acme/jvm-gradle')!.revision = 'main';
    const ds = await writeEnvbenchDataset(join(root, 'data'), rows);
    await expect(exportFixture(ds, join(root, 'export'))).rejects.toThrow(/envbench\/jvm\.jsonl row 1 \(acme\/jvm-gradle\): revision: expected a full commit SHA/);
  });

  it('says clearly that baseline has not run, and that nothing else can be exported', async () => {
    const root = dirs.make();
    const { baseline: _b, ...upstream } = envbenchRows();
    const ds = await writeEnvbenchDataset(join(root, 'data'), upstream);
    const err = (await exportFixture(ds, join(root, 'export'), [...EXPORTERS]).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(SetupError);
    expect(err.message).toContain('EnvBench: stage baseline has not run in dataset "fixture": run `envforge run baseline` (make baseline) first');
    expect(err.message).toMatch(/EnConda-Bench: (its stages .* do not exist|stage tiers has not run)/);
    expect(err.message).toMatch(/SetupBench \(dependency resolution\): (its stages .* do not exist|stage reproduce has not run)/);
  });

  it('writes into a Hub clone without touching what it does not own, and drops its own stale files', async () => {
    const root = dirs.make();
    const ds = await writeEnvbenchDataset(join(root, 'data'));
    const out = join(root, 'hub');
    mkdirSync(join(out, '.git'), { recursive: true });
    writeFileSync(join(out, '.gitattributes'), '*.parquet filter=lfs\n');
    mkdirSync(join(out, 'envbench'), { recursive: true });
    writeFileSync(join(out, 'envbench', 'stale.jsonl'), '{}\n');
    await exportFixture(ds, out);
    expect(readFileSync(join(out, '.gitattributes'), 'utf8')).toBe('*.parquet filter=lfs\n');
    expect(existsSync(join(out, '.git'))).toBe(true);
    expect(existsSync(join(out, 'envbench', 'stale.jsonl'))).toBe(false);
    expect(readdirSync(out).filter((f) => f.startsWith('.envforge-export'))).toEqual([]);
  });
});
