import cliProgress from 'cli-progress';
import type { Status } from '../stage.js';

export interface Progress {
  tick(status: Status): void;
  stop(): void;
}

export interface ProgressOptions {
  stage: string;
  total: number;
  stream: NodeJS.WriteStream | NodeJS.WritableStream;
  /** Seconds between lines when the stream is not a terminal (CI logs, files). */
  intervalSeconds: number;
  tty?: boolean;
}

/** A live bar on a terminal; a periodic one-line report anywhere else. */
export function createProgress(opts: ProgressOptions): Progress {
  const counts: Record<Status, number> = { accepted: 0, rejected: 0, error: 0 };
  const started = Date.now();
  const isTty = opts.tty ?? Boolean((opts.stream as NodeJS.WriteStream).isTTY);
  if (opts.total === 0) return { tick: () => {}, stop: () => {} };

  if (isTty) {
    const bar = new cliProgress.SingleBar(
      {
        stream: opts.stream as NodeJS.WriteStream,
        format: `${opts.stage} [{bar}] {value}/{total} | accepted {accepted} rejected {rejected} error {error} | {duration_formatted} eta {eta_formatted}`,
        hideCursor: true,
        clearOnComplete: false,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(opts.total, 0, counts);
    return {
      tick(status) {
        counts[status]++;
        bar.increment(1, counts);
      },
      stop: () => bar.stop(),
    };
  }

  let done = 0;
  const line = () => {
    const secs = (Date.now() - started) / 1000;
    const rate = secs > 0 ? (done / secs).toFixed(1) : '0';
    opts.stream.write(
      `${opts.stage}: ${done}/${opts.total} (${Math.floor((done * 100) / opts.total)}%) ` +
        `accepted ${counts.accepted} rejected ${counts.rejected} error ${counts.error}, ${rate} items/s\n`,
    );
  };
  const timer = setInterval(line, opts.intervalSeconds * 1000);
  timer.unref();
  return {
    tick(status) {
      counts[status]++;
      done++;
    },
    stop() {
      clearInterval(timer);
      if (done > 0) line();
    },
  };
}
