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
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), { message: 'not a calendar date' });

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

export const configSchema = z.strictObject({
  dataset: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { message: 'expected a name of letters, digits, ".", "_" or "-"' }),
  data_dir: z.string().min(1).default('data'),
  run: runSection.default(runSection.parse({})),
  search: searchSection.optional(),
});

export type Config = z.infer<typeof configSchema>;
export type RunSettings = z.infer<typeof runSection>;
export type SearchSettings = z.infer<typeof searchSection>;
