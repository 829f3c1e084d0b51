import { extname } from 'node:path';
import type { CodeBlock, DocFormat, Heading, ParsedDoc, SetupSection, ShellStep } from './doc-model.js';
import { splitLines } from './doc-model.js';
import { parseMarkdown } from './parse-markdown.js';
import { parseRst } from './parse-rst.js';
import { parseAsciidoc, parseOrg, parseText } from './parse-lightweight.js';
import { blockSteps, inlineStep, isSetupCategory, isShellBlock } from './shell-steps.js';

/** Section titles about installing or setting up (EnConda-Bench's "setup steps" live there). */
export const SETUP_HEADING =
  /\b(install(?:ation|ing)?|set ?up|setting up|getting started|get started|quick ?start|build(?:ing)?|requirements?|prerequisites?|dependenc(?:y|ies)|development|developing|environment|from source|compil(?:e|ing)|configuration|local(?:ly)? run|running locally|how to (?:run|build|install))\b/i;

export interface DocExtract {
  path: string;
  format: DocFormat;
  lines: number;
  headings: Heading[];
  setup_sections: SetupSection[];
  blocks: CodeBlock[];
  steps: ShellStep[];
}

export function formatOf(path: string): DocFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.md' || ext === '.markdown') return 'markdown';
  if (ext === '.rst' || ext === '.rest') return 'rst';
  if (ext === '.adoc' || ext === '.asciidoc') return 'asciidoc';
  if (ext === '.org') return 'org';
  return 'text';
}

export function parseDoc(format: DocFormat, text: string): ParsedDoc {
  switch (format) {
    case 'markdown':
      return parseMarkdown(text);
    case 'rst':
      return parseRst(text);
    case 'asciidoc':
      return parseAsciidoc(text);
    case 'org':
      return parseOrg(text);
    case 'text':
      return parseText(text);
  }
}

/** Sections, code blocks and shell steps of one document; `blockOffset` numbers blocks across documents. */
export function extractDoc(path: string, text: string, blockOffset = 0): DocExtract {
  const format = formatOf(path);
  const lines = splitLines(text);
  const parsed = parseDoc(format, text);
  const headings: Heading[] = parsed.headings.map((h, i) => {
    const next = parsed.headings.slice(i + 1).find((n) => n.level <= h.level);
    return { ...h, start_line: h.line, end_line: next ? next.line - 1 : lines.length };
  });
  // Adornment lines above an rst title belong to the next section, not the previous one.
  const enclosing = (line: number) => headings.filter((h) => h.start_line <= line && line <= h.end_line);
  const sectionOf = (line: number) => enclosing(line).at(-1)?.title ?? '';
  const inSetup = (line: number) => enclosing(line).some((h) => SETUP_HEADING.test(h.title));

  const blocks: CodeBlock[] = parsed.blocks.map((b) => {
    const full = { ...b, doc: path, section: sectionOf(b.start_line), in_setup_section: inSetup(b.start_line), shell: false };
    return { ...full, shell: isShellBlock(full) };
  });
  const steps: Omit<ShellStep, 'index'>[] = [];
  blocks.forEach((b, i) => {
    if (b.shell) steps.push(...blockSteps(b, blockOffset + i, lines));
  });
  for (const code of parsed.inline) {
    const s = inlineStep(code, path, sectionOf(code.line), inSetup(code.line));
    if (s) steps.push(s);
  }
  steps.sort((a, b) => a.line - b.line || a.column - b.column);
  return {
    path,
    format,
    lines: lines.length,
    headings,
    setup_sections: headings.filter((h) => SETUP_HEADING.test(h.title)).map((h) => ({ ...h, doc: path })),
    blocks,
    steps: steps.map((s, index) => ({ ...s, index })),
  };
}

export function setupSteps(doc: DocExtract): ShellStep[] {
  return doc.steps.filter((s) => isSetupCategory(s.category));
}
