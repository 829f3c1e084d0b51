import { loadConfig, type LoadedConfig } from '../config/load.js';
import { ConfigError } from '../errors.js';
import { createLogger, type Logger, type LogLevel } from '../log/logger.js';
import { layoutFor, type Layout } from '../store/layout.js';

export interface GlobalOptions {
  config?: string;
  dataset?: string;
  quiet?: boolean;
}

/** Where a command writes: injectable so commands are tested as plain functions. */
export interface Io {
  out(text: string): void;
  err: NodeJS.WritableStream;
  tty: boolean;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : text + '\n'),
  err: process.stderr,
  tty: Boolean(process.stderr.isTTY),
};

export interface CommandContext {
  loaded: LoadedConfig;
  layout: Layout;
  log: Logger;
}

export const DEFAULT_CONFIG = 'configs/default.toml';

export async function openContext(opts: GlobalOptions, io: Io, env: NodeJS.ProcessEnv = process.env): Promise<CommandContext> {
  const file = opts.config ?? env.ENVFORGE_CONFIG ?? DEFAULT_CONFIG;
  const loaded = await loadConfig(file, env);
  const dataset = opts.dataset ?? loaded.config.dataset;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(dataset)) {
    throw new ConfigError(`--dataset ${JSON.stringify(dataset)}: expected a name of letters, digits, ".", "_" or "-"`);
  }
  const level: LogLevel = opts.quiet ? 'warn' : loaded.config.run.log_level;
  const log = createLogger(level, (line) => io.err.write(line + '\n'));
  return { loaded, layout: layoutFor(env.ENVFORGE_DATA_DIR ?? loaded.config.data_dir, dataset), log };
}
