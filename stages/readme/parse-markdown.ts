import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Nodes, Parents } from 'mdast';
import type { ParsedDoc } from './doc-model.js';
import { splitLines } from './doc-model.js';

/**
 * Markdown through micromark (CommonMark): headings, fenced and indented code blocks and inline
 * code, with the positions the parser reports. Code inside lists and block quotes keeps its
 * real line numbers; its content is dedented as CommonMark defines it.
 */
export function parseMarkdown(text: string): ParsedDoc {
  const tree = fromMarkdown(text);
  const lines = splitLines(text);
  const out: ParsedDoc = { headings: [], blocks: [], inline: [] };

  const visit = (node: Nodes): void => {
    const pos = node.position;
    if (node.type === 'heading' && pos) {
      out.headings.push({ title: plainText(node).trim(), level: node.depth, line: pos.start.line });
    } else if (node.type === 'code' && pos) {
      const first = lines[pos.start.line - 1] ?? '';
      const fenced = /^\s*(?:>\s*)*(?:[-*+]\s+|\d+[.)]\s+)?(`{3,}|~{3,})/.test(first);
      const contentLines = node.value === '' ? 0 : node.value.split('\n').length;
      const codeStart = fenced ? pos.start.line + 1 : pos.start.line;
      const tag = node.lang ?? '';
      out.blocks.push({
        kind: fenced ? 'fenced' : 'indented',
        tag,
        lang: tag.toLowerCase(),
        start_line: pos.start.line,
        end_line: Math.min(pos.end.line, lines.length),
        code_start_line: codeStart,
        code_end_line: codeStart + contentLines - 1,
        code: node.value,
      });
    } else if (node.type === 'inlineCode' && pos && pos.start.line === pos.end.line) {
      const line = lines[pos.start.line - 1] ?? '';
      // The node's column points at the opening backticks; the code follows them (and a space CommonMark strips).
      const column = line.indexOf(node.value, pos.start.column - 1);
      if (column !== -1 && node.value.trim() !== '') out.inline.push({ line: pos.start.line, column, code: node.value });
    }
    if ('children' in node) for (const child of (node as Parents).children) visit(child as Nodes);
  };
  visit(tree);
  return out;
}

function plainText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node as Parents).children.map((c) => plainText(c as Nodes)).join('');
  return '';
}
