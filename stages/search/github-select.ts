import type { SearchSettings } from '../../pipeline/config/schema.js';
import { SetupError } from '../../pipeline/errors.js';
import { githubClientFor } from '../../pipeline/github/client.js';
import { crawlDirPath } from '../../pipeline/github/crawl-journal.js';
import { GitHubAuthError, GitHubError, GitHubRateLimitError } from '../../pipeline/github/errors.js';
import { timestampText } from '../../pipeline/runner/cells.js';
import { accept, fail, reject, type Cells, type Outcome, type StageContext } from '../../pipeline/stage.js';
import { firstFailure } from './criteria.js';
import { contributorCount } from './github-contributors.js';
import { parseGitHubNode, type GitHubItem } from './github-record.js';
import type { RepoRecord } from './seart-record.js';

/**
 * The decision for one crawled candidate: EnvBench's rules of criteria.ts, unchanged, in two
 * steps so that contributors (one REST request each) are asked only for finalists:
 *   1. every rule with the contributor count taken as unlimited: the first failure rejects;
 *   2. a finalist's contributor count is asked, and the rules run again with it.
 * Reason codes are the SEART source's. One difference, by design: a repository that fails the
 * contributor rule AND a later rule (stars, last commit, license) is charged with the later
 * one, because its contributors are never asked.
 * The decontamination knobs created_after / pushed_after are search qualifiers; a candidate
 * that GitHub returned outside them anyway is rejected `created_before_cutoff` /
 * `pushed_before_cutoff`.
 */
export async function decideGitHub(item: GitHubItem, s: SearchSettings, ctx: StageContext): Promise<Outcome> {
  const origin: Cells = { source: 'github', crawled_at: crawledAtCell(item.crawled_at) };
  const parsed = parseGitHubNode(item.node ?? {});
  if (!parsed.ok) return fail('malformed_row', `GitHub answer for ${item.repository}: ${parsed.problems.join('; ')}`, origin);
  const rec = parsed.record;
  const cells = (r: RepoRecord, contributors: number | null): Cells => ({
    ...r,
    // An empty repository has no last commit: no date rather than an empty one.
    last_commit_date: r.last_commit_date || null,
    last_commit_raw: r.last_commit_raw || null,
    contributors,
    github_id: parsed.githubId,
    ...origin,
  });

  const before = firstFailure(rec, s) ?? decontamination(rec, s);
  if (before) return reject(before.reason, before.text, cells(rec, null));

  let counted;
  try {
    const client = githubClientFor(ctx.config.config.github, ctx.log);
    counted = await contributorCount(client, crawlDirPath(ctx.cacheDir, item.__crawl), rec.repository, rec.revision, ctx.signal);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    // Quota or credentials are gone for every item alike: stop the run (rerun resumes).
    if (err instanceof GitHubRateLimitError || err instanceof GitHubAuthError) throw new SetupError(err.message);
    if (err instanceof GitHubError) {
      return fail(err.status === 404 ? 'repository_gone' : 'github_error', err.message, cells(rec, null));
    }
    throw err;
  }
  if ('tooLarge' in counted) {
    // GitHub will not count them: a history that large has far more than any threshold.
    return accept(cells(rec, null));
  }
  const full: RepoRecord = { ...rec, contributors: counted.count };
  const after = firstFailure(full, s);
  return after ? reject(after.reason, after.text, cells(full, counted.count)) : accept(cells(full, counted.count));
}

function decontamination(r: RepoRecord, s: SearchSettings): { reason: string; text: string } | undefined {
  if (s.created_after && r.created_date && r.created_date < s.created_after) {
    return { reason: 'created_before_cutoff', text: `created on ${r.created_date}, before created_after ${s.created_after}` };
  }
  if (s.pushed_after && r.pushed_date && r.pushed_date < s.pushed_after) {
    return { reason: 'pushed_before_cutoff', text: `last pushed on ${r.pushed_date}, before pushed_after ${s.pushed_after}` };
  }
  return undefined;
}

function crawledAtCell(iso: string): string | null {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : timestampText(new Date(t));
}
