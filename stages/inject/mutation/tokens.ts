/** Words of a shell command with their offsets (quotes kept as part of a word). */
export interface Token {
  text: string;
  start: number;
  end: number;
}

export function tokenize(command: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < command.length) {
    while (i < command.length && /\s/.test(command[i]!)) i++;
    if (i >= command.length) break;
    const start = i;
    let quote = '';
    while (i < command.length && (quote || !/\s/.test(command[i]!))) {
      const ch = command[i]!;
      if (quote && ch === quote) quote = '';
      else if (!quote && (ch === '"' || ch === "'")) quote = ch;
      i++;
    }
    out.push({ text: command.slice(start, i), start, end: i });
  }
  return out;
}

export function replaceToken(command: string, t: Token, text: string): string {
  return command.slice(0, t.start) + text + command.slice(t.end);
}

/** Insert `text` as a new word after token `t`. */
export function insertAfter(command: string, t: Token, text: string): string {
  return command.slice(0, t.end) + ' ' + text + command.slice(t.end);
}

/** Deterministic misspellings of a word: adjacent swaps, a dropped letter, a doubled letter. */
export function misspellings(word: string): string[] {
  const out = new Set<string>();
  const letters = /[A-Za-z]/;
  for (let i = 1; i < word.length - 1; i++) {
    if (letters.test(word[i]!) && letters.test(word[i + 1]!) && word[i] !== word[i + 1]) {
      out.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
    }
  }
  if (word.length >= 5) for (let i = 1; i < word.length - 1; i++) if (letters.test(word[i]!)) out.add(word.slice(0, i) + word.slice(i + 1));
  for (let i = 1; i < word.length; i++) if (/[a-z]/.test(word[i]!)) out.add(word.slice(0, i) + word[i] + word.slice(i));
  if (word.length === 3 && word[1] !== word[2]) out.add(word[0]! + word[2] + word[1]);
  out.delete(word);
  return [...out];
}
