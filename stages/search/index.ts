import { ConfigError } from '../../pipeline/errors.js';
import type { SearchSettings } from '../../pipeline/config/schema.js';
import { accept, fail, reject, type Columns, type Source, type Stage, type StageContext } from '../../pipeline/stage.js';
import { firstFailure } from './criteria.js';
import { readSeartExport, type RawRecord } from './seart-export.js';
import { parseRecord } from './seart-record.js';

/** search: one row per repository of the candidate list, accepted or rejected by EnvBench's selection. */

export function searchSettings(ctx: StageContext): SearchSettings {
  const s = ctx.config.config.search;
  if (!s) throw new ConfigError(`${ctx.config.file}: [search] section is missing (it names the export and the thresholds)`);
  return s;
}

export const seartExportSource: Source<RawRecord> = {
  name: 'seart_export',
  description: 'a SEART-GHS export file (CSV or JSON, optionally gzip), named by search.export',
  read: (ctx) => readSeartExport(searchSettings(ctx).export),
};

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
} satisfies Columns;

export const searchStage: Stage<RawRecord> = {
  name: 'search',
  version: 1,
  description: 'select candidate repositories (EnvBench thresholds) from a SEART-GHS export',
  input: 'seart_export',
  columns,
  key: (raw) => {
    const name = typeof raw.name === 'string' ? raw.name.trim() : '';
    return name !== '' ? name : `row:${raw.__row}`;
  },
  async run(raw, ctx) {
    const settings = searchSettings(ctx);
    const parsed = parseRecord(raw);
    const origin = { source: 'seart', source_row: raw.__row };
    if (!parsed.ok) return fail('malformed_row', `row ${raw.__row}: ${parsed.problems.join('; ')}`, origin);
    const cells = { ...parsed.record, ...origin };
    const failure = firstFailure(parsed.record, settings);
    return failure ? reject(failure.reason, failure.text, cells) : accept(cells);
  },
};
