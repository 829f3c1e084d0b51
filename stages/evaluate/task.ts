import type { AgentOutput, GoldJson } from './enconda-scores.js';

/**
 * One thing to evaluate, whatever benchmark it comes from. The evaluate stage builds these from
 * a scripts JSONL (scripts-source.ts); the rollout stage from its instances and the agent's work.
 */
export type Benchmark = 'envbench' | 'setupbench' | 'enconda';
export type Family = 'python' | 'jvm';

export interface EvalTask {
  benchmark: Benchmark;
  /** The unit of work: `owner/repo@sha` for EnvBench scripts, the instance id otherwise. */
  instance_id: string;
  repository: string;
  /** A commit SHA; null: the remote's default-branch head (resolved and recorded). */
  revision: string | null;
  /** A checkout already in the clone cache (the clone stage's clone_path), else cloned through it. */
  clone_path: string | null;
  /** EnvBench / EnConda: python or jvm (null: detected from the checkout's build files). */
  family: Family | null;
  /** EnvBench / EnConda: the setup script (EnConda: the agent's shell_script). */
  script: string | null;
  /** SetupBench: the command that must exit 0, its ecosystem (decides the image). */
  success_command: string | null;
  ecosystem: string | null;
  /** EnConda: what the agent reported and the gold JSON it is scored against. */
  agent_output: AgentOutput | null;
  gold: GoldJson | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const SHA = /^[0-9a-f]{7,40}$/i;

/**
 * A record of a scripts JSONL: EnvBench's evaluation input `{repository, revision, script}`;
 * a SetupBench entry (`repo`, `base_commit`, `success_command`); an EnConda pair
 * `{repository, revision?, script?, agent_output, gold}` (agent_output in EnConda's agent format).
 * Optional everywhere: `instance_id`, `family`, `clone_path`.
 */
export function taskFromRecord(r: Record<string, unknown>): EvalTask | { problem: string } {
  const repository = str(r.repository) ?? str(r.repo);
  if (!repository || !/^[^/\s]+\/[^/\s]+$/.test(repository)) return { problem: 'expected "repository": "owner/name"' };
  const revision = str(r.revision) ?? str(r.base_commit);
  if (revision && !SHA.test(revision)) return { problem: `revision ${JSON.stringify(revision)} is not a commit SHA` };
  const family: Family | null = r.family === 'python' || r.family === 'jvm' ? r.family : null;
  if (r.family !== undefined && r.family !== null && !family) return { problem: 'family must be "python" or "jvm"' };
  const base = {
    repository,
    revision: revision ? revision.toLowerCase() : null,
    clone_path: str(r.clone_path),
    family,
    script: str(r.script),
    success_command: str(r.success_command),
    ecosystem: str(r.ecosystem),
    agent_output: null,
    gold: null,
  };
  if (base.success_command) {
    return { ...base, benchmark: 'setupbench', instance_id: str(r.instance_id) ?? `deps-${repository.split('/')[1]}-${(base.revision ?? 'head').slice(0, 5)}` };
  }
  if (r.gold !== undefined || r.agent_output !== undefined) {
    if (!isObject(r.gold) || !Array.isArray(r.gold.errors)) return { problem: 'an EnConda record needs "gold": {"errors": [...]} (the README.json)' };
    const agent = isObject(r.agent_output) ? r.agent_output : {};
    const script = base.script ?? str(agent.shell_script);
    return {
      ...base,
      script,
      benchmark: 'enconda',
      instance_id: str(r.instance_id) ?? str(r.gold.readme) ?? `${repository}@${base.revision ?? 'head'}`,
      gold: r.gold as unknown as GoldJson,
      agent_output: agent as unknown as AgentOutput,
    };
  }
  if (!base.script) return { problem: 'expected "script" (EnvBench), "success_command" (SetupBench) or "gold" (EnConda)' };
  return { ...base, benchmark: 'envbench', instance_id: str(r.instance_id) ?? `${repository}@${base.revision ?? 'head'}` };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
