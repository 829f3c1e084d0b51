import { z } from 'zod';

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

export const searchSection = z.strictObject({
  source: z.enum(['seart']).default('seart'),
  /** Path of a SEART-GHS export (CSV or JSON, optionally gzip), relative to the working directory. */
  export: z.string().min(1),
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

export const configSchema = z.strictObject({
  dataset: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { message: 'expected a name of letters, digits, ".", "_" or "-"' }),
  data_dir: z.string().min(1).default('data'),
  run: runSection.default(runSection.parse({})),
  search: searchSection.optional(),
  clone: cloneSection.default(cloneSection.parse({})),
  inspect: inspectSection.default(inspectSection.parse({})),
  sandbox: sandboxSection.default(sandboxSection.parse({})),
  baseline: baselineSection.default(baselineSection.parse({})),
});

export type Config = z.infer<typeof configSchema>;
export type RunSettings = z.infer<typeof runSection>;
export type SearchSettings = z.infer<typeof searchSection>;
export type CloneSettings = z.infer<typeof cloneSection>;
export type InspectSettings = z.infer<typeof inspectSection>;
export type SandboxSettings = z.infer<typeof sandboxSection>;
export type BaselineSettings = z.infer<typeof baselineSection>;
