import { SetupError, messageOf } from '../errors.js';
import type { PartWriter } from '../store/part-writer.js';

/**
 * Buffers rows and writes them as a part when the batch is full or the flush interval passes,
 * so a kill loses at most the rows of the batch in flight. Writes are serialised.
 */
export class BatchSink {
  private buffer: Record<string, unknown>[] = [];
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private failure: unknown;
  written = 0;
  parts = 0;

  constructor(
    private readonly writer: PartWriter,
    private readonly batchSize: number,
    flushSeconds: number,
  ) {
    this.timer = setInterval(() => void this.flush(), flushSeconds * 1000);
    this.timer.unref();
  }

  add(rows: Record<string, unknown>[]): void {
    this.buffer.push(...rows);
    if (this.buffer.length >= this.batchSize) void this.flush();
  }

  flush(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length > 0) {
      this.chain = this.chain.then(async () => {
        if (this.failure) return;
        try {
          await this.writer.write(batch);
          this.written += batch.length;
          this.parts++;
        } catch (err) {
          this.failure = err;
        }
      });
    }
    return this.chain;
  }

  /** Flush what is left, stop the timer, and raise a write failure (disk full, permissions). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    if (this.failure) throw new SetupError(`cannot write artifacts: ${messageOf(this.failure)}`);
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }
}
