import { resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GRAPH } from '../graph.js';
import { ConfigError, SetupError } from '../errors.js';
import { tempDirs } from '../../test/helpers/temp-dir.js';
import type { Io } from './context.js';
import { runCommand } from './commands/run.js';
import { statusCommand } from './commands/status.js';
import { showCommand, sqlCommand } from './commands/query.js';
import { main } from './main.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

function captureIo(): Io & { text(): string } {
  const chunks: string[] = [];
  return {
    out: (t) => chunks.push(t),
    err: { write: () => true } as unknown as NodeJS.WritableStream,
    tty: false,
    text: () => chunks.join('\n'),
  };
}

function demoConfig(): string {
  const dir = dirs.make();
  const file = join(dir, 'demo.toml');
  writeFileSync(
    file,
    `dataset = "cli"\ndata_dir = ${JSON.stringify(join(dir, 'data'))}\n[run]\nlog_level = "silent"\n[search]\n` +
      `export = ${JSON.stringify(resolve('data/samples/seart-ghs/results.csv'))}\nlicenses = ["MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause"]\n`,
  );
  return file;
}

describe('CLI commands as plain functions, on the committed sample', () => {
  it('run → status → sql → show answer from the artifacts', async () => {
    const config = demoConfig();
    const io = captureIo();
    const [summary] = await runCommand(['search'], { config }, GRAPH, io);
    expect(summary).toMatchObject({ stage: 'search', inputs: 36, processed: 36, counts: { accepted: 18, rejected: 13, error: 5 } });
    expect(io.text()).toMatch(/search top reasons: error:malformed_row 5/);

    const status = await statusCommand({ config }, GRAPH, io);
    expect(status[0]).toMatchObject({ stage: 'search', rows: 36, accepted: 18, rejected: 13, error: 5, stale: 0 });
    expect(io.text()).toContain('funnel: 36 in → search 18');

    const rows = await sqlCommand(`select status, count(*)::INT as n from search group by 1 order by 1`, { config }, GRAPH, io);
    expect(rows).toEqual([
      { status: 'accepted', n: 18 },
      { status: 'error', n: 5 },
      { status: 'rejected', n: 13 },
    ]);

    const shown = await showCommand('search', { config, status: 'rejected', reason: 'too_few_commits', format: 'json' }, GRAPH, io);
    expect(shown).toEqual([expect.objectContaining({ key: 'thresholds/commits-999', reason_text: '999 commits, fewer than the minimum 1000' })]);
  });

  it('a second run does no work and a --dataset override writes elsewhere', async () => {
    const config = demoConfig();
    const io = captureIo();
    await runCommand(['search'], { config }, GRAPH, io);
    const [again] = await runCommand(['search'], { config }, GRAPH, io);
    expect(again).toMatchObject({ processed: 0, done: 36 });
    const [other] = await runCommand(['search'], { config, dataset: 'other' }, GRAPH, io);
    expect(other).toMatchObject({ processed: 36 });
  });

  it('rejects unknown stages, bad shards and bad SQL as configuration errors', async () => {
    const config = demoConfig();
    const io = captureIo();
    await expect(runCommand(['serch'], { config }, GRAPH, io)).rejects.toThrow(
      new ConfigError(`run: unknown stage "serch" (stages: ${GRAPH.stages.map((s) => s.name).join(', ')})`),
    );
    await expect(runCommand(['search'], { config, shard: '4/3' }, GRAPH, io)).rejects.toThrow(/--shard "4\/3": expected i\/n/);
    await expect(sqlCommand('select * from nowhere', { config }, GRAPH, io)).rejects.toThrow(/^sql: Catalog Error/);
    await expect(showCommand('search', { config, columns: 'key,nope' }, GRAPH, io)).rejects.toThrow('show --columns: stage search has no column nope');
  });

  it('stops with a setup error when the export is missing', async () => {
    const config = demoConfig();
    writeFileSync(config, (await import('node:fs')).readFileSync(config, 'utf8').replace(/export = .*/, 'export = "/nonexistent/results.csv"'));
    await expect(runCommand(['search'], { config }, GRAPH, captureIo())).rejects.toThrow(
      new SetupError('/nonexistent/results.csv: cannot read the SEART-GHS export (ENOENT)'),
    );
  });
});

describe('the top-level handler', () => {
  it('maps failures to exit codes: 0 ok, 2 configuration, 3 setup', async () => {
    const config = demoConfig();
    const write = process.stderr.write;
    const stdout = process.stdout.write;
    process.stderr.write = (() => true) as typeof write;
    process.stdout.write = (() => true) as typeof stdout;
    try {
      expect(await main(['node', 'envforge', '--config', config, 'status'])).toBe(0);
      expect(await main(['node', 'envforge', '--config', '/no/such.toml', 'status'])).toBe(2);
      expect(await main(['node', 'envforge', '--config', config, 'run', '--limit', 'x', 'search'])).toBe(2);
      expect(await main(['node', 'envforge', '--config', config, 'frobnicate'])).toBe(2);
      const broken = config.replace(/\.toml$/, '-broken.toml');
      writeFileSync(broken, (await import('node:fs')).readFileSync(config, 'utf8').replace(/export = .*/, 'export = "/nonexistent.csv"'));
      expect(await main(['node', 'envforge', '--config', broken, 'run', 'search'])).toBe(3);
      expect(await main(['node', 'envforge', '--help'])).toBe(0);
    } finally {
      process.stderr.write = write;
      process.stdout.write = stdout;
    }
  });
});
