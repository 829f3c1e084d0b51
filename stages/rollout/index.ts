import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, SetupError, messageOf } from '../../pipeline/errors.js';
import { GitFailure } from '../../pipeline/git/git-failure.js';
import { LlmCallError } from '../../pipeline/llm/client.js';
import { checkModels, modelEndpoint } from '../../pipeline/llm/models.js';
import { SandboxError } from '../../pipeline/sandbox/container-run.js';
import type { ContainerSession } from '../../pipeline/sandbox/container-session.js';
import { sandboxFor, scriptsDir } from '../../pipeline/sandbox/sandbox.js';
import { accept, fail, reject, type Cells, type Columns, type Outcome, type Stage } from '../../pipeline/stage.js';
import { detectFamily, resolveCheckout } from '../evaluate/checkout.js';
import { parseAgentOutput } from '../evaluate/enconda-scores.js';
import { EVAL_COLUMNS, ecosystemImage, evalCells, evalSettings, evaluateSession, evaluateTask, type EvalResult } from '../evaluate/evaluate-task.js';
import type { EvalTask } from '../evaluate/task.js';
import { RUN_SHELL_TOOL, newAgentRun, runAgent, type AgentRun } from './agent-loop.js';
import { rolloutInstancesSource, type RolloutInstance } from './instances-source.js';
import { rolloutPrompt } from './prompts.js';

/**
 * rollout: an LLM agent attempts every benchmark instance in the sandbox, `samples` times per
 * model, each attempt in its own long-lived container (sandbox session) with one tool,
 * `run_shell`. Every step is recorded; the final environment is scored by the evaluate module
 * (EnvBench: the metric on the environment the agent left; SetupBench: the success command in
 * it; EnConda: the agent's reported errors against the gold JSON plus its shell_script end to
 * end in a fresh container). One row per trajectory, keyed `<instance>/<model>/<sample>`:
 * accepted = passed, rejected = evaluated and failed, error = nothing decided (engine, model).
 * `envforge trajectories` / `envforge export` turn the rows into fine-tuning JSONL.
 */

const columns = {
  instance_id: 'VARCHAR',
  benchmark: 'VARCHAR',
  repository: 'VARCHAR',
  revision: 'VARCHAR',
  model: 'VARCHAR',
  model_id: 'VARCHAR',
  sample: 'INTEGER',
  seed: 'BIGINT',
  temperature: 'DOUBLE',
  /** The whole conversation in OpenAI's chat format (system, user, assistant with tool_calls, tool). */
  messages: 'JSON',
  /** Per model turn: tokens, latency, cache, and each command with exit code, duration and capped output. */
  steps: 'JSON',
  turns: 'INTEGER',
  commands: 'INTEGER',
  stop_reason: 'VARCHAR',
  final_message: 'VARCHAR',
  calls: 'INTEGER',
  cached_calls: 'INTEGER',
  tokens_in: 'BIGINT',
  tokens_out: 'BIGINT',
  cost_usd: 'DOUBLE',
  wall_ms: 'BIGINT',
  /** EnConda: the agent's answer in EnConda's agent output format. */
  agent_output: 'JSON',
  ...EVAL_COLUMNS,
} satisfies Columns;

export { RUN_SHELL_TOOL };

