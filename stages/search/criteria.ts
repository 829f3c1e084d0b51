import type { SearchSettings } from '../../pipeline/config/schema.js';
import type { RepoRecord } from './seart-record.js';

/**
 * EnvBench's repository selection (../shared/reference/envbench.md §3.3) as small rules, each
 * keep or (drop, reason). Order matters only for which reason a repository is charged with:
 * the first rule it fails. Source-independent, so the GitHub source can reuse it.
 */
export interface Verdict {
  reason: string;
  text: string;
}

type Rule = (r: RepoRecord, s: SearchSettings) => Verdict | undefined;

const atLeast =
  (field: 'commits' | 'total_issues' | 'contributors' | 'stars', key: keyof SearchSettings, reason: string, noun: string): Rule =>
  (r, s) => {
    const min = s[key] as number;
    return r[field] < min ? { reason, text: `${r[field]} ${noun}, fewer than the minimum ${min}` } : undefined;
  };

export const RULES: readonly Rule[] = [
  (r, s) => (s.exclude_forks && r.is_fork ? { reason: 'fork', text: 'the repository is a fork' } : undefined),
  (r, s) => (s.exclude_archived && r.is_archived ? { reason: 'archived', text: 'the repository is archived' } : undefined),
  (r, s) => {
    const wanted = s.languages.map((l) => l.toLowerCase());
    if (r.language !== null && wanted.includes(r.language.toLowerCase())) return undefined;
    return { reason: 'language_not_selected', text: `primary language ${r.language ?? '(none)'} is not one of ${s.languages.join(', ')}` };
  },
  atLeast('commits', 'min_commits', 'too_few_commits', 'commits'),
  atLeast('total_issues', 'min_issues', 'too_few_issues', 'issues'),
  atLeast('contributors', 'min_contributors', 'too_few_contributors', 'contributors'),
  atLeast('stars', 'min_stars', 'too_few_stars', 'stars'),
  (r, s) =>
    r.last_commit_date < s.last_commit_after
      ? { reason: 'last_commit_too_old', text: `last commit on ${r.last_commit_date}, before ${s.last_commit_after}` }
      : undefined,
  (r, s) => {
    if (!r.license) return { reason: 'no_license', text: 'the repository declares no license' };
    const allowed = new Set(s.licenses.map((l) => l.toLowerCase()));
    if (r.license_spdx && allowed.has(r.license_spdx.toLowerCase())) return undefined;
    const shown = r.license_spdx && r.license_spdx !== r.license ? `${r.license} (${r.license_spdx})` : r.license;
    return { reason: 'license_not_allowed', text: `license ${shown} is not in the allow-list` };
  },
];

export function firstFailure(r: RepoRecord, s: SearchSettings): Verdict | undefined {
  for (const rule of RULES) {
    const v = rule(r, s);
    if (v) return v;
  }
  return undefined;
}
