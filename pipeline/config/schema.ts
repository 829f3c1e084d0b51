import { z } from 'zod';
import { conflictsSection, locateSection, reproduceSection } from './conflict-sections.js';
import { evaluateSection, rolloutSection } from './rollout-sections.js';

/**
 * The run configuration. Every section is strict: an unknown key is an error, so a typo
 * (`min_comits`) cannot silently fall back to a default. Each stage's fingerprint covers only
 * its own section (see fingerprint.ts), so sections are per stage, plus `run` for the runner.
 */

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, {
    // SEART-GHS writes times with a 12-hour clock and no AM/PM, so only a date cutoff is exact.
    message: 'expected a date YYYY-MM-DD (no time of day: SEART-GHS times are ambiguous by 12 hours)',
  })
  // Date.parse rolls 2024-02-30 over to March 1st, so the date must survive a round trip. A
  // value that is not YYYY-MM-DD at all was already reported by the regex above.
  .refine((s) => !/^\d{4}-\d{2}-\d{2}$/.test(s) || isCalendarDate(s), { message: 'not a calendar date' });

function isCalendarDate(s: string): boolean {
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s;
}

const count = z.number().int().nonnegative();

export const runSection = z.strictObject({
  jobs: z.number().int().min(1).max(256).default(4),
  batch_size: z.number().int().min(1).default(100),
  flush_seconds: z.number().positive().default(5),
  log_level: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  progress_seconds: z.number().positive().default(10),
});

export const searchSection = z
  .strictObject({
    /** Where candidates come from: a SEART-GHS export file, or a crawl of the live GitHub API. */
    source: z.enum(['seart', 'github']).default('seart'),
    /** Path of a SEART-GHS export (CSV or JSON, optionally gzip), relative to the working directory. Required for `seart`. */
    export: z.string().min(1).optional(),
    languages: z.array(z.string().min(1)).min(1).default(['Python', 'Java', 'Kotlin']),
    min_commits: count.default(1000),
    min_issues: count.default(10),
    min_contributors: count.default(10),
    min_stars: count.default(10),
    last_commit_after: isoDate.default('2024-01-01'),
    /** SPDX ids; the export's license names are mapped to SPDX (see stages/search/licenses.ts). */
    licenses: z.array(z.string().min(1)).min(1),
    exclude_forks: z.boolean().default(true),
    exclude_archived: z.boolean().default(true),
    // --- source = "github" only: what the crawl asks GitHub's search for (decides its candidates) ---
    /** Decontamination: only repositories created on or after this date (also the start of date slicing). */
    created_after: isoDate.optional(),
    /** End of date slicing (inclusive); default: the day the crawl started, recorded in its checkpoint. */
    created_before: isoDate.optional(),
    /** Decontamination: only repositories pushed on or after this date (`pushed:>=`; last_commit_after also bounds it). */
    pushed_after: isoDate.optional(),
    /** Extra search qualifiers added to every query, e.g. ["topic:machine-learning"]. */
    qualifiers: z.array(z.string().regex(/^\S+$/, { message: 'expected one qualifier without spaces, e.g. topic:cli' })).optional(),
    /** Stop the crawl after this many candidates (absent or 0: no cap). */
    max_results: count.optional(),
    /** Names a crawl: the same query and snapshot are crawled once (resumed after a kill, reused by reruns); a new name crawls afresh. */
    snapshot: z.string().optional(),
    // (These have no defaults on purpose: absent keys leave the fingerprint of an existing
    // SEART-GHS configuration unchanged, so adding the GitHub source re-decides nothing.)
  })
  .superRefine((s, ctx) => {
    if (s.source === 'seart' && s.export === undefined) {
      ctx.addIssue({ code: 'invalid_type', expected: 'string', input: undefined, path: ['export'], message: 'required when source = "seart"' });
    }
    if (s.created_after && s.created_before && s.created_before < s.created_after) {
      ctx.addIssue({ code: 'custom', path: ['created_before'], message: `before created_after (${s.created_after})` });
    }
  });

