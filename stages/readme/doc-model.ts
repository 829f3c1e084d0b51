/**
 * What the readme stage extracts from one setup document. Every position is a 1-based line
 * number, inclusive, in the document as stored (`doc_text`); `column` is a 0-based offset in
 * that line. Line ranges are exact so that inject can edit a step and validation can say which
 * step an error broke.
 */

export type DocFormat = 'markdown' | 'rst' | 'asciidoc' | 'org' | 'text';

export interface Heading {
  title: string;
  level: number;
  /** The title's line (for rst: the title text, not its adornment). */
  line: number;
  /** First and last line the section spans (adornments and title included). */
  start_line: number;
  end_line: number;
}

/** A section whose title says it is about installation or setup. */
export interface SetupSection extends Heading {
  doc: string;
}

export type BlockKind = 'fenced' | 'indented' | 'directive' | 'literal' | 'listing' | 'src' | 'prompt';

export interface CodeBlock {
  doc: string;
  kind: BlockKind;
  /** The language as written (```bash, `.. code-block:: console`), '' when untagged. */
  tag: string;
  /** Lowercased tag, or the highlight language an rst literal block inherits. */
  lang: string;
  /** First and last line of the whole block (fences and directive lines included). */
  start_line: number;
  end_line: number;
  /** Lines of the block's content; code_end_line < code_start_line for an empty block. */
  code_start_line: number;
  code_end_line: number;
  /** The content, dedented as the format defines it. */
  code: string;
  /** Title of the innermost section the block is in ('' before the first heading). */
  section: string;
  in_setup_section: boolean;
  /** A shell block: tagged with a shell language, or untagged with shell commands in it. */
  shell: boolean;
}

export interface InlineCode {
  line: number;
  /** 0-based offset of the code (without its delimiters) in the line. */
  column: number;
  code: string;
}

/** What a format parser yields; sections and shell steps are derived from it. */
export interface ParsedDoc {
  headings: Omit<Heading, 'start_line' | 'end_line'>[];
  blocks: Omit<CodeBlock, 'doc' | 'section' | 'in_setup_section' | 'shell'>[];
  inline: InlineCode[];
}

export type StepCategory = 'install' | 'environment' | 'build' | 'fetch' | 'run' | 'other';

/** One shell command of the document: a line (or backslash-continued lines) of a shell block, or inline code. */
export interface ShellStep {
  doc: string;
  /** 0-based index of the step in its document. */
  index: number;
  line: number;
  end_line: number;
  /** 0-based offset of `text` in `line` (after indentation and any prompt). */
  column: number;
  /** The command as written (continuation lines joined with their newlines). */
  text: string;
  /** The program run: `pip`, `./gradlew`, `mvn`, `python -m pip` ... */
  program: string;
  category: StepCategory;
  source: 'block' | 'inline';
  /** Index into the row's shell_blocks for block steps; -1 for inline code. */
  block: number;
  section: string;
  in_setup_section: boolean;
}

export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

export function isBlank(line: string | undefined): boolean {
  return line === undefined || line.trim() === '';
}
