/**
 * A closed issue as the `conflicts` stage reads it, whichever source found it: the issue, its
 * body and (GH Archive) the comments the archive holds, or (GitHub search) none yet: the stage
 * fetches every comment through the API.
 */
export interface IssueComment {
  id: number;
  url: string;
  created_at: string;
  body: string;
}

export interface IssueItem extends Record<string, unknown> {
  source: 'gharchive' | 'github';
  /** owner/name */
  repo: string;
  issue_number: number;
  /** GitHub's numeric id of the issue (stands in for comment_id when the body matches). */
  issue_id: number;
  issue_url: string;
  title: string;
  created_at: string;
  closed: boolean;
  is_pull_request: boolean;
  body: string;
  /** null: not known yet, fetch them (GitHub search); GH Archive gives those the archive holds. */
  comments: IssueComment[] | null;
  comments_count: number;
  /** Other issues of the same repository this source found: `<number>@<created_at>` (for duplicates in locate). */
  siblings: string[];
  /** Ecosystems whose search found it (GitHub); empty for GH Archive. */
  found_by: string[];
}

export const issueKey = (repo: string, number: number) => `${repo}#${number}`;

/** `owner/name` from an API URL such as https://api.github.com/repos/owner/name. */
export function repoFromApiUrl(url: string): string | undefined {
  const m = /\/repos\/([^/]+)\/([^/?#]+)\/?$/.exec(url);
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/**
 * Fill `siblings`: per repository, the other issues of the list that can become conflicts
 * (closed issues, not pull requests), so locate can tell an issue whose base commit an earlier
 * issue already stands for.
 */
export function withSiblings(items: IssueItem[]): IssueItem[] {
  const byRepo = new Map<string, IssueItem[]>();
  for (const it of items) {
    if (!it.closed || it.is_pull_request) continue;
    const k = it.repo.toLowerCase();
    byRepo.set(k, [...(byRepo.get(k) ?? []), it]);
  }
  for (const group of byRepo.values()) {
    for (const it of group) {
      it.siblings = group
        .filter((o) => o !== it)
        .map((o) => `${o.issue_number}@${o.created_at}`)
        .sort();
    }
  }
  return items;
}