export const rolloutStage: Stage<RolloutInstance> = {
  name: 'rollout',
  version: 1,
  description: 'an LLM agent attempts each benchmark instance in the sandbox; every step recorded, the final environment evaluated',
  input: 'rollout_instances',
  configSections: ['rollout', 'evaluate', 'sandbox'],
  columns,
  key: (i) => i.instance_id,
  async preflight(ctx) {
    const r = ctx.config.config.rollout;
    if (r.models.length === 0) throw new ConfigError(`${ctx.config.file}: rollout needs a model: [rollout] models = ["<a name of [llm.models]>"]`);
    checkModels(ctx.config, r.models, 'rollout');
    await sandboxFor(ctx, 'rollout').check();
  },
  async run(inst, ctx) {
    const r = ctx.config.config.rollout;
    const s = evalSettings(ctx);
    const sandbox = sandboxFor(ctx, 'rollout');
    const base: Cells = { instance_id: inst.instance_id, benchmark: inst.benchmark, repository: inst.repository, revision: inst.revision };
    let checkout;
    try {
      checkout = await resolveCheckout(ctx, inst.repository, inst.revision, null);
    } catch (err) {
      if (err instanceof GitFailure) return fail(err.code, err.message, base);
      throw err;
    }
    base.revision = checkout.sha;
    const family = inst.family ?? detectFamily(checkout.dir);
    const image = await sandbox.image(inst.benchmark === 'setupbench' ? ecosystemImage(ctx, inst.ecosystem) : family === 'jvm' ? s.jvmImage : s.pythonImage);
    const files = await Promise.all(
      ['agent-shell.sh', 'session-env.sh'].map(async (f) => ({ path: `/envforge/${f}`, content: await readFile(join(scriptsDir(), f)), mode: 0o755 })),
    );
    const task: EvalTask = {
      benchmark: inst.benchmark, instance_id: inst.instance_id, repository: inst.repository, revision: checkout.sha, clone_path: null, family,
      script: null, success_command: inst.success_command, ecosystem: inst.ecosystem, agent_output: null, gold: inst.gold,
    };
    const outcomes: Outcome[] = [];
    for (const modelName of r.models) {
      const model = modelEndpoint(ctx.config, modelName);
      for (let sample = 0; sample < r.samples; sample++) {
        const key = `${inst.instance_id}/${modelName}/${sample}`;
        const temperature = r.temperatures[sample % r.temperatures.length]!;
        const seed = r.seeds.length > 0 ? r.seeds[sample % r.seeds.length]! : sample;
        const cells: Cells = { ...base, family, model: modelName, model_id: model.settings.model, sample, seed, temperature };
        let session: ContainerSession | undefined;
        const prompt = rolloutPrompt(inst);
        const progress = newAgentRun(prompt);
        try {
          session = await sandbox.session({
            key,
            image: image.tag,
            copies: [{ hostDir: checkout.dir, containerPath: '/repo' }],
            files,
            workdir: '/repo',
            env: { DEBIAN_FRONTEND: 'noninteractive' },
            maxLifetimeMs: (r.max_wall_seconds + s.timeoutSeconds + 120) * 1000,
          });
          const sh = session;
          const agent = await runAgent(
            ctx,
            prompt,
            {
              async run(command) {
                const x = await sh.exec(['bash', '/envforge/agent-shell.sh', command], { timeoutMs: r.command_timeout_seconds * 1000, cap: r.output_cap_bytes });
                return { exit_code: x.exitCode, timed_out: x.timedOut, duration_ms: x.durationMs, output: x.output, output_bytes: x.outputBytes, output_truncated: x.outputTruncated };
              },
            },
            { model, temperature, seed, maxSteps: r.max_steps, maxTokens: r.max_tokens, maxWallMs: r.max_wall_seconds * 1000, maxUsd: r.max_usd, stage: 'rollout', key },
            progress,
          );
          Object.assign(cells, agentCells(agent));
          let ev: EvalResult;
          if (inst.benchmark === 'enconda') {
            const out = parseAgentOutput(agent.final_message, { repo_name: inst.repo_name ?? '', readme_name: inst.readme_name ?? inst.instance_id });
            cells.agent_output = out as unknown as Record<string, unknown>;
            ev = await evaluateTask(ctx, 'rollout', { ...task, clone_path: null, script: out.shell_script || null, agent_output: out }, s);
          } else {
            ev = await evaluateSession(session, task, family, s, checkout.sha, image);
          }
          Object.assign(cells, evalCells(inst.repository, ev));
          const why = `${ev.text} (agent: ${agent.stop} after ${agent.turns.length} turns, ${agent.commands} commands)`;
          if (ev.passed) outcomes.push(accept(cells, key));
          else if (ev.failure_class === 'infra') outcomes.push(fail(ev.code, why, cells, key));
          else outcomes.push(reject(ev.code, why, cells, key));
        } catch (err) {
          if (ctx.signal.aborted) throw err;
          // The steps taken before the failure are part of the record (and of the cost).
          if (progress.calls > 0) Object.assign(cells, agentCells({ ...progress, stop: 'error' }));
          if (err instanceof LlmCallError) outcomes.push(fail('llm_error', err.message, cells, key));
          else if (err instanceof SandboxError) outcomes.push(fail(`infra_${err.phase}`, err.message, cells, key));
          else if (err instanceof GitFailure) outcomes.push(fail(err.code, err.message, cells, key));
          else if (err instanceof ConfigError || err instanceof SetupError) throw err;
          else outcomes.push(fail('exception', messageOf(err), cells, key));
        } finally {
          await session?.close();
        }
      }
    }
    return outcomes;
  },
};

function agentCells(a: AgentRun): Cells {
  return {
    messages: a.messages as unknown as Record<string, unknown>,
    steps: a.turns as unknown as Record<string, unknown>,
    turns: a.turns.length,
    commands: a.commands,
    stop_reason: a.stop,
    final_message: a.final_message,
    calls: a.calls,
    cached_calls: a.cached_calls,
    tokens_in: a.tokens_in,
    tokens_out: a.tokens_out,
    cost_usd: a.cost_usd,
    wall_ms: a.wall_ms,
  };
}
