import type { RepoRecord } from './seart-record.js';
import { toSpdx } from './licenses.js';

/**
 * What the crawl asks GitHub about each candidate (one GraphQL selection, so discovery and
 * enrichment are one request), and how an answer becomes the source-independent RepoRecord
 * the selection rules (criteria.ts) read. Contributors are not in GraphQL: see
 * github-contributors.ts.
 */
export const REPOSITORY_FIELDS = `
  databaseId
  nameWithOwner
  isFork
  isArchived
  stargazerCount
  forkCount
  diskUsage
  createdAt
  pushedAt
  primaryLanguage { name }
  licenseInfo { spdxId name }
  issues { totalCount }
  closedIssues: issues(states: CLOSED) { totalCount }
  defaultBranchRef {
    name
    target { ... on Commit { oid committedDate history { totalCount } } }
  }
`;

/** An item of the `candidates` source when search.source = "github": a crawled node, flattened. */
export interface GitHubItem {
  [field: string]: unknown;
  __source: 'github';
  /** The crawl (checkpoint) this candidate came from. */
  __crawl: string;
  repository: string;
  crawled_at: string;
  node: Record<string, unknown>;
}

export type GitHubParse = { ok: true; record: RepoRecord; githubId: number | null; lastCommitAt: string | null } | { ok: false; problems: string[] };

const REPO_NAME = /^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/;
const SHA = /^[0-9a-f]{40}$/i;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * Type the fields of a GraphQL Repository node. An empty repository (no default branch) has 0
 * commits and no last commit; every other missing or mistyped field is a problem.
 */
export function parseGitHubNode(node: Record<string, unknown>): GitHubParse {
  const problems: string[] = [];
  const get = (path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), node);
  const int = (path: string, required = true): number | null => {
    const v = get(path);
    if (v === undefined || v === null) {
      if (required) problems.push(`${path}: missing`);
      return null;
    }
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
      problems.push(`${path}: expected a whole number, got ${JSON.stringify(v)}`);
      return null;
    }
    return v;
  };
  const bool = (path: string): boolean => {
    const v = get(path);
    if (typeof v !== 'boolean') problems.push(`${path}: expected true or false, got ${JSON.stringify(v ?? null)}`);
    return v === true;
  };
  const str = (path: string): string | null => {
    const v = get(path);
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
  };
  const time = (path: string, required: boolean): string | null => {
    const v = str(path);
    if (v === null) {
      if (required) problems.push(`${path}: missing`);
      return null;
    }
    if (!ISO.test(v) || Number.isNaN(Date.parse(v))) {
      problems.push(`${path}: expected an ISO 8601 time, got ${JSON.stringify(v)}`);
      return null;
    }
    return v;
  };
  const name = str('nameWithOwner');
  if (name === null) problems.push('nameWithOwner: missing');
  else if (!REPO_NAME.test(name)) problems.push(`nameWithOwner: expected owner/repo, got ${JSON.stringify(name)}`);
  const branch = get('defaultBranchRef');
  const hasBranch = branch !== null && branch !== undefined;
  const revision = hasBranch ? str('defaultBranchRef.target.oid') : null;
  if (hasBranch && (revision === null || !SHA.test(revision))) problems.push(`defaultBranchRef.target.oid: expected a 40-hex commit SHA, got ${JSON.stringify(revision)}`);
  const lastCommitAt = hasBranch ? time('defaultBranchRef.target.committedDate', true) : null;
  const commits = hasBranch ? int('defaultBranchRef.target.history.totalCount') : 0;
  const total = int('issues.totalCount');
  const closed = int('closedIssues.totalCount');
  const licenseName = str('licenseInfo.name');
  const spdx = str('licenseInfo.spdxId');
  const createdAt = time('createdAt', true);
  const pushedAt = time('pushedAt', false);
  const record: RepoRecord = {
    repository: name ?? '',
    ghs_id: null,
    language: str('primaryLanguage.name'),
    is_fork: bool('isFork'),
    is_archived: bool('isArchived'),
    commits: commits ?? 0,
    total_issues: total ?? 0,
    open_issues: total !== null && closed !== null ? Math.max(0, total - closed) : null,
    // Unknown until asked (only finalists are): see github-contributors.ts.
    contributors: Number.MAX_SAFE_INTEGER,
    stars: int('stargazerCount') ?? 0,
    forks: int('forkCount', false),
    size_kb: int('diskUsage', false),
    license: licenseName,
    // GitHub gives the SPDX id itself ("NOASSERTION" for "Other", as the SEART mapping does).
    license_spdx: spdx ?? (licenseName ? (toSpdx(licenseName) ?? null) : null),
    default_branch: hasBranch ? str('defaultBranchRef.name') : null,
    created_date: createdAt ? utcDate(createdAt) : null,
    pushed_date: pushedAt ? utcDate(pushedAt) : null,
    last_commit_date: lastCommitAt ? utcDate(lastCommitAt) : '',
    last_commit_raw: lastCommitAt ?? '',
    revision,
  };
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, record, githubId: int('databaseId', false), lastCommitAt };
}

/** The UTC calendar date of an ISO time (GitHub's times are exact, unlike SEART's 12-hour clock). */
export function utcDate(iso: string): string {
  return new Date(Date.parse(iso)).toISOString().slice(0, 10);
}
