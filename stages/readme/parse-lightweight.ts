import type { ParsedDoc } from './doc-model.js';
import { indentOf, isBlank, splitLines } from './doc-model.js';

/**
 * AsciiDoc, Org and plain-text READMEs: the few constructs that carry setup commands.
 *  - AsciiDoc: `= Title` headings, `[source,bash]` + `----` listing blocks (and bare `----` or
 *    `....` blocks), `` `inline` `` code.
 *  - Org: `* Heading`, `#+BEGIN_SRC sh` … `#+END_SRC` and `#+BEGIN_EXAMPLE` blocks, `~code~`/`=code=`.
 *  - Text: setext-style headings (a line underlined with = or -) and indented blocks after a blank line.
 */

export function parseAsciidoc(text: string): ParsedDoc {
  const lines = splitLines(text);
  const out: ParsedDoc = { headings: [], blocks: [], inline: [] };
  const inBlock = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const h = /^(={1,6})\s+(\S.*)$/.exec(line);
    if (h) {
      out.headings.push({ title: h[2]!.trim(), level: h[1]!.length, line: i + 1 });
      continue;
    }
    const delim = /^(-{4,}|\.{4,})\s*$/.exec(line);
    if (!delim) continue;
    const attr = /^\[(?:source|listing)?\s*(?:,\s*([\w+-]+))?[^\]]*\]\s*$/.exec(lines[i - 1] ?? '');
    const close = lines.findIndex((l, k) => k > i && l.trimEnd() === delim[1]);
    if (close === -1) continue;
    const tag = attr?.[1] ?? '';
    const start = attr ? i - 1 : i;
    for (let k = start; k <= close; k++) inBlock.add(k);
    out.blocks.push({
      kind: 'listing',
      tag,
      lang: tag.toLowerCase(),
      start_line: start + 1,
      end_line: close + 1,
      code_start_line: i + 2,
      code_end_line: close,
      code: lines.slice(i + 1, close).join('\n'),
    });
    i = close;
  }
  inlineMatches(lines, inBlock, /`([^`\n]+)`/g, 1, out);
  return out;
}

export function parseOrg(text: string): ParsedDoc {
  const lines = splitLines(text);
  const out: ParsedDoc = { headings: [], blocks: [], inline: [] };
  const inBlock = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const h = /^(\*+)\s+(\S.*)$/.exec(line);
    if (h) {
      out.headings.push({ title: h[2]!.trim(), level: h[1]!.length, line: i + 1 });
      continue;
    }
    const begin = /^\s*#\+begin_(src|example)(?:\s+(\S+))?/i.exec(line);
    if (!begin) continue;
    const kind = begin[1]!.toLowerCase();
    const end = new RegExp(`^\\s*#\\+end_${kind}\\s*$`, 'i');
    const close = lines.findIndex((l, k) => k > i && end.test(l));
    if (close === -1) continue;
    const tag = kind === 'src' ? (begin[2] ?? '') : '';
    for (let k = i; k <= close; k++) inBlock.add(k);
    const body = lines.slice(i + 1, close);
    const min = Math.min(...body.filter((l) => !isBlank(l)).map(indentOf), Infinity);
    out.blocks.push({
      kind: 'src',
      tag,
      lang: tag.toLowerCase(),
      start_line: i + 1,
      end_line: close + 1,
      code_start_line: i + 2,
      code_end_line: close,
      code: body.map((l) => (isBlank(l) ? '' : l.slice(Number.isFinite(min) ? min : 0))).join('\n'),
    });
    i = close;
  }
  inlineMatches(lines, inBlock, /[~=]([^~=\s][^~=\n]*?)[~=]/g, 1, out);
  return out;
}

export function parseText(text: string): ParsedDoc {
  const lines = splitLines(text);
  const out: ParsedDoc = { headings: [], blocks: [], inline: [] };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const next = lines[i + 1];
    if (!isBlank(line) && next !== undefined && /^(=+|-+)\s*$/.test(next) && next.trim().length >= 3) {
      out.headings.push({ title: line.trim(), level: next.trim()[0] === '=' ? 1 : 2, line: i + 1 });
      i++;
      continue;
    }
    if (isBlank(lines[i - 1]) && i > 0 && !isBlank(line) && indentOf(line) >= 4) {
      let last = i;
      for (let k = i; k < lines.length; k++) {
        if (isBlank(lines[k])) continue;
        if (indentOf(lines[k]!) < 4) break;
        last = k;
      }
      const body = lines.slice(i, last + 1);
      const min = Math.min(...body.filter((l) => !isBlank(l)).map(indentOf));
      out.blocks.push({ kind: 'indented', tag: '', lang: '', start_line: i + 1, end_line: last + 1, code_start_line: i + 1, code_end_line: last + 1, code: body.map((l) => (isBlank(l) ? '' : l.slice(min))).join('\n') });
      i = last;
    }
  }
  return out;
}

function inlineMatches(lines: string[], skip: Set<number>, re: RegExp, group: number, out: ParsedDoc): void {
  lines.forEach((line, i) => {
    if (skip.has(i)) return;
    for (const m of line.matchAll(re)) {
      const code = m[group]!;
      out.inline.push({ line: i + 1, column: m.index + m[0].indexOf(code), code });
    }
  });
}
