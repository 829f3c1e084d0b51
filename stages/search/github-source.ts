import type { SearchSettings } from '../../pipeline/config/schema.js';
import { SetupError } from '../../pipeline/errors.js';
import { githubClientFor } from '../../pipeline/github/client.js';
import { GitHubAuthError, GitHubError } from '../../pipeline/github/errors.js';
import { crawlRepositories, type CrawlSpec } from '../../pipeline/github/search-crawl.js';
import { resolveGitHub } from '../../pipeline/github/settings.js';
import type { StageContext } from '../../pipeline/stage.js';
import { REPOSITORY_FIELDS, type GitHubItem } from './github-record.js';

/**
 * The GitHub side of the `candidates` source: the search qualifiers that EnvBench's criteria
 * allow GitHub to apply (language, stars, forks, archived, pushed date, creation range), one
 * query family per language, crawled completely (pipeline/github/search-crawl.ts). What search
 * cannot express (commits, issues, contributors, license, last commit) is decided per
 * candidate by the stage, with the same rules as a SEART-GHS export.
 */

/** The day GitHub opened: the default start of date slicing. */
export const GITHUB_EPOCH = '2008-01-01';

const qualifierValue = (v: string) => (/[\s"]/.test(v) ? `"${v.replace(/"/g, '')}"` : v);

export function searchFamilies(s: SearchSettings): string[] {
  const pushed = [s.pushed_after, s.last_commit_after].filter((d): d is string => !!d).sort().at(-1);
  const common = [
    s.min_stars > 0 ? `stars:>=${s.min_stars}` : '',
    // Search leaves forks out unless asked; `fork:true` includes them.
    s.exclude_forks ? 'fork:false' : 'fork:true',
    s.exclude_archived ? 'archived:false' : '',
    // A last commit on/after the cutoff implies a push on/after it: a safe pre-filter.
    pushed ? `pushed:>=${pushed}` : '',
    ...(s.qualifiers ?? []),
  ].filter(Boolean);
  return s.languages.map((l) => [`language:${qualifierValue(l)}`, ...common].join(' '));
}

export function crawlSpec(s: SearchSettings, apiUrl: string): CrawlSpec {
  return {
    apiUrl,
    families: searchFamilies(s),
    createdFrom: s.created_after ?? GITHUB_EPOCH,
    createdTo: s.created_before,
    maxResults: s.max_results ?? 0,
    snapshot: s.snapshot ?? '',
    nodeFields: REPOSITORY_FIELDS,
  };
}

export async function readGitHubCandidates(s: SearchSettings, ctx: StageContext): Promise<GitHubItem[]> {
  const gh = ctx.config.config.github;
  let result;
  try {
    const client = githubClientFor(gh, ctx.log);
    result = await crawlRepositories(crawlSpec(s, resolveGitHub(gh).apiUrl), {
      client,
      cacheDir: ctx.cacheDir,
      pageSize: gh.page_size,
      countBatch: gh.count_batch,
      log: ctx.log,
      signal: ctx.signal,
    });
  } catch (err) {
    if (ctx.signal.aborted) throw ctx.signal.reason ?? err;
    if (err instanceof GitHubAuthError) throw new SetupError(`GitHub: ${err.message}`);
    if (err instanceof GitHubError) {
      throw new SetupError(`GitHub crawl stopped: ${err.message}. What was answered is checkpointed: rerun the same command to resume`);
    }
    throw err;
  }
  ctx.log.info(
    `github crawl ${result.key}: ${result.nodes.length} candidates` +
      (result.requests.count + result.requests.fetch > 0 ? ` (${result.requests.count} count + ${result.requests.fetch} page requests in this run)` : '') +
      (result.truncated ? `, stopped at search.max_results` : ''),
  );
  return result.nodes.map(({ node, crawledAt }) => ({
    __source: 'github',
    __crawl: result.key,
    repository: String(node.nameWithOwner),
    crawled_at: crawledAt,
    node,
  }));
}
