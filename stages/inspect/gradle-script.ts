/**
 * Just enough lexing of Gradle build scripts (Groovy and Kotlin DSL) to read declarations with
 * regular expressions. Scripts are programs, so this reads literal declarations only; anything
 * computed is out of reach by design.
 */

/**
 * Removes // and /* *\/ comments, leaving string literals intact: a naive regex would treat
 * the "/*" inside `'src/*\/java'` as a comment start and the "//" of "https://" as a comment.
 */
export function stripComments(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i += 1;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      // Keep line breaks so that line-based parsing downstream still sees the same lines.
      out += source.slice(i, stop).replace(/[^\n]/g, '');
      i = stop;
      continue;
    }
    if (c === '"' || c === "'") {
      const triple = source.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < source.length && !source.startsWith(quote, j)) {
        if (source[j] === '\\') j += 1;
        else if (!triple && source[j] === '\n') break;
        j += 1;
      }
      const stop = Math.min(source.length, j + (source.startsWith(quote, j) ? quote.length : 0));
      out += source.slice(i, stop);
      i = stop;
      continue;
    }
    out += c;
    i += 1;
  }
  return out;
}

/**
 * Project paths named by `include` in a settings script, in both syntaxes:
 * `include 'a', ':b'` (Groovy, continued over lines ending with a comma) and
 * `include(":a", ":b")` (Kotlin or Groovy). Leading ':' is dropped. `dynamic` is set when an
 * include names no literal (e.g. `include(*projects.toTypedArray())`).
 */
export function findGradleIncludes(settingsSource: string): { projects: string[]; dynamic: boolean } {
  const text = stripComments(settingsSource);
  const projects: string[] = [];
  let dynamic = false;
  // Not includeBuild/includeFlat (\b fails inside the word), not a named argument `include:`.
  const call = /(?<![.\w])include\b(?!\s*:)/g;
  for (let match = call.exec(text); match; match = call.exec(text)) {
    const args = argumentText(text, match.index + match[0].length);
    const literals = [...args.matchAll(/(["'])((?:\\.|(?!\1).)*)\1/g)].map((m) => m[2]!);
    if (literals.length === 0) dynamic = true;
    for (const literal of literals) {
      const name = literal.replace(/^:/, '');
      if (name !== '' && !projects.includes(name)) projects.push(name);
    }
  }
  return { projects, dynamic };
}

function argumentText(text: string, from: number): string {
  let i = from;
  while (text[i] === ' ' || text[i] === '\t') i += 1;
  if (text[i] === '(') {
    let depth = 0;
    for (let j = i; j < text.length; j += 1) {
      if (text[j] === '(') depth += 1;
      else if (text[j] === ')' && --depth === 0) return text.slice(i + 1, j);
    }
    return text.slice(i + 1);
  }
  // Groovy command syntax: the argument list runs to the end of the line and continues while
  // a line ends with a comma.
  let end = text.indexOf('\n', i);
  if (end === -1) end = text.length;
  let args = text.slice(i, end);
  while (args.trimEnd().endsWith(',') && end < text.length) {
    const nextEnd = text.indexOf('\n', end + 1);
    const stop = nextEnd === -1 ? text.length : nextEnd;
    args += text.slice(end, stop);
    end = stop;
  }
  return args;
}
