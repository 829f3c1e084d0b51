import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../pipeline/stage.js';
import { validateInstance } from '../stages/validate/index.js';
import type { ErrorVerdict } from '../stages/validate/judge.js';
import { requireBaseImage, requireDocker } from './helpers/docker.js';
import { tempDirs } from './helpers/temp-dir.js';
import { injectRow, injectedError, lineEdit, stageContext, writeCheckout } from './helpers/validate-fixture.js';

/**
 * The literal executor in a real container (the `python` sandbox image, no PyPI): a generated
 * repository whose README creates a virtual environment and runs the tool it ships; injected
 * errors are judged by running the original and the injected README once each.
 */
const dirs = tempDirs();
const REPO = 'gen/greeter';
const README = [
  '# greeter', // 1
  '', // 2
  'Prints a greeting. Run `python src/greeter/cli.py --name you` after the install below.', // 3
  '', // 4
  '## Installation', // 5
  '', // 6
  '```bash', // 7
  'python -m venv .venv', // 8
  '. .venv/bin/activate', // 9
  'ls src/greeter', // 10
  'python src/greeter/cli.py --name world', // 11
  'cat config/settings.ini', // 12
  '```', // 13
  '',
].join('\n');
const FILES = {
  'README.md': README,
  'src/greeter/cli.py': 'import argparse, sys\np = argparse.ArgumentParser()\np.add_argument("--name", required=True)\na = p.parse_args()\nassert sys.prefix.endswith(".venv"), sys.prefix\nprint(f"hello {a.name}")\n',
  'src/greeter/__init__.py': '',
  'config/settings.ini': '[greeter]\nlevel = 1\n',
};
let ctx: Awaited<ReturnType<typeof stageContext>>;

beforeAll(async () => {
  await requireBaseImage(await requireDocker());
  const dir = dirs.make('envforge-validate-');
  const config = join(dir, 'c.toml');
  writeFileSync(
    config,
    `dataset = "t"\ndata_dir = ${JSON.stringify(join(dir, 'data'))}\n[run]\nlog_level = "silent"\n` +
      `[sandbox]\nca_bundle = "/etc/ssl/certs/ca-certificates.crt"\n[validate]\nstep_timeout_seconds = 60\n`,
  );
  ctx = await stageContext(config, join(dir, 'data'));
  writeCheckout(ctx.cacheDir, REPO, FILES);
  writeCheckout(ctx.cacheDir, 'gen/broken', { 'README.md': README, 'src/greeter/cli.py': FILES['src/greeter/cli.py'], 'src/greeter/__init__.py': '' });
}, 600_000);
afterAll(() => dirs.cleanup());

const verdicts = (o: Outcome | Outcome[]) => (Array.isArray(o) ? o[0]! : o).cells!.verdicts as unknown as ErrorVerdict[];

describe('validate with the literal executor (Docker)', () => {
  it('judges a wrong path, a wrong flag and a swapped order valid, with the failing step as evidence', async () => {
    const errors = [
      injectedError('E6', lineEdit(README, 8, 9, ['. .venv/bin/activate', 'python -m venv .venv'])),
      injectedError('E4', lineEdit(README, 10, 10, ['ls src/greter'])),
      injectedError('E2', lineEdit(README, 11, 11, ['python src/greeter/cli.py --nmae world'])),
    ];
    const out = await validateInstance(injectRow(REPO, 'gen_greeter_error_readme_1', README, errors), ctx);
    const o = Array.isArray(out) ? out[0]! : out;
    expect(o.status).toBe('accepted');
    const v = verdicts(out);
    expect(v.map((x) => [x.error_type, x.reason])).toEqual([
      ['E6', 'valid'],
      ['E4', 'valid'],
      ['E2', 'valid'],
    ]);
    expect(v[0]!.failing_step).toMatchObject({ line: 8, text: '. .venv/bin/activate' });
    expect(v[1]!.output_excerpt).toMatch(/No such file or directory/);
    expect(v[2]!.output_excerpt).toMatch(/unrecognized arguments|required: --name/);
    expect(v[2]!.original_step).toMatchObject({ line: 11, exit_code: 0 });
    // The original run passed every step, inside the virtual environment it made.
    const orig = o.cells!.original_run as unknown as { text: string; exit_code: number; output: string }[];
    expect(orig.map((s) => s.exit_code)).toEqual([0, 0, 0, 0, 0]);
    expect(orig[3]!.output).toContain('hello world');
    expect(o.cells!.valid_types).toEqual(['E6', 'E4', 'E2']);
  }, 300_000);

  it('an error in a prose paragraph (never executed) is did_not_fail; a harmless edit too', async () => {
    const errors = [
      injectedError('E2', lineEdit(README, 3, 3, ['Prints a greeting. Run `python src/greeter/cli.py --nam you` after the install below.'])),
      injectedError('E4', lineEdit(README, 10, 10, ['ls src'])),
    ];
    const out = await validateInstance(injectRow(REPO, 'gen_greeter_error_readme_2', README, errors), ctx);
    const o = Array.isArray(out) ? out[0]! : out;
    expect(o.status).toBe('rejected');
    expect(o.reason).toBe('did_not_fail');
    expect(verdicts(out).map((x) => x.reason)).toEqual(['did_not_fail', 'did_not_fail']);
    expect(verdicts(out)[0]!.reason_text).toMatch(/no executed step/);
  }, 300_000);

  it('an original README that already fails at the step makes the error invalid (original_also_fails)', async () => {
    // gen/broken has no config/settings.ini: line 12 fails in the original too.
    const errors = [injectedError('E4', lineEdit(README, 12, 12, ['cat config/setings.ini']))];
    const out = await validateInstance(injectRow('gen/broken', 'gen_broken_error_readme_1', README, errors), ctx);
    const o = Array.isArray(out) ? out[0]! : out;
    expect(o.status).toBe('rejected');
    expect(o.reason).toBe('original_also_fails');
    expect(verdicts(out)[0]!.original_step).toMatchObject({ line: 12 });
    expect(verdicts(out)[0]!.original_step!.exit_code).not.toBe(0);
  }, 300_000);

  it('steps that can never run in a sandbox are recorded as such, not run', async () => {
    const text = README.replace('cat config/settings.ini', 'sudo apt-get install -y libfoo');
    const errors = [injectedError('E1', lineEdit(text, 12, 12, ['sudo apt-get install -y libfooo']))];
    writeCheckout(ctx.cacheDir, 'gen/sudo', { ...FILES, 'README.md': text });
    const out = await validateInstance(injectRow('gen/sudo', 'gen_sudo_error_readme_1', text, errors), ctx);
    const o = Array.isArray(out) ? out[0]! : out;
    expect(o.reason).toBe('not_executable');
    const run = o.cells!.injected_run as unknown as { kind: string; exit_code: number | null; why?: string }[];
    expect(run.at(-1)).toMatchObject({ kind: 'never', exit_code: null, why: 'sudo needs a password prompt' });
  }, 300_000);
});
