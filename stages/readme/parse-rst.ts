import type { ParsedDoc } from './doc-model.js';
import { indentOf, isBlank, splitLines } from './doc-model.js';

/**
 * reStructuredText, the parts setup instructions use (no JS library parses it with positions):
 * section titles (underlined, or over- and underlined; levels in order of first appearance),
 * `.. code-block::` / `.. code::` / `.. sourcecode::` / `.. prompt::` directives with their
 * options, `::` literal blocks (after a paragraph ending in `::` or a lone `::`), the language
 * `.. highlight::` sets for later literal blocks, and ``inline literals``.
 */

const ADORNMENT = /^([=\-`:'"~^_*+#<>.])\1+\s*$/;
const CODE_DIRECTIVE = /^(\s*)\.\.\s+(code-block|code|sourcecode|prompt)::[ \t]*(\S*)/i;
const HIGHLIGHT = /^\s*\.\.\s+highlight::\s*(\S+)/i;
const ANY_DIRECTIVE = /^\s*\.\.\s+[\w:-]+::/;
const OPTION = /^\s+:[\w-]+:/;

export function parseRst(text: string): ParsedDoc {
  const lines = splitLines(text);
  const out: ParsedDoc = { headings: [], blocks: [], inline: [] };
  const styles: string[] = [];
  let highlight = '';
  const inBlock = new Set<number>(); // 0-based lines that are block content (no inline literals there)

  const levelOf = (style: string): number => {
    if (!styles.includes(style)) styles.push(style);
    return styles.indexOf(style) + 1;
  };

  /** Content of an indented body: lines after `from` indented more than `parentIndent`. */
  const body = (from: number, parentIndent: number): { first: number; last: number } | undefined => {
    let i = from;
    while (i < lines.length && isBlank(lines[i])) i++;
    if (i >= lines.length || indentOf(lines[i]!) <= parentIndent) return undefined;
    const first = i;
    let last = i;
    for (; i < lines.length; i++) {
      if (isBlank(lines[i])) continue;
      if (indentOf(lines[i]!) <= parentIndent) break;
      last = i;
    }
    return { first, last };
  };

  const dedent = (first: number, last: number): string => {
    const slice = lines.slice(first, last + 1);
    const min = Math.min(...slice.filter((l) => !isBlank(l)).map(indentOf));
    return slice.map((l) => (isBlank(l) ? '' : l.slice(min))).join('\n');
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // Section titles: `Title` + underline, or overline + `Title` + underline.
    const next = lines[i + 1];
    const prev = lines[i - 1];
    const over = prev !== undefined && next !== undefined && ADORNMENT.test(prev) && ADORNMENT.test(next) && prev.trim()[0] === next.trim()[0];
    // An overlined title may be inset; an underlined one starts in column 0 and is no longer than its underline.
    if (!isBlank(line) && !ADORNMENT.test(line) && next !== undefined && ADORNMENT.test(next) && (over || (indentOf(line) === 0 && next.trimEnd().length >= line.trimEnd().length))) {
      out.headings.push({ title: line.trim(), level: levelOf(`${over ? 'o' : 'u'}${next.trim()[0]}`), line: i + 1 });
      i++;
      continue;
    }
    const hl = HIGHLIGHT.exec(line);
    if (hl) {
      highlight = hl[1]!.toLowerCase();
      continue;
    }
    const dir = CODE_DIRECTIVE.exec(line);
    if (dir) {
      const indent = dir[1]!.length;
      const name = dir[2]!.toLowerCase();
      let j = i + 1;
      while (j < lines.length && OPTION.test(lines[j]!) && indentOf(lines[j]!) > indent) j++;
      const content = body(j, indent);
      // `.. prompt:: bash $` names the language first.
      const tag = dir[3] ?? '';
      if (content) {
        for (let k = i; k <= content.last; k++) inBlock.add(k);
        out.blocks.push({
          kind: name === 'prompt' ? 'prompt' : 'directive',
          tag,
          lang: tag.toLowerCase(),
          start_line: i + 1,
          end_line: content.last + 1,
          code_start_line: content.first + 1,
          code_end_line: content.last + 1,
          code: dedent(content.first, content.last),
        });
        i = content.last;
      }
      continue;
    }
    // A literal block follows a paragraph that ends in `::` (a directive's `::` does not count).
    if (!isBlank(line) && line.trimEnd().endsWith('::') && !ANY_DIRECTIVE.test(line)) {
      const paraIndent = paragraphIndent(lines, i);
      if (isBlank(lines[i + 1])) {
        const content = body(i + 1, paraIndent);
        if (content) {
          for (let k = content.first; k <= content.last; k++) inBlock.add(k);
          out.blocks.push({
            kind: 'literal',
            tag: '',
            lang: highlight,
            start_line: content.first + 1,
            end_line: content.last + 1,
            code_start_line: content.first + 1,
            code_end_line: content.last + 1,
            code: dedent(content.first, content.last),
          });
          i = content.last;
        }
      }
      continue;
    }
  }

  lines.forEach((line, i) => {
    if (inBlock.has(i)) return;
    for (const m of line.matchAll(/``([^`]+?)``/g)) {
      out.inline.push({ line: i + 1, column: m.index + 2, code: m[1]! });
    }
  });
  return out;
}

/** Indentation of the paragraph that line `i` ends: its first line's. */
function paragraphIndent(lines: string[], i: number): number {
  let j = i;
  while (j > 0 && !isBlank(lines[j - 1]) && indentOf(lines[j - 1]!) === indentOf(lines[i]!)) j--;
  return indentOf(lines[j]!);
}
