import { ConfigError } from '../../pipeline/errors.js';
import type { SearchSettings } from '../../pipeline/config/schema.js';
import { accept, fail, reject, type Columns, type Source, type Stage, type StageContext } from '../../pipeline/stage.js';
import { firstFailure } from './criteria.js';
import type { GitHubItem } from './github-record.js';
import { decideGitHub } from './github-select.js';
import { readGitHubCandidates } from './github-source.js';
import { readSeartExport, type RawRecord } from './seart-export.js';
import { parseRecord } from './seart-record.js';

/** search: one row per repository of the candidate list, accepted or rejected by EnvBench's selection. */

export function searchSettings(ctx: StageContext): SearchSettings {
  const s = ctx.config.config.search;
  if (!s) throw new ConfigError(`${ctx.config.file}: [search] section is missing (it names the export and the thresholds)`);
  return s;
}

function exportFile(ctx: StageContext): string {
  const file = searchSettings(ctx).export;
  if (file === undefined) throw new ConfigError(`${ctx.config.file}: search.export: missing required key (the SEART-GHS export to read)`);
  return file;
}

export const seartExportSource: Source<RawRecord> = {
  name: 'seart_export',
  description: 'a SEART-GHS export file (CSV or JSON, optionally gzip), named by search.export',
  read: (ctx) => readSeartExport(exportFile(ctx)),
};

/**
 * The input of `search`: the candidates of `search.source`. One source for both, so the
 * stage (and everything downstream) stays the same whichever feeds it.
 *   seart  — the records of a SEART-GHS export file (search.export);
 *   github — a complete crawl of GitHub's repository search, enriched through GraphQL and
 *            checkpointed in the shared cache (pipeline/github/, github-source.ts).
 */
export const candidatesSource: Source<RawRecord | GitHubItem> = {
  name: 'candidates',
  description: 'candidate repositories: a SEART-GHS export (search.source = "seart") or a crawl of the GitHub API ("github")',
  read: (ctx) => (searchSettings(ctx).source === 'github' ? readGitHubCandidates(searchSettings(ctx), ctx) : seartExportSource.read(ctx)),
};

const isGitHubItem = (item: RawRecord | GitHubItem): item is GitHubItem => item.__source === 'github';

const columns = {
  repository: 'VARCHAR',
  ghs_id: 'BIGINT',
  language: 'VARCHAR',
  is_fork: 'BOOLEAN',
  is_archived: 'BOOLEAN',
  commits: 'BIGINT',
  total_issues: 'BIGINT',
  open_issues: 'BIGINT',
  contributors: 'BIGINT',
  stars: 'BIGINT',
  forks: 'BIGINT',
  size_kb: 'BIGINT',
  license: 'VARCHAR',
  license_spdx: 'VARCHAR',
  default_branch: 'VARCHAR',
  created_date: 'DATE',
  pushed_date: 'DATE',
  last_commit_date: 'DATE',
  last_commit_raw: 'VARCHAR',
  revision: 'VARCHAR',
  source: 'VARCHAR',
  source_row: 'INTEGER',
  /** source = github: GitHub's numeric id and when the crawl read the repository (its `revision` is the head then). */
  github_id: 'BIGINT',
  crawled_at: 'TIMESTAMP',
} satisfies Columns;

export const searchStage: Stage<RawRecord | GitHubItem> = {
  name: 'search',
  version: 1,
  description: 'select candidate repositories (EnvBench thresholds) from a SEART-GHS export or the GitHub API',
  input: 'candidates',
  columns,
  key: (raw) => {
    if (isGitHubItem(raw)) return raw.repository;
    const name = typeof raw.name === 'string' ? raw.name.trim() : '';
    return name !== '' ? name : `row:${raw.__row}`;
  },
  async run(raw, ctx) {
    const settings = searchSettings(ctx);
    if (isGitHubItem(raw)) return decideGitHub(raw, settings, ctx);
    const parsed = parseRecord(raw);
    const origin = { source: 'seart', source_row: raw.__row };
    if (!parsed.ok) return fail('malformed_row', `row ${raw.__row}: ${parsed.problems.join('; ')}`, origin);
    const cells = { ...parsed.record, ...origin };
    const failure = firstFailure(parsed.record, settings);
    return failure ? reject(failure.reason, failure.text, cells) : accept(cells);
  },
};
