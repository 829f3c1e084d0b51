import type { RawRecord } from './seart-export.js';
import { toSpdx } from './licenses.js';

/** One repository of a SEART-GHS export, with typed fields (null where the export has none). */
export interface RepoRecord {
  repository: string;
  ghs_id: number | null;
  language: string | null;
  is_fork: boolean;
  is_archived: boolean;
  commits: number;
  total_issues: number;
  open_issues: number | null;
  contributors: number;
  stars: number;
  forks: number | null;
  size_kb: number | null;
  license: string | null;
  license_spdx: string | null;
  default_branch: string | null;
  created_date: string | null;
  pushed_date: string | null;
  last_commit_date: string;
  /** The export's own text: its time of day is on a 12-hour clock without AM/PM. */
  last_commit_raw: string;
  revision: string | null;
}

export type ParseResult = { ok: true; record: RepoRecord } | { ok: false; problems: string[] };

const REPO_NAME = /^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/;
const SHA = /^[0-9a-f]{40}$/i;

/** Type every field the selection and later stages use; collect every problem, not just the first. */
export function parseRecord(raw: RawRecord): ParseResult {
  const problems: string[] = [];
  if (raw.__error) problems.push(raw.__error);
  const f = new Fields(raw, problems);
  const name = f.str('name', true);
  if (name !== null && !REPO_NAME.test(name)) problems.push(`name: expected owner/repo, got ${JSON.stringify(name)}`);
  const lastCommit = f.str('lastCommit', true);
  const record: RepoRecord = {
    repository: name ?? '',
    ghs_id: f.int('id', false),
    language: f.str('mainLanguage', false),
    is_fork: f.bool('isFork', true) ?? false,
    is_archived: f.bool('isArchived', true) ?? false,
    commits: f.int('commits', true) ?? 0,
    total_issues: f.int('totalIssues', true) ?? 0,
    open_issues: f.int('openIssues', false),
    contributors: f.int('contributors', true) ?? 0,
    stars: f.int('stargazers', true) ?? 0,
    forks: f.int('forks', false),
    size_kb: f.int('size', false),
    license: f.str('license', false),
    license_spdx: null,
    default_branch: f.str('defaultBranch', false),
    created_date: f.date('createdAt', false),
    pushed_date: f.date('pushedAt', false),
    last_commit_date: f.date('lastCommit', true) ?? '',
    last_commit_raw: lastCommit ?? '',
    revision: f.str('lastCommitSHA', false),
  };
  if (record.revision !== null && !SHA.test(record.revision)) {
    problems.push(`lastCommitSHA: expected a 40-hex commit SHA, got ${JSON.stringify(record.revision)}`);
  }
  record.license_spdx = record.license ? (toSpdx(record.license) ?? null) : null;
  return problems.length > 0 ? { ok: false, problems } : { ok: true, record };
}

/** Field readers that accept CSV's all-quoted strings and JSON's native types alike. */
class Fields {
  constructor(
    private readonly raw: RawRecord,
    private readonly problems: string[],
  ) {}

  private get(name: string, required: boolean): unknown {
    const v = this.raw[name];
    if (v === undefined || v === null || v === '') {
      if (required) this.problems.push(`${name}: missing`);
      return null;
    }
    return v;
  }

  str(name: string, required: boolean): string | null {
    const v = this.get(name, required);
    return v === null ? null : String(v).trim();
  }

  int(name: string, required: boolean): number | null {
    const v = this.get(name, required);
    if (v === null) return null;
    const n = typeof v === 'number' ? v : /^\s*-?\d+\s*$/.test(String(v)) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < 0) {
      this.problems.push(`${name}: expected a whole number, got ${JSON.stringify(v)}`);
      return null;
    }
    return n;
  }

  bool(name: string, required: boolean): boolean | null {
    const v = this.get(name, required);
    if (v === null) return null;
    if (v === true || v === false) return v;
    const s = String(v).trim().toLowerCase();
    if (s === 'true') return true;
    if (s === 'false') return false;
    this.problems.push(`${name}: expected true or false, got ${JSON.stringify(v)}`);
    return null;
  }

  /** The calendar date of a SEART timestamp; its time of day is 12-hour and ambiguous, so dropped. */
  date(name: string, required: boolean): string | null {
    const v = this.get(name, required);
    if (v === null) return null;
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(String(v).trim());
    const d = m ? new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`) : undefined;
    if (!m || !d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== `${m[1]}-${m[2]}-${m[3]}`) {
      this.problems.push(`${name}: expected a date yyyy-MM-dd['T'hh:mm:ss], got ${JSON.stringify(v)}`);
      return null;
    }
    return `${m[1]}-${m[2]}-${m[3]}`;
  }
}
