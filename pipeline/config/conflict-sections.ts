import { z } from 'zod';

/**
 * The config of SetupBench's dependency-conflict recipe (conflicts → locate → reproduce).
 *
 * The ecosystem table lives here, split by stage so each stage's fingerprint covers only what
 * decides its rows: `[conflicts.ecosystems.<name>]` (how to find the conflict in issues),
 * `[locate.ecosystems.<name>]` (which files must exist at the base commit) and
 * `[reproduce.ecosystems.<name>]` (how to reproduce it). Changing an install command re-runs
 * reproduce, never the mining. A new ecosystem (yarn, pnpm, Cargo, Composer ...) is three small
 * tables. The defaults are the five ecosystems of SetupBench (../shared/reference/setupbench.md).
 */

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'expected a date YYYY-MM-DD' });
const ecosystemName = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, { message: 'expected an ecosystem name of lowercase letters, digits, ".", "_" or "-"' });

const regexText = z.string().min(1).refine(
  (s) => {
    try {
      new RegExp(s, 'i');
      return true;
    } catch {
      return false;
    }
  },
  { message: 'not a valid regular expression' },
);

export const conflictEcosystem = z.strictObject({
  /** GitHub issue search text, qualifiers included (created: ranges are added when slicing). */
  query: z.string().min(1),
  /** Matched case-insensitively against the issue body and every comment; the matching lines are the snippet. */
  regex: regexText,
});

export const locateEcosystem = z.strictObject({
  /** Must exist in the repository root at the base commit. */
  manifest: z.string().min(1),
  /** At least one must exist in the root at the base commit. */
  lockfiles: z.array(z.string().min(1)).min(1),
});

export const reproduceEcosystem = z.strictObject({
  /** Sandbox image name (sandboxes/images/<name>/). */
  image: z.string().min(1),
  /** Shell commands run in order in the repository root; their output is matched against the regex. */
  install: z.array(z.string().min(1)).min(1),
  /** The task's success command (it passes when it exits 0); default: the first install command. */
  success_command: z.string().default(''),
  /** The documented way around the conflict, run on a fresh copy; its exit code is evidence the task is solvable. Empty: none. */
  escape_hatch: z.string().default(''),
  /** Decides `reproduced`; default: the ecosystem's mining regex (conflicts.ecosystems.<name>.regex). */
  error_regex: z.union([z.literal(''), regexText]).default(''),
  /** Output that means the package registry could not be reached: the run says nothing about the conflict. */
  unreachable_regex: z.union([z.literal(''), regexText]).default(''),
});

export const REFERENCE_CONFLICT_ECOSYSTEMS = {
  'npm-peer-dep': { query: 'npm ERR! peer dep is:issue in:comments state:closed language:JavaScript', regex: 'npm ERR! peer dep' },
  'npm-eresolve': { query: 'npm ERR! code ERESOLVE is:issue in:comments state:closed language:JavaScript', regex: 'npm ERR! code ERESOLVE' },
  'pip-conflict': { query: 'ERROR: Could not install is:issue in:comments state:closed language:Python', regex: 'ERROR: (?:Could not install|ResolutionImpossible)' },
  'poetry-conflict': { query: 'ResolutionImpossible is:issue in:comments state:closed language:Python', regex: 'ResolutionImpossible' },
  'bundler-compat': {
    query: 'Bundler could not find compatible versions is:issue in:comments state:closed language:Ruby',
    regex: 'Bundler could not find compatible versions',
  },
} satisfies Record<string, z.input<typeof conflictEcosystem>>;

export const REFERENCE_LOCATE_ECOSYSTEMS = {
  'npm-peer-dep': { manifest: 'package.json', lockfiles: ['package-lock.json', 'yarn.lock'] },
  'npm-eresolve': { manifest: 'package.json', lockfiles: ['package-lock.json', 'yarn.lock'] },
  'pip-conflict': { manifest: 'requirements.txt', lockfiles: ['Pipfile.lock', 'poetry.lock'] },
  'poetry-conflict': { manifest: 'pyproject.toml', lockfiles: ['poetry.lock'] },
  'bundler-compat': { manifest: 'Gemfile', lockfiles: ['Gemfile.lock'] },
} satisfies Record<string, z.input<typeof locateEcosystem>>;

const NPM_UNREACHABLE = 'npm ERR! code (?:ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)|npm ERR! network';
const PIP_UNREACHABLE = 'Could not fetch URL|NewConnectionError|ProxyError|SSLError|Temporary failure in name resolution|No matching distribution found for poetry|Max retries exceeded';

