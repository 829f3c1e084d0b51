import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../pipeline/cli/commands/run.js';
import { sqlCommand } from '../pipeline/cli/commands/query.js';
import { trajectoriesCommand } from '../pipeline/cli/commands/trajectories.js';
import { reportCommand } from '../pipeline/cli/commands/report.js';
import type { Io } from '../pipeline/cli/context.js';
import { fromOpenAiRecord, fromShareGptRecord } from '../pipeline/export/trajectories.js';
import { GRAPH } from '../pipeline/graph.js';
import { envforgeContainers, requireBaseImage, requireDocker } from './helpers/docker.js';
import { makeRemote } from './helpers/git-fixtures.js';
import { tempDirs } from './helpers/temp-dir.js';
import { INSTALL_LOCAL_NUMPY, NEEDS_NUMPY } from './helpers/trajectory-fixtures.js';
import { openAiServer, type ChatBody, type OpenAiServer, type Step } from './servers/openai-server.js';

/**
 * The rollout stage end to end: the scripted OpenAI-compatible server plays the agent (tool
 * calls decided per instance from the conversation), commands run in one long-lived container
 * per attempt, the final environment is scored by the evaluate module, and the trajectories are
 * exported and read back.
 *   gen/good     installs numpy (a local package), checks it, answers → passes (EnvBench metric)
 *   gen/quitter  answers at once → fails with a missing import
 *   gen/looper   calls `echo` forever → stopped by max_steps (4 turns)
 *   gen/hungry   one call that reports 150k tokens → stopped by max_tokens (100k)
 *   deps-fixme   SetupBench: `test -f fixed.txt` must succeed; the agent creates it → passes
 */
const dirs = tempDirs();
const io: Io = { out: () => {}, err: { write: () => true } as unknown as NodeJS.WritableStream, tty: false };
let server: OpenAiServer;
let config = '';
let dir = '';

const call = (command: string, usage?: { prompt_tokens: number; completion_tokens: number }): Step => ({ toolCalls: [{ name: 'run_shell', arguments: JSON.stringify({ command }) }], ...(usage ? { usage } : {}) });

function agent(body: ChatBody): Step {
  const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
  const done = body.messages.filter((m) => m.role === 'tool').length;
  if (user.includes('gen/good')) return [call('cd /tmp && pwd'), call(INSTALL_LOCAL_NUMPY), call('pwd && python -c "import numpy; print(numpy.__version__)"')][done] ?? { content: 'Installed numpy; the repository is set up.' };
  if (user.includes('gen/quitter')) return { content: 'Nothing to do.' };
  if (user.includes('gen/looper')) return call(`echo step ${done}`);
  if (user.includes('gen/hungry')) return call('echo hungry', { prompt_tokens: 150_000, completion_tokens: 10 });
  if (user.includes('test -f fixed.txt')) return done === 0 ? call('touch fixed.txt') : { content: 'Fixed.' };
  if (user.includes('gen/flaky')) return done === 0 ? call('echo first step') : { status: 500, message: 'upstream model crashed' };
  return { content: 'unexpected' };
}