/** The GitHub API adapter (pipeline/github): how to talk to it, never what to select. */
export const githubSection = z.strictObject({
  /** Base URL of the REST API; empty: $ENVFORGE_GITHUB_API_URL, else https://api.github.com. The env variable wins when set. */
  api_url: z.string().default(''),
  /** Comma-separated tokens (`${GITHUB_TOKENS:-}`), rotated when one is exhausted; plus `token` (`${GITHUB_TOKEN:-}`). */
  tokens: z.string().default(''),
  token: z.string().default(''),
  /** Repositories per GraphQL search request (GitHub allows at most 100). */
  page_size: z.number().int().min(1).max(100).default(100),
  /** Date ranges counted per GraphQL request while slicing a query above 1,000 hits. */
  count_batch: z.number().int().min(1).max(100).default(40),
  /** Minimum spacing of GraphQL requests per client (the throttling plugin's default is 1000). */
  graphql_interval_ms: z.number().int().nonnegative().default(1000),
  /** Retries of 5xx and network errors (backoff: retry_base_ms * n^2), and of secondary rate limits. */
  retries: z.number().int().nonnegative().max(20).default(4),
  retry_base_ms: z.number().int().nonnegative().default(1000),
  /** When every token is exhausted, wait for the earliest reset if it is this close; else stop (rerun resumes). */
  max_rate_limit_wait_seconds: z.number().nonnegative().default(900),
  timeout_seconds: z.number().positive().default(60),
});

export const cloneSection = z.strictObject({
  /** Where to clone from; `{owner}`, `{repo}` and `{cwd}` (the working directory) are filled in. */
  url_template: z
    .string()
    .refine((t) => t.includes('{owner}') && t.includes('{repo}'), { message: 'expected a template containing {owner} and {repo}' })
    .default('https://github.com/{owner}/{repo}.git'),
  /** Commits of history to fetch; 0 fetches the full history. */
  depth: z.number().int().nonnegative().default(1),
  /** Partial clone (`--filter=blob:none`): with full history, fetch only the blobs the checkout needs. */
  blob_filter: z.boolean().default(false),
  timeout_seconds: z.number().positive().default(600),
  /** The run stops cleanly, before cloning more, when less than this is free under data_dir. */
  min_free_gb: z.number().nonnegative().default(5),
});

export const inspectSection = z.strictObject({
  /** How deep below the root to look for nested build files (monorepo signal). */
  nested_depth: z.number().int().min(1).max(20).default(3),
  /** How deep below the root to look for Dockerfiles and compose files. */
  docker_depth: z.number().int().min(0).max(20).default(3),
  /** Manifests larger than this are recorded as findings, never read. */
  max_file_bytes: z.number().int().positive().default(1024 * 1024),
  /** A cap on directory entries visited, so a giant repository cannot stall the stage. */
  max_entries: z.number().int().positive().default(200_000),
  /** EnvBench's content filters, each switchable. */
  require_single_manager: z.boolean().default(true),
  reject_docker: z.boolean().default(true),
  reject_monorepo: z.boolean().default(true),
});

export const sandboxSection = z.strictObject({
  /** Docker API endpoint (unix socket path, tcp:// or ssh://); empty: $DOCKER_HOST, else the local socket. */
  docker_host: z.string().default(''),
  /** The image every sandbox image builds FROM; `make base-image` creates it without a registry. */
  base_image: z.string().min(1).default('envforge/base:bookworm'),
  /** Install the tools whose download hosts are not package registries (uv, conda, SDKMAN JDKs). */
  online_tools: z.boolean().default(false),
  network: z.string().min(1).default('bridge'),
  /** A CA bundle for egress proxies: baked into images at build, mounted into runs, exported. */
  ca_bundle: z.string().default(''),
  memory_mb: z.number().int().min(64).default(4096),
  cpus: z.number().positive().default(2),
  pids: z.number().int().min(16).default(2048),
  /** Bytes of output kept per run (head and tail); the total size is always recorded. */
  log_cap_bytes: z.number().int().min(1024).default(256 * 1024),
  create_timeout_seconds: z.number().positive().default(180),
});

export const baselineSection = z.strictObject({
  timeout_seconds: z.number().positive().default(600),
  python_image: z.string().min(1).default('python'),
  jvm_image: z.string().min(1).default('jvm'),
});

/** The EnConda-Bench error types (E3 and E5 are not used by the benchmark). */
export const ERROR_TYPES = ['E1', 'E2', 'E4', 'E6', 'E7', 'E8'] as const;

export const readmeSection = z.strictObject({
  /** Documents larger than this are not read (recorded in the row's findings). */
  max_file_bytes: z.number().int().positive().default(1024 * 1024),
  /** Also read INSTALL*, docs/install*, CONTRIBUTING* (inspect's setup_docs); the README alone otherwise. */
  secondary_docs: z.boolean().default(true),
});

