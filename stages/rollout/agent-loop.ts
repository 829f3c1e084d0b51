import type { ModelEndpoint } from '../../pipeline/llm/models.js';
import type { StageContext } from '../../pipeline/stage.js';
import { callWithTools, type AssistantMessage, type Message } from './agent-call.js';

/**
 * The agent: a tool-calling loop with one tool, `run_shell`, whose commands run in the
 * instance's long-lived container. Every turn is recorded (the model's message, each command
 * with its exit code, capped output and duration, tokens and latency), and the loop stops when
 * the model answers without a tool call, or at a limit: model turns, tokens (in + out, summed
 * over calls), wall clock.
 */

export const RUN_SHELL_TOOL = {
  type: 'function',
  function: {
    name: 'run_shell',
    description:
      'Run one shell command (bash) in the container, in the repository at /repo, and return its exit code and output. ' +
      'The working directory and exported variables (an activated virtualenv too) carry over to the next command. No interactive input.',
    parameters: { type: 'object', properties: { command: { type: 'string', description: 'the command line' } }, required: ['command'] },
  },
} as const;

export interface CommandRecord {
  tool_call_id: string;
  command: string;
  exit_code: number | null;
  timed_out: boolean;
  duration_ms: number;
  /** The output as the model saw it (capped: head and tail). */
  output: string;
  output_bytes: number;
  output_truncated: boolean;
}

export interface TurnRecord {
  turn: number;
  tokens_in: number;
  tokens_out: number;
  latency_ms: number;
  cached: boolean;
  finish_reason: string | null;
  content: string | null;
  commands: CommandRecord[];
}

/** `error`: the model endpoint or the sandbox failed mid-trajectory (the row is an error). */
export type StopReason = 'answered' | 'max_steps' | 'max_tokens' | 'max_wall' | 'error';

export interface AgentRun {
  messages: Message[];
  turns: TurnRecord[];
  final_message: string;
  stop: StopReason;
  calls: number;
  cached_calls: number;
  commands: number;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number;
  wall_ms: number;
}

export interface Shell {
  run(command: string): Promise<Omit<CommandRecord, 'tool_call_id' | 'command'>>;
}

export interface AgentOptions {
  model: ModelEndpoint;
  temperature: number;
  seed: number;
  maxSteps: number;
  maxTokens: number;
  maxWallMs: number;
  maxUsd: number;
  stage: string;
  key: string;
}

export function newAgentRun(prompt: Message[]): AgentRun {
  return { messages: [...prompt], turns: [], final_message: '', stop: 'max_steps', calls: 0, cached_calls: 0, commands: 0, tokens_in: 0, tokens_out: 0, cost_usd: 0, wall_ms: 0 };
}

/**
 * The agent loop. It fills `run` as it goes, so a caller that catches a failure (the model
 * endpoint gave up, the sandbox died) still has every step taken before it.
 */
export async function runAgent(ctx: StageContext, prompt: Message[], shell: Shell, o: AgentOptions, run: AgentRun = newAgentRun(prompt)): Promise<AgentRun> {
  const t0 = Date.now();
  while (run.turns.length < o.maxSteps) {
    if (run.tokens_in + run.tokens_out >= o.maxTokens) {
      run.stop = 'max_tokens';
      break;
    }
    if (Date.now() - t0 >= o.maxWallMs) {
      run.stop = 'max_wall';
      break;
    }
    const res = await callWithTools(
      ctx,
      o.model,
      { messages: run.messages, tools: [RUN_SHELL_TOOL], temperature: o.temperature, seed: o.seed },
      { stage: o.stage, key: o.key, maxUsd: o.maxUsd },
    );
    run.calls++;
    if (res.cached) run.cached_calls++;
    run.tokens_in += res.tokens_in;
    run.tokens_out += res.tokens_out;
    run.cost_usd += res.cost_usd;
    const msg: AssistantMessage = res.message;
    run.messages.push({ ...msg });
    const turn: TurnRecord = { turn: run.turns.length + 1, tokens_in: res.tokens_in, tokens_out: res.tokens_out, latency_ms: res.latency_ms, cached: res.cached, finish_reason: res.finish_reason, content: msg.content, commands: [] };
    run.turns.push(turn);
    const calls = msg.tool_calls ?? [];
    if (calls.length === 0) {
      run.final_message = msg.content ?? '';
      run.stop = 'answered';
      break;
    }
    for (const c of calls) {
      let content: string;
      if (c.function.name !== 'run_shell') {
        content = `error: unknown tool ${c.function.name}; the only tool is run_shell`;
      } else {
        let command = '';
        try {
          command = String((JSON.parse(c.function.arguments) as { command?: unknown }).command ?? '');
        } catch {
          command = '';
        }
        if (!command.trim()) {
          content = 'error: run_shell needs {"command": "..."}';
        } else if (Date.now() - t0 >= o.maxWallMs) {
          content = 'not run: the wall-clock limit of this attempt is reached';
        } else {
          const r = await shell.run(command);
          run.commands++;
          turn.commands.push({ tool_call_id: c.id, command, ...r });
          content = `exit code: ${r.timed_out ? 'none (timed out)' : (r.exit_code ?? 'none')}\n${r.output}`;
        }
      }
      run.messages.push({ role: 'tool', tool_call_id: c.id, content });
    }
  }
  run.wall_ms = Date.now() - t0;
  return run;
}