beforeAll(async () => {
  await requireBaseImage(await requireDocker());
  server = await openAiServer({ respond: (body) => agent(body) });
  dir = dirs.make('envforge-rollout-');
  mkdirSync(join(dir, 'flaky'));
  const remotes = join(dir, 'remotes');
  const shas = Object.fromEntries(['good', 'quitter', 'looper', 'hungry', 'fixme', 'flaky'].map((n) => [n, makeRemote(remotes, `gen/${n}`, [NEEDS_NUMPY]).shas[0]!]));
  // EnvBench's split format (family from the file name) and a SetupBench entry.
  writeFileSync(join(dir, 'python.jsonl'), ['good', 'quitter', 'looper', 'hungry'].map((n) => JSON.stringify({ repository: `gen/${n}`, revision: shas[n] })).join('\n') + '\n');
  writeFileSync(join(dir, 'flaky', 'python.jsonl'), JSON.stringify({ repository: 'gen/flaky', revision: shas.flaky }) + '\n');
  writeFileSync(
    join(dir, 'dependency_resolution.jsonl'),
    JSON.stringify({ ecosystem: 'pip-conflict', repo: 'gen/fixme', base_commit: shas.fixme, success_command: 'test -f fixed.txt', instance_id: 'deps-fixme', problem_statement: 'Make test -f fixed.txt succeed.', task_type: 'dependency_resolution' }) + '\n',
  );
  config = join(dir, 'c.toml');
  writeFileSync(
    config,
    `dataset = "r"\ndata_dir = ${JSON.stringify(join(dir, 'data'))}\n[run]\nlog_level = "silent"\n` +
      `[clone]\nurl_template = "file://${dir}/remotes/{owner}/{repo}.git"\nmin_free_gb = 0\n` +
      `[sandbox]\nca_bundle = "/etc/ssl/certs/ca-certificates.crt"\n` +
      `[llm.models.scripted]\nmodel = "scripted-agent"\nbase_url = "${server.baseUrl}"\ninput_usd_per_mtok = 1\noutput_usd_per_mtok = 2\n` +
      `[rollout]\ninstances = [${JSON.stringify(join(dir, 'python.jsonl'))}, ${JSON.stringify(join(dir, 'dependency_resolution.jsonl'))}]\n` +
      `models = ["scripted"]\nsamples = 1\ntemperatures = [0.2]\nmax_steps = 4\nmax_tokens = 100000\ncommand_timeout_seconds = 120\n` +
      `[evaluate]\ntimeout_seconds = 300\n`,
  );
}, 600_000);
afterAll(async () => {
  await server?.close();
  dirs.cleanup();
});

