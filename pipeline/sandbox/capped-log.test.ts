import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { CappedLog } from './capped-log.js';

/** What the log should read for an ASCII input, given its cap (head = floor(cap/2), tail = the rest). */
function expected(input: string, cap: number): string {
  if (input.length <= cap) return input;
  const headCap = Math.floor(cap / 2);
  const tailCap = cap - headCap;
  const omitted = input.length - headCap - tailCap;
  return `${input.slice(0, headCap)}\n[... ${omitted} bytes omitted by envforge ...]\n${input.slice(input.length - tailCap)}`;
}

function feed(cap: number, chunks: (string | Buffer)[]): CappedLog {
  const log = new CappedLog(cap);
  for (const c of chunks) log.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return log;
}

/** Deterministic PRNG (mulberry32) for the chunking property test. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('CappedLog', () => {
  it('keeps everything below the cap, with the total recorded', () => {
    const log = feed(16, ['hello ', 'world']);
    expect(log.text()).toBe('hello world');
    expect(log.total).toBe(11);
    expect(log.truncated).toBe(false);
  });

  it('keeps an empty run empty', () => {
    const log = new CappedLog(16);
    expect(log.text()).toBe('');
    expect(log.total).toBe(0);
    expect(log.truncated).toBe(false);
  });

  it('is not truncated at exactly the cap, and is one byte past it', () => {
    const exact = feed(10, ['0123456789']);
    expect(exact.truncated).toBe(false);
    expect(exact.text()).toBe('0123456789');

    const over = feed(10, ['0123456789A']);
    expect(over.truncated).toBe(true);
    expect(over.total).toBe(11);
    expect(over.text()).toBe('01234\n[... 1 bytes omitted by envforge ...]\n6789A');
  });

  it('keeps the first half of the cap from the start and the second half from the end', () => {
    const input = 'HEAD-' + 'x'.repeat(10_000) + '-TAIL';
    const log = feed(64, [input]);
    expect(log.truncated).toBe(true);
    expect(log.total).toBe(input.length);
    expect(log.text()).toBe(expected(input, 64));
    expect(log.text().startsWith('HEAD-')).toBe(true);
    expect(log.text().endsWith('-TAIL')).toBe(true);
  });

  it('splits an odd cap as floor for the head and the rest for the tail', () => {
    const log = feed(7, ['abcdefghij']);
    expect(log.text()).toBe('abc\n[... 3 bytes omitted by envforge ...]\nghij');
  });

  it('gives the same text for one byte at a time as for one chunk', () => {
    const input = Array.from({ length: 300 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const bytes = [...input];
    const log = feed(50, bytes);
    expect(log.total).toBe(300);
    expect(log.text()).toBe(expected(input, 50));
  });

  it('drops nothing silently when chunks straddle the tail cap (regression: 5+3+3 bytes at cap 10)', () => {
    // The tail list holds whole chunks: 3+3 = 6 bytes for a 5-byte tail cap. One byte is gone,
    // so the log is truncated and says so.
    const log = feed(10, ['abcde', 'fgh', 'ijk']);
    expect(log.total).toBe(11);
    expect(log.truncated).toBe(true);
    expect(log.text()).toBe('abcde\n[... 1 bytes omitted by envforge ...]\nghijk');
  });

  it('matches the reference for random chunkings and caps', () => {
    const rand = prng(42);
    for (let round = 0; round < 300; round++) {
      const cap = 1 + Math.floor(rand() * 80);
      const length = Math.floor(rand() * 400);
      const input = Array.from({ length }, (_, i) => String.fromCharCode(33 + ((i * 7 + round) % 90))).join('');
      const chunks: string[] = [];
      for (let at = 0; at < input.length; ) {
        const n = 1 + Math.floor(rand() * (rand() < 0.2 ? 200 : 12));
        chunks.push(input.slice(at, at + n));
        at += n;
      }
      const log = feed(cap, chunks);
      const ctx = `cap ${cap}, ${length} bytes in ${chunks.length} chunks`;
      expect(log.total, ctx).toBe(length);
      expect(log.truncated, ctx).toBe(length > cap);
      expect(log.text(), ctx).toBe(expected(input, cap));
    }
  });

  it('works as a Writable stream (how demuxStream feeds it)', async () => {
    const log = new CappedLog(24);
    const parts = ['line 1\n', 'line 2\n', 'x'.repeat(100), '\nlast line\n'];
    await pipeline(Readable.from(parts.map((p) => Buffer.from(p))), log);
    expect(log.total).toBe(7 + 7 + 100 + 11);
    expect(log.truncated).toBe(true);
    expect(log.text()).toBe(expected(parts.join(''), 24));
    expect(log.text().startsWith('line 1\nline')).toBe(true);
    expect(log.text().endsWith('x\nlast line\n')).toBe(true);
  });

  describe('multibyte text', () => {
    it('decodes a character split between head and tail when nothing was dropped', () => {
      // 'é' is 2 bytes: with cap 8 the head ends in the middle of the second one.
      const input = 'aéé€'; // 1 + 2 + 2 + 3 = 8 bytes
      const log = feed(8, [input]);
      expect(log.truncated).toBe(false);
      expect(log.text()).toBe(input);
    });

    it('cuts at character boundaries on both sides of the gap', () => {
      const input = 'a' + '€'.repeat(100) + 'z'; // 1 + 300 + 1 bytes
      for (const cap of [8, 9, 10, 11, 12, 13]) {
        const text = new CappedLog(cap);
        text.push(Buffer.from(input));
        const out = text.text();
        expect(out, `cap ${cap}`).not.toContain('\uFFFD');
        const [head, marker, tail] = out.split('\n');
        expect(head!.startsWith('a')).toBe(true);
        expect(tail!.endsWith('z')).toBe(true);
        // Only what is shown counts as kept: the byte count in the marker adds up.
        const omitted = Number(/\[\.\.\. (\d+) bytes omitted/.exec(marker!)![1]);
        expect(Buffer.byteLength(head!) + omitted + Buffer.byteLength(tail!), `cap ${cap}`).toBe(302);
        expect(Buffer.byteLength(head!) + Buffer.byteLength(tail!)).toBeLessThanOrEqual(cap);
      }
    });

    it('keeps 4-byte characters whole', () => {
      const input = '😀'.repeat(50);
      for (const cap of [10, 11, 13, 15]) {
        const out = feed(cap, [input]).text();
        expect(out, `cap ${cap}`).not.toContain('\uFFFD');
        expect(out.replace(/\n\[\.\.\. \d+ bytes omitted by envforge \.\.\.\]\n/, '')).toMatch(/^(😀)+$/u);
      }
    });
  });
});
