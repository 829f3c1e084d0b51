import type { ConflictsSettings } from '../../pipeline/config/conflict-sections.js';
import { ConfigError, SetupError } from '../../pipeline/errors.js';
import { githubClientFor } from '../../pipeline/github/client.js';
import { GitHubError } from '../../pipeline/github/errors.js';
import { accept, fail, reject, type Columns, type Outcome, type Source, type Stage, type StageContext } from '../../pipeline/stage.js';
import { readArchive } from './gharchive-source.js';
import { fetchComments, searchClosedIssues } from './github-issues.js';
import { issueKey, type IssueComment, type IssueItem } from './issue-item.js';
import { compileEcosystems, matchingLines } from './match-text.js';

/**
 * conflicts: SetupBench's mining (appendix C.1). Each closed issue of the source is scanned —
 * its body and every comment — with each ecosystem's case-insensitive regex; every matching
 * text becomes one row with the matching lines as its snippet. An issue that matches nothing
 * (or is a pull request, or still open) is one rejected row.
 */

export function conflictsSettings(ctx: StageContext): ConflictsSettings {
  const s = ctx.config.config.conflicts;
  if (!s) throw new ConfigError(`${ctx.config.file}: [conflicts] section is missing (it names the source: GH Archive files or the issue search)`);
  return s;
}

/** The input of `conflicts`: closed issues from GH Archive hourly files or from GitHub's issue search. */
export const conflictIssuesSource: Source<IssueItem> = {
  name: 'conflict_issues',
  description: 'issues that may report a dependency conflict: GH Archive hourly files (conflicts.source = "gharchive") or the GitHub issue search ("github")',
  async read(ctx) {
    const s = conflictsSettings(ctx);
    const ecosystems = compileEcosystems(s);
    if (s.source === 'gharchive') {
      const { items, stats } = await readArchive(s.gharchive, ecosystems, ctx.log, ctx.signal);
      ctx.log.info(`conflicts: GH Archive: ${stats.files} files, ${stats.lines} events (${stats.issueEvents} issue events): ${items.length} issues with a matching text`);
      return items;
    }
    try {
      const r = await searchClosedIssues({
        client: githubClientFor(ctx.config.config.github, ctx.log),
        ecosystems,
        maxPerEcosystem: s.max_issues_per_ecosystem,
        createdAfter: s.created_after,
        createdBefore: s.created_before ?? new Date().toISOString().slice(0, 10),
        log: ctx.log,
        signal: ctx.signal,
      });
      ctx.log.info(`conflicts: issue search: ${r.items.length} issues in ${r.requests} requests`);
      return r.items;
    } catch (err) {
      if (ctx.signal.aborted) throw ctx.signal.reason ?? err;
      if (err instanceof GitHubError) throw new SetupError(`GitHub issue search stopped: ${err.message}`);
      throw err;
    }
  },
};

const columns = {
  ecosystem: 'VARCHAR',
  repo: 'VARCHAR',
  issue_number: 'BIGINT',
  issue_url: 'VARCHAR',
  issue_title: 'VARCHAR',
  /** ISO 8601, UTC: when the issue was opened (locate's base commit is the newest at or before it). */
  issue_created_at: 'VARCHAR',
  /** The matching comment's id; for a match in the issue body, the issue's id (matched_in = body). */
  comment_id: 'BIGINT',
  comment_url: 'VARCHAR',
  matched_in: 'VARCHAR',
  snippet: 'VARCHAR',
  snippet_lines: 'INTEGER',
  matched_at: 'VARCHAR',
  /** 1 for the issue's first match (body first, then comments by time; ecosystems in config order). */
  match_rank: 'INTEGER',
  /** Keys of the issue's matches ranked before this one (`<repo>#<n>/<ecosystem>/<id>`): locate keeps one task per issue. */
  earlier_matches: 'VARCHAR[]',
  /** Other issues of the repository the source found, `<number>@<created_at>` (duplicates, in locate). */
  siblings: 'VARCHAR[]',
  source: 'VARCHAR',
  comments_scanned: 'INTEGER',
} satisfies Columns;

export const conflictsStage: Stage<IssueItem> = {
  name: 'conflicts',
  version: 1,
  description: 'find dependency-conflict errors (npm, pip, Poetry, Bundler ...) in closed issues and their comments',
  input: 'conflict_issues',
  columns,
  key: (item) => issueKey(item.repo, item.issue_number),
  async run(item, ctx): Promise<Outcome | Outcome[]> {
    const s = conflictsSettings(ctx);
    const base = { repo: item.repo, issue_number: item.issue_number, issue_url: item.issue_url, issue_title: item.title, issue_created_at: item.created_at, source: item.source };
    if (item.is_pull_request) return reject('pull_request', `#${item.issue_number} is a pull request, not an issue`, base);
    if (s.require_closed && !item.closed) return reject('not_closed', `#${item.issue_number} was not seen closed`, base);

    let comments: IssueComment[] = item.comments ?? [];
    if (item.comments === null && item.comments_count > 0) {
      try {
        comments = (await fetchComments(githubClientFor(ctx.config.config.github, ctx.log), item.repo, item.issue_number, ctx.signal)).comments;
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        if (err instanceof GitHubError && (err.status === 404 || err.status === 410)) {
          return reject('issue_unavailable', `the comments of #${item.issue_number} are gone (HTTP ${err.status})`, base);
        }
        if (err instanceof GitHubError) return fail('github_error', err.message, base);
        throw err;
      }
    }
    const texts = [
      { matched_in: 'body', id: item.issue_id, url: item.issue_url, created_at: item.created_at, body: item.body },
      ...[...comments]
        .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id))
        .map((c) => ({ matched_in: 'comment', ...c })),
    ];
    const ecosystems = compileEcosystems(s);
    const matches: { eco: string; text: (typeof texts)[number]; snippet: string; lines: number }[] = [];
    for (const text of texts) {
      for (const eco of ecosystems) {
        const m = matchingLines(text.body, eco.regex, s.max_snippet_lines);
        if (m) matches.push({ eco: eco.name, text, snippet: m.snippet, lines: m.lines });
      }
    }
    const scanned = { comments_scanned: comments.length };
    if (matches.length === 0) {
      return reject('no_match', `no ecosystem regex matches the body or the ${comments.length} comments of #${item.issue_number}`, { ...base, ...scanned });
    }
    const keyOf = (m: (typeof matches)[number]) => `${issueKey(item.repo, item.issue_number)}/${m.eco}/${m.text.id}`;
    const keys = matches.map(keyOf);
    return matches.map((m, i) =>
      accept(
        {
          ...base,
          ...scanned,
          ecosystem: m.eco,
          comment_id: m.text.id,
          comment_url: m.text.url,
          matched_in: m.text.matched_in,
          snippet: m.snippet,
          snippet_lines: m.lines,
          matched_at: m.text.created_at,
          match_rank: i + 1,
          earlier_matches: keys.slice(0, i),
          siblings: item.siblings,
        },
        keys[i],
      ),
    );
  },
};
