import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../pipeline/stage.js';
import { validateInstance } from '../stages/validate/index.js';
import type { ErrorVerdict } from '../stages/validate/judge.js';
import type { TrajectoryStep } from '../stages/validate/weak-llm.js';
import { requireBaseImage, requireDocker } from './helpers/docker.js';
import { tempDirs } from './helpers/temp-dir.js';
import { injectRow, injectedError, lineEdit, stageContext, writeCheckout } from './helpers/validate-fixture.js';
import { openAiServer, type OpenAiServer } from './servers/openai-server.js';

/**
 * The weak-llm validator: the scripted OpenAI-compatible server plays the weak model and calls
 * `run_shell`; the commands run in a real container; the trajectory is stored and judged with
 * the executor's rule (the original README runs literally).
 */
const dirs = tempDirs();
const README = ['# tool', '', '```bash', 'mkdir -p build', 'cd build', 'ls ../src', '```', ''].join('\n');
let server: OpenAiServer;
let ctx: Awaited<ReturnType<typeof stageContext>>;

beforeAll(async () => {
  await requireBaseImage(await requireDocker());
  server = await openAiServer({
    script: [
      { toolCalls: [{ name: 'run_shell', arguments: JSON.stringify({ command: 'mkdir -p build' }) }] },
      { toolCalls: [{ name: 'run_shell', arguments: JSON.stringify({ command: 'cd build' }) }] },
      { toolCalls: [{ name: 'run_shell', arguments: JSON.stringify({ command: 'ls ../scr' }) }] },
      { content: 'The command `ls ../scr` failed: the directory does not exist. Stopping.' },
    ],
  });
  const dir = dirs.make('envforge-weak-');
  const config = join(dir, 'c.toml');
  writeFileSync(
    config,
    `dataset = "t"\ndata_dir = ${JSON.stringify(join(dir, 'data'))}\n[run]\nlog_level = "silent"\n` +
      `[llm.models.weak]\nmodel = "gpt-4.1-mini"\nbase_url = "${server.baseUrl}"\ninput_usd_per_mtok = 0.4\noutput_usd_per_mtok = 1.6\n` +
      `[sandbox]\nca_bundle = "/etc/ssl/certs/ca-certificates.crt"\n[validate]\nvalidator = "weak-llm"\n[validate.weak_llm]\nmodel = "weak"\nmax_steps = 10\n`,
  );
  ctx = await stageContext(config, join(dir, 'data'));
  writeCheckout(ctx.cacheDir, 'gen/tool', { 'README.md': README, 'src/main.py': 'print(1)\n' });
}, 600_000);
afterAll(async () => {
  await server?.close();
  dirs.cleanup();
});

describe('validate with the weak-llm validator (Docker + scripted model)', () => {
  it('runs the tool calls in the sandbox, keeps the trajectory and judges the injected wrong path valid', async () => {
    const errors = [injectedError('E4', lineEdit(README, 6, 6, ['ls ../scr']))];
    const out: Outcome | Outcome[] = await validateInstance(injectRow('gen/tool', 'gen_tool_error_readme_1', README, errors), ctx);
    const o = Array.isArray(out) ? out[0]! : out;
    expect([o.status, o.reason_text]).toEqual(['accepted', undefined]);
    const traj = o.cells!.trajectory as unknown as TrajectoryStep[];
    // State carries over between tool calls: `cd build` then `ls ../scr` runs in build/.
    expect(traj.map((t) => [t.command, t.exit_code])).toEqual([
      ['mkdir -p build', 0],
      ['cd build', 0],
      ['ls ../scr', 2],
    ]);
    expect(traj[2]!.output).toMatch(/No such file or directory/);
    expect(o.cells!.final_message).toMatch(/Stopping/);
    const v = (o.cells!.verdicts as unknown as ErrorVerdict[])[0]!;
    expect(v).toMatchObject({ valid: true, reason: 'valid', failing_step: { text: 'ls ../scr', exit_code: 2 }, original_step: { line: 6, exit_code: 0 } });
    // The model saw one tool, run_shell, and the tool results; every call is in the ledger.
    const last = server.requests.at(-1)!.body!;
    expect((last.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual(['run_shell']);
    expect(last.messages.filter((m) => m.role === 'tool').map((m) => m.content.split('\n')[0])).toEqual(['exit code: 0', 'exit code: 0', 'exit code: 2']);
    expect(ctx.ledger.entries.map((e) => [e.stage, e.model, e.cached])).toEqual(Array(4).fill(['validate', 'weak', false]));
    expect(o.cells!.llm_calls).toBe(4);
    expect(Number(o.cells!.cost_usd)).toBeGreaterThan(0);
  }, 300_000);

  it('a rerun replays the trajectory from the response cache without calling the model', async () => {
    const errors = [injectedError('E4', lineEdit(README, 6, 6, ['ls ../scr']))];
    const hits = server.hits();
    const out = await validateInstance(injectRow('gen/tool', 'gen_tool_error_readme_1', README, errors), ctx);
    expect(server.hits()).toBe(hits);
    expect((Array.isArray(out) ? out[0]! : out).status).toBe('accepted');
  }, 300_000);
});