describe('rollout (Docker + scripted agent)', () => {
  it('records every step, evaluates the final environment, stops at the limits, and removes its containers', async () => {
    const [summary] = await runCommand(['rollout'], { config }, GRAPH, io);
    expect(summary!.counts).toEqual({ accepted: 2, rejected: 3, error: 0 });
    const rows = await sqlCommand(
      `select key, status, reason, stop_reason, turns, commands, tokens_in, tokens_out, cost_usd, issues_count, missing_modules, exit_code, steps, temperature, seed from rollout order by key`,
      { config, format: 'json' },
      GRAPH,
      io,
    );
    const by = Object.fromEntries(rows.map((r) => [String(r.key).split('@')[0]!.replace(/\/scripted\/0$/, ''), r]));
    expect(Object.keys(by).sort()).toEqual(['deps-fixme', 'gen/good', 'gen/hungry', 'gen/looper', 'gen/quitter']);
    expect(by['gen/good']).toMatchObject({ status: 'accepted', stop_reason: 'answered', turns: 4, commands: 3, issues_count: 0, temperature: 0.2, seed: 0 });
    expect(by['gen/quitter']).toMatchObject({ status: 'rejected', reason: 'missing_imports', stop_reason: 'answered', turns: 1, commands: 0, missing_modules: ['numpy'] });
    expect(by['gen/looper']).toMatchObject({ status: 'rejected', stop_reason: 'max_steps', turns: 4, commands: 4 });
    expect(by['gen/hungry']).toMatchObject({ status: 'rejected', stop_reason: 'max_tokens', turns: 1, commands: 1 });
    expect(by['deps-fixme']).toMatchObject({ status: 'accepted', stop_reason: 'answered', exit_code: 0, commands: 1 });
    // Every step: each command with exit code and output; the shell state carried over (cd /tmp, then pwd).
    const steps = (typeof by['gen/good']!.steps === 'string' ? JSON.parse(by['gen/good']!.steps) : by['gen/good']!.steps) as { commands: { command: string; exit_code: number; output: string; duration_ms: number }[] }[];
    expect(steps.flatMap((s) => s.commands.map((c) => c.exit_code))).toEqual([0, 0, 0]);
    expect(steps[2]!.commands[0]!.output).toContain('/tmp\n0.0.local');
    expect(Number(by['gen/hungry']!.tokens_in)).toBe(150_000);
    expect(Number(by['gen/hungry']!.cost_usd)).toBeCloseTo(0.15002, 6);
    // Sessions are removed after each attempt.
    expect(await envforgeContainers(await requireDocker(), 'dev.envforge.stage=rollout')).toEqual([]);

    // Export: write → read back → the same messages.
    const out = join(dir, 'traj');
    const { count } = await trajectoriesCommand({ config, out }, GRAPH, io);
    expect(count).toBe(5);
    const stored = await sqlCommand(`select key, messages from rollout order by key`, { config, format: 'json' }, GRAPH, io);
    const messages = stored.map((r) => (typeof r.messages === 'string' ? JSON.parse(r.messages) : r.messages) as Record<string, unknown>[]);
    const openai = readFileSync(join(out, 'openai.jsonl'), 'utf8').trim().split('\n');
    expect(openai.map(fromOpenAiRecord)).toEqual(messages);
    const good = messages[stored.findIndex((r) => String(r.key).startsWith('gen/good'))]!;
    expect(good.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    const sharegpt = readFileSync(join(out, 'sharegpt.jsonl'), 'utf8').trim().split('\n').map(fromShareGptRecord);
    const noIds = (ms: Record<string, unknown>[]) => JSON.stringify(ms).replace(/"(tool_call_id|id)":"[^"]*"/g, '"$1":"-"');
    expect(sharegpt.map(noIds)).toEqual(messages.map(noIds));
    // Filters: --pass, --model, --instance.
    expect((await trajectoriesCommand({ config, out, pass: true }, GRAPH, io)).count).toBe(2);
    expect((await trajectoriesCommand({ config, out, model: ['other'] }, GRAPH, io)).count).toBe(0);
    expect((await trajectoriesCommand({ config, out, instance: ['deps-fixme'] }, GRAPH, io)).count).toBe(1);

    // The report's line per model: 2 of 5 instances pass with one sample each.
    await reportCommand({ config, out: join(dir, 'report') }, GRAPH, io);
    const md = readFileSync(join(dir, 'report', 'report.md'), 'utf8');
    expect(md).toContain('## Rollout per model');
    expect(md).toMatch(/\| scripted +\| 5 +\| 5 +\| 40\.0% +\| 40\.0% \(k=1\)/);
  }, 600_000);

  it('keeps the steps taken before the model endpoint failed in the error row', async () => {
    const flakyConfig = join(dir, 'flaky.toml');
    writeFileSync(
      flakyConfig,
      readFileSync(config, 'utf8')
        .replace('dataset = "r"', 'dataset = "flaky"')
        .replace(/instances = \[[^\]]*\]/, `instances = [${JSON.stringify(join(dir, 'flaky', 'python.jsonl'))}]`) + '[llm]\nmax_retries = 0\n',
    );
    const [summary] = await runCommand(['rollout'], { config: flakyConfig }, GRAPH, io);
    expect(summary!.counts).toEqual({ accepted: 0, rejected: 0, error: 1 });
    const [row] = await sqlCommand(`select status, reason, stop_reason, turns, commands, steps from rollout`, { config: flakyConfig, format: 'json' }, GRAPH, io);
    expect(row).toMatchObject({ status: 'error', reason: 'llm_error', stop_reason: 'error', turns: 1, commands: 1 });
    const steps = (typeof row!.steps === 'string' ? JSON.parse(row!.steps) : row!.steps) as { commands: { command: string; output: string }[] }[];
    expect(steps[0]!.commands[0]).toMatchObject({ command: 'echo first step', output: expect.stringContaining('first step') });
  }, 600_000);
});
