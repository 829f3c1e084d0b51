import type { ConflictsSettings } from '../../pipeline/config/conflict-sections.js';

/**
 * SetupBench's matching (appendix C.1): a text (the issue body or one comment) matches an
 * ecosystem when its case-insensitive regex matches; the snippet is the matching lines.
 */
export interface CompiledEcosystem {
  name: string;
  query: string;
  regex: RegExp;
}

export function compileEcosystems(s: Pick<ConflictsSettings, 'ecosystems'>): CompiledEcosystem[] {
  return Object.entries(s.ecosystems).map(([name, e]) => ({ name, query: e.query, regex: new RegExp(e.regex, 'i') }));
}

export interface Snippet {
  snippet: string;
  /** Matching lines in the text (the snippet keeps at most max of them). */
  lines: number;
}

/** The lines of `text` the regex matches, joined by newlines; undefined when it does not match at all. */
export function matchingLines(text: string, regex: RegExp, max: number): Snippet | undefined {
  const re = new RegExp(regex.source, regex.flags.replace(/[gy]/g, ''));
  const m = re.exec(text);
  if (!m) return undefined;
  const lines = text.split(/\r?\n/);
  const hits = lines.filter((l) => re.test(l)).map((l) => l.trimEnd());
  if (hits.length === 0) {
    // The match spans lines (a regex with \n): keep the lines it covers.
    const start = text.slice(0, m.index).split(/\r?\n/).length - 1;
    const span = m[0].split(/\r?\n/).length;
    const covered = lines.slice(start, start + span).map((l) => l.trimEnd());
    return { snippet: covered.slice(0, max).join('\n'), lines: covered.length };
  }
  return { snippet: hits.slice(0, max).join('\n'), lines: hits.length };
}

/** Whether any ecosystem's regex matches: the cheap pre-filter of archive sources. */
export function anyMatch(text: string, ecosystems: readonly CompiledEcosystem[]): boolean {
  return text !== '' && ecosystems.some((e) => e.regex.test(text));
}
