import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPH } from '../pipeline/graph.js';
import { runCommand } from '../pipeline/cli/commands/run.js';
import { sqlCommand } from '../pipeline/cli/commands/query.js';
import type { Io } from '../pipeline/cli/context.js';
import { tempDirs } from './helpers/temp-dir.js';
import { demoConfig } from './helpers/demo-config.js';

/**
 * The EnConda-Bench half of the demo on the committed samples: inspect's accepted repositories →
 * readme → inject with the offline mutation injector, as `make demo` runs them (baseline needs
 * Docker and does not feed these stages).
 */
const dirs = tempDirs();
let config = '';
const io: Io = { out: () => {}, err: { write: () => true } as unknown as NodeJS.WritableStream, tty: false };
const ERRORS_BY_TYPE = `select error_type, count(*) as errors from inject, unnest(error_types) as t(error_type) where status = 'accepted' group by error_type order by error_type`;

beforeAll(async () => {
  config = await demoConfig(
    dirs.make('envforge-enconda-'),
    `[inject]\ninjectors = ["mutation"]\nerrors_per_readme = 2\nseed = 1\nmax_usd = 0\n[inject.mutation]\ninstances = 2\n`,
  );
  await runCommand(['search', 'clone', 'inspect'], { config }, GRAPH, io);
});
afterAll(() => dirs.cleanup());

const sql = (q: string) => sqlCommand(q, { config, format: 'json' }, GRAPH, io);

describe('readme and inject on the demo samples', () => {
  it('extracts setup docs of every repository inspect accepted, rejecting those without setup steps', async () => {
    const [readme] = await runCommand(['readme'], { config }, GRAPH, io);
    expect(readme!.counts).toEqual({ accepted: 8, rejected: 2, error: 0 });
    const rows = await sql(`select key, status, reason, doc_path, doc_format, shell_block_count, step_count, setup_step_count from readme order by key`);
    const byRepo = Object.fromEntries(rows.map((r) => [String(r.key).replace('envforge-demo/', ''), r.status === 'accepted' ? `${r.doc_path} ${r.doc_format} blocks=${r.shell_block_count} steps=${r.step_count}/${r.setup_step_count}` : r.reason]));
    expect(byRepo).toEqual({
      'gradle-groovy': 'README.md markdown blocks=2 steps=5/5',
      'gradle-kotlin': 'README.rst rst blocks=2 steps=5/5',
      'malformed-pom': 'no_setup_docs',
      'malformed-pyproject': 'no_setup_steps',
      'maven-app': 'README.md markdown blocks=2 steps=6/5',
      'pip-requirements': 'README.md markdown blocks=2 steps=4/3',
      'pip-setuptools': 'README.md markdown blocks=0 steps=1/1',
      'pip-trivial': 'README.md markdown blocks=1 steps=1/1',
      'pip-undeclared': 'README.md markdown blocks=1 steps=3/3',
      'poetry-app': 'README.md markdown blocks=2 steps=6/5',
    });
    const [kotlin] = await sql(`select steps, doc_text from readme where key = 'envforge-demo/gradle-kotlin'`);
    const steps = (typeof kotlin!.steps === 'string' ? JSON.parse(kotlin!.steps) : kotlin!.steps) as { line: number; column: number; text: string }[];
    const lines = String(kotlin!.doc_text).split('\n');
    expect(steps.map((s) => [s.line, s.text])).toEqual([
      [14, 'sdk install java 17.0.10-tem'],
      [15, 'sdk use java 17.0.10-tem'],
      [19, 'git clone https://github.com/envforge-demo/gradle-kotlin.git'],
      [20, 'cd gradle-kotlin'],
      [21, 'gradle build -x test'],
    ]);
    for (const s of steps) expect(lines[s.line - 1]!.slice(s.column)).toBe(s.text);
  });

  it('injects two checked errors per instance with the mutation injector; errors by type through envforge sql', async () => {
    const [inject] = await runCommand(['inject'], { config }, GRAPH, io);
    expect(inject!.processed).toBe(8);
    expect(inject!.counts).toEqual({ accepted: 16, rejected: 0, error: 0 });
    const rows = await sql(`select key, level, error_types, injector, problems from inject order by key`);
    expect(rows.map((r) => r.key)).toContain('envforge-demo_poetry-app_error_readme_2');
    for (const r of rows) expect(r.problems).toEqual([]);
    const byType = await sql(ERRORS_BY_TYPE);
    expect(byType.map((r) => r.error_type)).toEqual(['E1', 'E2', 'E4', 'E6', 'E7', 'E8']);
    const total = byType.reduce((n, r) => n + Number(r.errors), 0);
    const [levels] = await sql(`select sum(error_count) as n from inject where status = 'accepted'`);
    expect(total).toBe(Number(levels!.n));
  });

  it('does no work on a rerun, and a forced rerun with the same seed writes the same instances', async () => {
    const before = await sql(`select key, gold, injected_text from inject order by key`);
    const [again] = await runCommand(['readme', 'inject'], { config }, GRAPH, io).then((s) => s.map((x) => x.processed));
    expect(again).toBe(0);
    const [, forced] = await runCommand(['readme', 'inject'], { config, force: true }, GRAPH, io);
    expect(forced!.processed).toBe(8);
    expect(await sql(`select key, gold, injected_text from inject order by key`)).toEqual(before);
  });
});