const modelName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { message: 'expected a model name of letters, digits, ".", "_" or "-"' });

export const llmModelSection = z.strictObject({
  /** The model id sent to the endpoint (the request's `model`). */
  model: z.string().min(1),
  /** Any OpenAI-compatible endpoint: OpenAI, OpenRouter, vLLM, Ollama, a LiteLLM proxy for Claude/Gemini. */
  base_url: z.string().regex(/^https?:\/\//, { message: 'expected an http(s) URL' }),
  /** Always `${SOME_API_KEY:-}`: the value is masked everywhere; empty for endpoints that need no key. */
  api_key: z.string().default(''),
  /** Prices in US dollars per million tokens. */
  input_usd_per_mtok: z.number().nonnegative().default(0),
  output_usd_per_mtok: z.number().nonnegative().default(0),
  max_tokens: z.number().int().positive().default(4096),
  /** Send `response_format: {type: "json_object"}` (endpoints that support it). */
  json_mode: z.boolean().default(false),
  timeout_seconds: z.number().positive().default(300),
});

export const llmSection = z.strictObject({
  models: z.record(modelName, llmModelSection).default({}),
  /** Retries of one call on 429, 5xx and connection errors, with exponential backoff (429: retry-after wins). */
  max_retries: z.number().int().nonnegative().default(4),
  backoff_seconds: z.number().nonnegative().default(1),
  max_backoff_seconds: z.number().nonnegative().default(60),
  /** Re-asks when an answer is not the JSON asked for; then the item is an `error` row with the raw text. */
  json_retries: z.number().int().nonnegative().default(2),
  /** The response cache under data/cache/llm/ (shared by all datasets). */
  cache: z.boolean().default(true),
});

export const injectSection = z.strictObject({
  /** Injectors run on every README, in this order: `llm` (strong models), `mutation` (deterministic). */
  injectors: z.array(z.enum(['llm', 'mutation'])).min(1).default(['mutation']),
  /** Errors per injected README (EnConda-Bench: 2). */
  errors_per_readme: z.number().int().min(1).max(14).default(2),
  seed: z.number().int().nonnegative().default(1),
  /** The most this stage may spend in this dataset (the ledger's sum; cache hits are free). */
  max_usd: z.number().nonnegative().default(10),
  /** The minimal-edit budget, per error: lines of the README an edit may touch, and characters it may change. */
  max_lines_per_edit: z.number().int().min(1).default(2),
  max_chars_per_edit: z.number().int().min(1).default(200),
  llm: z
    .strictObject({
      /** Names of `[llm.models.<name>]`; each writes `instances` READMEs per repository. */
      models: z.array(modelName).default([]),
      instances: z.number().int().min(1).default(1),
      temperature: z.number().min(0).max(2).default(0.7),
    })
    .default({ models: [], instances: 1, temperature: 0.7 }),
  mutation: z
    .strictObject({
      instances: z.number().int().min(1).default(2),
      types: z.array(z.enum(ERROR_TYPES)).min(1).default([...ERROR_TYPES]),
    })
    .default({ instances: 2, types: [...ERROR_TYPES] }),
});

/** EnConda-Bench validation: run the injected README (and the original) in the sandbox. */
export const validateSection = z.strictObject({
  /** `executor`: the README's shell steps run literally (offline default); `weak-llm`: a weak model follows the README with a shell tool. */
  validator: z.enum(['executor', 'weak-llm']).default('executor'),
  /** Sandbox images by the checkout's build files: pom.xml / build.gradle(.kts) → jvm_image, else python_image. */
  python_image: z.string().min(1).default('python'),
  jvm_image: z.string().min(1).default('jvm'),
  /** After a failing step: `continue` runs the rest (each error judged at its own step), `stop` ends the run. */
  on_failure: z.enum(['continue', 'stop']).default('continue'),
  step_timeout_seconds: z.number().positive().default(120),
  /** Wall clock of one README run (one container); beyond it the instance is an infra_error. */
  run_timeout_seconds: z.number().positive().default(900),
  /** Output kept per step (head and tail). */
  output_cap_bytes: z.number().int().min(256).default(8192),
  weak_llm: z
    .strictObject({
      /** A name of [llm.models]: deliberately weak (EnConda-Bench: gpt-4.1-mini), so it does not repair errors. */
      model: z.string().default(''),
      max_steps: z.number().int().min(1).default(30),
      /** Tokens (in + out) per trajectory; the loop stops there. */
      max_tokens: z.number().int().min(1).default(200_000),
      temperature: z.number().min(0).max(2).default(0),
      /** The stage's spend in this dataset (the ledger's sum); not part of the fingerprint. */
      max_usd: z.number().nonnegative().default(5),
    })
    .default({ model: '', max_steps: 30, max_tokens: 200_000, temperature: 0, max_usd: 5 }),
});

/** EnConda-Bench filtering: an LLM checks every valid error against fixed criteria; humans decide through `envforge review`. */
export const reviewSection = z.strictObject({
  /** A name of [llm.models]; empty: the LLM filter is off (`llm_review: skipped`) and every valid error awaits human review. */
  model: z.string().default(''),
  temperature: z.number().min(0).max(2).default(0),
  /** The stage's spend in this dataset; not part of the fingerprint. */
  max_usd: z.number().nonnegative().default(5),
  /** Keep errors the LLM rejected until a human decides (true), or drop them at once (false). */
  keep_llm_rejected_until_human: z.boolean().default(false),
});

const levelName = z.string().regex(/^level(?:[1-9]|10)$/, { message: 'expected level1 .. level10' });

/** EnConda-Bench difficulty tiers: split instances into single errors and merge instances of a repository. */
export const tiersSection = z.strictObject({
  /** Emit `<instance>_only_E<k>` (the instance with every edit but those of type k reverted). */
  split: z.boolean().default(true),
  /** Emit `error_gen_<owner>_<repo>_error_readme_merge_k<N>` for N = 2 .. max_merge base instances. */
  max_merge: z.number().int().min(1).default(10),
  /** Level targets: at most this many instances of a level per repository (level1 .. level10; level10 = 10 or more errors). Absent: no cap. */
  level_targets: z.record(levelName, z.number().int().nonnegative()).default({}),
});

export const configSchema = z.strictObject({
  dataset: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { message: 'expected a name of letters, digits, ".", "_" or "-"' }),
  data_dir: z.string().min(1).default('data'),
  run: runSection.default(runSection.parse({})),
  search: searchSection.optional(),
  github: githubSection.default(githubSection.parse({})),
  clone: cloneSection.default(cloneSection.parse({})),
  inspect: inspectSection.default(inspectSection.parse({})),
  sandbox: sandboxSection.default(sandboxSection.parse({})),
  baseline: baselineSection.default(baselineSection.parse({})),
  readme: readmeSection.default(readmeSection.parse({})),
  llm: llmSection.default(llmSection.parse({})),
  inject: injectSection.default(injectSection.parse({})),
  validate: validateSection.default(validateSection.parse({})),
  review: reviewSection.default(reviewSection.parse({})),
  tiers: tiersSection.default(tiersSection.parse({})),
  // SetupBench's dependency-conflict recipe (conflict-sections.ts): conflicts → locate → reproduce.
  conflicts: conflictsSection.optional(),
  locate: locateSection.default(locateSection.parse({})),
  reproduce: reproduceSection.default(reproduceSection.parse({})),
  // Trajectories for training (rollout-sections.ts): evaluate, rollout.
  evaluate: evaluateSection.default(evaluateSection.parse({})),
  rollout: rolloutSection.default(rolloutSection.parse({})),
});

export type Config = z.infer<typeof configSchema>;
export type RunSettings = z.infer<typeof runSection>;
export type SearchSettings = z.infer<typeof searchSection>;
export type GitHubSettings = z.infer<typeof githubSection>;
export type CloneSettings = z.infer<typeof cloneSection>;
export type InspectSettings = z.infer<typeof inspectSection>;
export type SandboxSettings = z.infer<typeof sandboxSection>;
export type BaselineSettings = z.infer<typeof baselineSection>;
export type ReadmeSettings = z.infer<typeof readmeSection>;
export type LlmSettings = z.infer<typeof llmSection>;
export type LlmModelSettings = z.infer<typeof llmModelSection>;
export type InjectSettings = z.infer<typeof injectSection>;
export type ValidateSettings = z.infer<typeof validateSection>;
export type ReviewSettings = z.infer<typeof reviewSection>;
export type TiersSettings = z.infer<typeof tiersSection>;
export type ErrorType = (typeof ERROR_TYPES)[number];
