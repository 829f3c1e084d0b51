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
    return this.total > this.headBytes + this.tailBytes;
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    let tail = Buffer.concat(this.tail);
    const headCap = Math.floor(this.cap / 2);
    if (tail.length > this.cap - headCap) tail = tail.subarray(tail.length - (this.cap - headCap));
    if (!this.truncated) return head + tail.toString('utf8');
    const skipped = this.total - this.headBytes - tail.length;
    return `${head}\n[... ${skipped} bytes omitted by envforge ...]\n${tail.toString('utf8')}`;
  }
}
