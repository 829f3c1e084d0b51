import { z } from 'zod';

/**
 * Sections of the trajectory recipe: `evaluate` (each benchmark's scoring on any script) and
 * `rollout` (an LLM agent attempts benchmark instances in the sandbox; every step is recorded).
 */

const modelName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { message: 'expected a model name of letters, digits, ".", "_" or "-"' });

export const evaluateSection = z.strictObject({
  /** A JSONL of `{repository, revision, script}` (EnvBench's evaluation input; SetupBench / EnConda records too), relative to the working directory. */
  scripts: z.string().default(''),
  /** Wall clock of one evaluation run (script + metric, or the success command). */
  timeout_seconds: z.number().positive().default(900),
  python_image: z.string().min(1).default('python'),
  jvm_image: z.string().min(1).default('jvm'),
  /** EnConda's LLM judge of description / fix agreement: a name of [llm.models]; empty: off (scores null). */
  judge_model: z.string().default(''),
  /** The judge's spend in this dataset (the ledger's sum). */
  max_usd: z.number().nonnegative().default(5),
});

export const rolloutSection = z
  .strictObject({
    /** Benchmark instances in their published formats: files or export folders (envbench/*.jsonl, setupbench/dependency_resolution.jsonl, enconda/instances.jsonl + READMEs). */
    instances: z.array(z.string().min(1)).default([]),
    /** Names of [llm.models]; every instance is attempted by each. */
    models: z.array(modelName).default([]),
    /** Trajectories per instance and model. */
    samples: z.number().int().min(1).max(100).default(1),
    /** Per sample i: temperatures[i % n] and seeds[i % n] (absent seeds: the sample index). */
    temperatures: z.array(z.number().min(0).max(2)).min(1).default([0.7]),
    seeds: z.array(z.number().int().nonnegative()).default([]),
    /** Limits of one trajectory: model turns, tokens (in + out, summed over calls), wall clock. */
    max_steps: z.number().int().min(1).default(30),
    max_tokens: z.number().int().min(1).default(200_000),
    max_wall_seconds: z.number().positive().default(1800),
    /** One run_shell command's wall clock, and the bytes of its output kept (head and tail) for the model and the record. */
    command_timeout_seconds: z.number().positive().default(300),
    output_cap_bytes: z.number().int().min(256).default(8192),
    /** The stage's spend in this dataset (the ledger's sum); the run stops cleanly there. */
    max_usd: z.number().nonnegative().default(10),
  })
  .superRefine((s, ctx) => {
    if (s.seeds.length > 0 && s.seeds.length !== s.temperatures.length && s.seeds.length !== s.samples) {
      ctx.addIssue({ code: 'custom', path: ['seeds'], message: 'expected as many seeds as temperatures or samples' });
    }
  });

export type EvaluateSettings = z.infer<typeof evaluateSection>;
export type RolloutSettings = z.infer<typeof rolloutSection>;
