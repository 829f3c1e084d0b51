/**
 * Edits of a README: every injected error is one edit of a small line range, recorded with the
 * original and injected text of the whole lines and of the fragment that changed. Lines are
 * 1-based and inclusive; `line_*` count in the original, `injected_line_*` in the injected text.
 */
export interface Edit {
  line_start: number;
  line_end: number;
  injected_line_start: number;
  injected_line_end: number;
  /** The whole lines before and after the edit. */
  original: string;
  injected: string;
  /** The fragment that changed (a command, a token's command, two swapped commands). */
  original_text: string;
  injected_text: string;
}

/** A document as lines, remembering its line ending and final newline so edits round-trip bytes. */
export class LineDoc {
  readonly lines: string[];
  readonly eol: string;
  readonly finalNewline: boolean;

  constructor(text: string) {
    this.eol = text.includes('\r\n') ? '\r\n' : '\n';
    this.finalNewline = text.endsWith('\n');
    const lines = text.split(/\r?\n/);
    if (this.finalNewline) lines.pop();
    this.lines = lines;
  }

  text(lines: readonly string[] = this.lines): string {
    return lines.join(this.eol) + (this.finalNewline ? this.eol : '');
  }

  /** Lines `start..end` (1-based, inclusive) joined with `\n`. */
  region(start: number, end: number, lines: readonly string[] = this.lines): string {
    return lines.slice(start - 1, end).join('\n');
  }
}

/** Apply edits to the original; a problem when one does not match the original or two overlap. */
export function applyEdits(original: string, edits: readonly Edit[]): { ok: true; text: string } | { ok: false; problem: string } {
  const doc = new LineDoc(original);
  const sorted = [...edits].map((e, i) => ({ e, i })).sort((a, b) => a.e.line_start - b.e.line_start);
  for (let k = 0; k < sorted.length; k++) {
    const { e, i } = sorted[k]!;
    if (e.line_start < 1 || e.line_end < e.line_start || e.line_end > doc.lines.length) {
      return { ok: false, problem: `error ${i + 1}: lines ${e.line_start}-${e.line_end} are outside the README (${doc.lines.length} lines)` };
    }
    if (doc.region(e.line_start, e.line_end) !== e.original) {
      return { ok: false, problem: `error ${i + 1}: the original text of lines ${e.line_start}-${e.line_end} does not match the README` };
    }
    const next = sorted[k + 1];
    if (next && next.e.line_start <= e.line_end) return { ok: false, problem: `errors ${i + 1} and ${next.i + 1} edit overlapping lines` };
    if (e.original === e.injected) return { ok: false, problem: `error ${i + 1}: the edit changes nothing` };
  }
  const out = [...doc.lines];
  for (const { e } of [...sorted].reverse()) out.splice(e.line_start - 1, e.line_end - e.line_start + 1, ...e.injected.split('\n'));
  return { ok: true, text: doc.text(out) };
}

/** Lines that differ between two texts: removed plus added, by a longest-common-subsequence diff. */
export function changedLines(a: string, b: string): number {
  const x = new LineDoc(a).lines;
  const y = new LineDoc(b).lines;
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const xs = x.slice(head, x.length - tail);
  const ys = y.slice(head, y.length - tail);
  if (xs.length * ys.length > 25_000_000) return xs.length + ys.length; // a rewrite, not an edit
  let prev = new Uint32Array(ys.length + 1);
  for (let i = 1; i <= xs.length; i++) {
    const cur = new Uint32Array(ys.length + 1);
    for (let j = 1; j <= ys.length; j++) cur[j] = xs[i - 1] === ys[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    prev = cur;
  }
  const common = prev[ys.length]!;
  return xs.length - common + (ys.length - common);
}

/** Characters an edit changes: the longer of the two middles once the common prefix and suffix are gone. */
export function changedChars(a: string, b: string): number {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return Math.max(a.length - head - tail, b.length - head - tail);
}

/**
 * The edit's lines with `answer` in place of the injected fragment: the fragment replaced where
 * it is written, or, when the answer is given without the lines' common indentation or prompt
 * (`$ `, `> `), the answer's lines re-prefixed. Applying the golden answer must give `original`.
 */
export function applyAnswer(edit: Edit, answer: string): string[] {
  const results: string[] = [];
  const at = edit.injected.indexOf(edit.injected_text);
  if (edit.injected_text !== '' && at !== -1) {
    results.push(edit.injected.slice(0, at) + answer + edit.injected.slice(at + edit.injected_text.length));
  }
  const prefix = commonPrefix(edit.injected.split('\n')).match(/^[^A-Za-z0-9]*/)![0];
  results.push(answer.split('\n').map((l) => prefix + l.trimStart()).join('\n'));
  return results;
}

export function restoresOriginal(edit: Edit, answer: string): boolean {
  const norm = (s: string) => s.split('\n').map((l) => l.trimEnd()).join('\n');
  return applyAnswer(edit, answer).some((r) => norm(r) === norm(edit.original));
}

function commonPrefix(lines: string[]): string {
  if (lines.length === 0) return '';
  let p = lines[0]!;
  for (const l of lines.slice(1)) while (!l.startsWith(p)) p = p.slice(0, -1);
  return p;
}