export const REFERENCE_REPRODUCE_ECOSYSTEMS = {
  'npm-peer-dep': {
    image: 'node',
    install: ['npm ci --ignore-scripts'],
    escape_hatch: 'npm install --ignore-scripts --legacy-peer-deps',
    // `npm ERR! peer dep missing` is npm 6's wording (npm ls); npm >= 7 refuses the same
    // conflict with ERESOLVE, so the mining regex alone could never reproduce on npm 7+.
    error_regex: 'npm ERR! peer dep|npm ERR! code ERESOLVE',
    unreachable_regex: NPM_UNREACHABLE,
  },
  'npm-eresolve': {
    image: 'node',
    install: ['npm ci --ignore-scripts'],
    escape_hatch: 'npm install --ignore-scripts --legacy-peer-deps',
    unreachable_regex: NPM_UNREACHABLE,
  },
  'pip-conflict': {
    image: 'python',
    install: ['pip install --no-build-isolation --no-deps -r requirements.txt', 'pip install --no-build-isolation -r requirements.txt'],
    success_command: 'pip install --no-build-isolation -r requirements.txt',
    unreachable_regex: PIP_UNREACHABLE,
  },
  'poetry-conflict': {
    image: 'python',
    install: ['pip install poetry && poetry install --no-root --no-interaction --no-scripts'],
    // Poetry never prints pip's ResolutionImpossible: its solver fails with SolverProblemError,
    // "version solving failed" (test/fixtures/conflicts/poetry-solver-problem.txt).
    error_regex: 'ResolutionImpossible|SolverProblemError|version solving failed',
    unreachable_regex: `${PIP_UNREACHABLE}|HTTPSConnectionPool`,
  },
  'bundler-compat': {
    image: 'ruby',
    install: ['bundle install --jobs=1 --retry=2 --without development test'],
    escape_hatch: 'bundle update --jobs=1 --retry=2',
    unreachable_regex: 'Could not fetch specs from|Could not reach host|Network error|SocketError|Gem::RemoteFetcher::UnknownHostError',
  },
} satisfies Record<string, z.input<typeof reproduceEcosystem>>;

export const conflictsSection = z
  .strictObject({
    /** Where closed issues come from: GH Archive hourly files, or GitHub's issue search (pipeline/github). */
    source: z.enum(['gharchive', 'github']).default('gharchive'),
    /** GH Archive hourly files (`2024-01-01-15.json.gz`), folders of them, or http(s) URLs of them. */
    gharchive: z.array(z.string().min(1)).default([]),
    /** Keep only issues seen closed (the search qualifier `state:closed`; in GH Archive: an event showing it closed). */
    require_closed: z.boolean().default(true),
    /** Issue-search bound per ecosystem (SetupBench: 500). 0: no bound. */
    max_issues_per_ecosystem: z.number().int().nonnegative().default(500),
    /** Issue search: only issues created in this range (also the range date slicing splits past 1,000 results). */
    created_after: isoDate.default('2015-01-01'),
    /** Default: today. */
    created_before: isoDate.optional(),
    /** Matching lines kept per snippet (the rest is counted). */
    max_snippet_lines: z.number().int().min(1).default(40),
    ecosystems: z.record(ecosystemName, conflictEcosystem).default(REFERENCE_CONFLICT_ECOSYSTEMS),
  })
  .superRefine((s, ctx) => {
    if (s.source === 'gharchive' && s.gharchive.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['gharchive'], message: 'required when source = "gharchive" (files, folders or URLs of GH Archive hourly files)' });
    }
    if (Object.keys(s.ecosystems).length === 0) ctx.addIssue({ code: 'custom', path: ['ecosystems'], message: 'expected at least one ecosystem' });
  });

export const locateSection = z.strictObject({
  /** Where history comes from: a partial clone (clone.url_template, blobs never fetched) or the GitHub API (commits `until=`, contents at a ref). */
  via: z.enum(['git', 'api']).default('git'),
  /** Ask the GitHub API for the repository (default branch, fork, vanished) also when via = "git". */
  repo_metadata: z.boolean().default(false),
  /** Reject issues of forks (their conflicts are usually the parent's). */
  reject_forks: z.boolean().default(true),
  timeout_seconds: z.number().positive().default(600),
  ecosystems: z.record(ecosystemName, locateEcosystem).default(REFERENCE_LOCATE_ECOSYSTEMS),
});

export const reproduceSection = z.strictObject({
  /** Per install command (and the escape hatch); the container's limit is their sum plus a minute. */
  timeout_seconds: z.number().positive().default(900),
  /** Also run the escape hatch when the conflict was not reproduced. */
  escape_when_not_reproduced: z.boolean().default(false),
  ecosystems: z.record(ecosystemName, reproduceEcosystem).default(z.record(ecosystemName, reproduceEcosystem).parse(REFERENCE_REPRODUCE_ECOSYSTEMS)),
});

export type ConflictsSettings = z.infer<typeof conflictsSection>;
export type ConflictEcosystem = z.infer<typeof conflictEcosystem>;
export type LocateSettings = z.infer<typeof locateSection>;
export type ReproduceSettings = z.infer<typeof reproduceSection>;
export type ReproduceEcosystem = z.infer<typeof reproduceEcosystem>;
