import { Writable } from 'node:stream';

/**
 * Output of a sandbox run, kept within a byte cap: the first half of the cap from the start and
 * the second half from the end (where errors are), with the total size always known.
 */
export class CappedLog extends Writable {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  total = 0;

  constructor(private readonly cap: number) {
    super();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.push(chunk);
    done();
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const headCap = Math.floor(this.cap / 2);
    if (this.headBytes < headCap) {
      const take = chunk.subarray(0, headCap - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) return;
    const tailCap = this.cap - headCap;
    this.tail.push(chunk.length > tailCap ? chunk.subarray(chunk.length - tailCap) : chunk);
    this.tailBytes += Math.min(chunk.length, tailCap);
    while (this.tailBytes - this.tail[0]!.length >= tailCap) this.tailBytes -= this.tail.shift()!.length;
  }

  get truncated(): boolean {
    // The tail list may hold a little more than its cap (whole chunks); text() keeps only the cap.
    return this.total > this.headBytes + Math.min(this.tailBytes, this.cap - Math.floor(this.cap / 2));
  }

  text(): string {
    let head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    const headCap = Math.floor(this.cap / 2);
    if (tail.length > this.cap - headCap) tail = tail.subarray(tail.length - (this.cap - headCap));
    // Decoded as one buffer, so a character split between head and tail stays whole.
    if (!this.truncated) return Buffer.concat([head, tail]).toString('utf8');
    // Cut at character boundaries: no half UTF-8 sequence at either side of the gap.
    head = head.subarray(0, completePrefix(head));
    tail = tail.subarray(leadingContinuations(tail));
    const skipped = this.total - head.length - tail.length;
    return `${head.toString('utf8')}\n[... ${skipped} bytes omitted by envforge ...]\n${tail.toString('utf8')}`;
  }
}

/** Length of `buf` without a UTF-8 sequence cut off at its end. */
function completePrefix(buf: Buffer): number {
  for (let i = buf.length - 1; i >= Math.max(0, buf.length - 4); i--) {
    const b = buf[i]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return buf.length - i >= need ? buf.length : i;
  }
  return buf.length;
}

/** Number of continuation bytes (the rest of a character cut off) at the start of `buf`. */
function leadingContinuations(buf: Buffer): number {
  let i = 0;
  while (i < 3 && i < buf.length && (buf[i]! & 0xc0) === 0x80) i++;
  return i;
}
