import { createReadStream, existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, type Transform } from 'node:stream';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { SetupError, messageOf } from '../../pipeline/errors.js';
import type { Logger } from '../../pipeline/log/logger.js';
import { issueKey, withSiblings, type IssueComment, type IssueItem } from './issue-item.js';
import { anyMatch, type CompiledEcosystem } from './match-text.js';

/**
 * GH Archive (gharchive.org) hourly files: one JSON event per line, gzip. Only IssuesEvent and
 * IssueCommentEvent matter. The files are streamed (a real hour holds ~200k events) and only
 * issues with a text that matches some ecosystem's regex are kept whole; for every other issue
 * only whether it was seen closed is remembered, so a closing event anywhere in the window counts.
 *
 * What an archive window gives is what happened in it: the comments of an issue posted in the
 * window, and its body as of its latest event. Files are read in name order (hourly names sort by time).
 */
export interface ArchiveStats {
  files: number;
  lines: number;
  malformed: number;
  issueEvents: number;
}

interface IssueState {
  item: IssueItem;
  comments: Map<number, IssueComment>;
  /** The newest event seen (its issue snapshot wins for body, title, state). */
  seenAt: string;
  matched: boolean;
}

type Json = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' ? v : Number(v));

/** Expand each entry (a file, a folder of hourly files, an http(s) URL) into what to read, in order. */
export async function archiveInputs(entries: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const e of entries) {
    if (/^https?:\/\//i.test(e)) {
      out.push(e);
      continue;
    }
    if (!existsSync(e)) throw new SetupError(`conflicts.gharchive: ${e} does not exist (a GH Archive hourly file, a folder of them, or an http(s) URL)`);
    if (statSync(e).isDirectory()) {
      const files = (await readdir(e)).filter((f) => /\.json(\.gz)?$/.test(f)).sort();
      if (files.length === 0) throw new SetupError(`conflicts.gharchive: ${e} holds no *.json.gz or *.json files`);
      out.push(...files.map((f) => join(e, f)));
    } else out.push(e);
  }
  return out;
}

async function openLines(input: string, signal?: AbortSignal): Promise<AsyncIterable<string>> {
  let raw: Readable;
  if (/^https?:\/\//i.test(input)) {
    let res: Response;
    try {
      res = await fetch(input, { signal });
    } catch (err) {
      throw new SetupError(`conflicts.gharchive: cannot fetch ${input}: ${messageOf(err)}`);
    }
    if (!res.ok || !res.body) throw new SetupError(`conflicts.gharchive: ${input} answered HTTP ${res.status}`);
    raw = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream);
  } else raw = createReadStream(input);
  // Gzip or plain JSON lines, decided by the content (the magic bytes), not the name.
  const stream = await sniffGzip(raw);
  return createInterface({ input: stream, crlfDelay: Infinity });
}

async function sniffGzip(raw: Readable): Promise<Readable> {
  const it = raw[Symbol.asyncIterator]();
  const first = await it.next();
  const head: Buffer = first.done ? Buffer.alloc(0) : Buffer.from(first.value as Buffer);
  const rest = Readable.from(
    (async function* () {
      if (head.length > 0) yield head;
      for (;;) {
        const n = await it.next();
        if (n.done) return;
        yield n.value as Buffer;
      }
    })(),
  );
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const gunzip: Transform = createGunzip();
    rest.on('error', (e) => gunzip.destroy(e));
    return rest.pipe(gunzip);
  }
  return rest;
}

export async function readArchive(
  inputs: readonly string[],
  ecosystems: readonly CompiledEcosystem[],
  log: Logger,
  signal?: AbortSignal,
): Promise<{ items: IssueItem[]; stats: ArchiveStats }> {
  const stats: ArchiveStats = { files: 0, lines: 0, malformed: 0, issueEvents: 0 };
  const issues = new Map<string, IssueState>();
  const closed = new Set<string>();
  for (const input of await archiveInputs(inputs)) {
    signal?.throwIfAborted();
    stats.files++;
    let lineNo = 0;
    try {
      for await (const line of await openLines(input, signal)) {
        lineNo++;
        if (!line.trim()) continue;
        stats.lines++;
        let ev: Json;
        try {
          ev = JSON.parse(line) as Json;
        } catch {
          stats.malformed++;
          continue;
        }
        if (ev.type !== 'IssuesEvent' && ev.type !== 'IssueCommentEvent') continue;
        const payload = (ev.payload ?? {}) as Json;
        const issue = payload.issue as Json | undefined;
        const repo = str((ev.repo as Json | undefined)?.name);
        if (!issue || !repo || !Number.isInteger(num(issue.number))) {
          stats.malformed++;
          continue;
        }
        stats.issueEvents++;
        const key = issueKey(repo, num(issue.number));
        if (issue.state === 'closed' || payload.action === 'closed') closed.add(key);
        const comment = ev.type === 'IssueCommentEvent' ? (payload.comment as Json | undefined) : undefined;
        const body = str(issue.body);
        const commentBody = str(comment?.body);
        let st = issues.get(key);
        if (!st && !anyMatch(body, ecosystems) && !anyMatch(commentBody, ecosystems)) continue;
        const at = str(ev.created_at);
        if (!st) {
          st = { item: toItem(repo, issue), comments: new Map(), seenAt: at, matched: true };
          issues.set(key, st);
        } else if (at >= st.seenAt) {
          // The newest snapshot of the issue wins (an edited body, a new title).
          const fresh = toItem(repo, issue);
          st.item = { ...fresh, comments_count: Math.max(fresh.comments_count, st.item.comments_count) };
          st.seenAt = at;
        }
        if (comment && Number.isInteger(num(comment.id))) {
          if (payload.action === 'deleted') st.comments.delete(num(comment.id));
          else {
            st.comments.set(num(comment.id), {
              id: num(comment.id),
              url: str(comment.html_url),
              created_at: str(comment.created_at) || at,
              body: commentBody,
            });
          }
        }
      }
    } catch (err) {
      if (signal?.aborted) throw err;
      if (err instanceof SetupError) throw err;
      throw new SetupError(`conflicts.gharchive: cannot read ${input} (line ${lineNo}): ${messageOf(err)}`);
    }
  }
  if (stats.malformed > 0) log.warn(`conflicts: ${stats.malformed} malformed GH Archive lines skipped`);
  const items: IssueItem[] = [...issues.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, st]) => ({
      ...st.item,
      closed: st.item.closed || closed.has(key),
      comments: [...st.comments.values()].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id)),
    }));
  return { items: withSiblings(items), stats };
}

function toItem(repo: string, issue: Json): IssueItem {
  return {
    source: 'gharchive',
    repo,
    issue_number: num(issue.number),
    issue_id: num(issue.id),
    issue_url: str(issue.html_url) || `https://github.com/${repo}/issues/${num(issue.number)}`,
    title: str(issue.title),
    created_at: str(issue.created_at),
    closed: issue.state === 'closed',
    is_pull_request: issue.pull_request !== undefined && issue.pull_request !== null,
    body: str(issue.body),
    comments: [],
    comments_count: Number.isInteger(num(issue.comments)) ? num(issue.comments) : 0,
    siblings: [],
    found_by: [],
  };
}
