import { redact } from './secrets.js';

/** A minimal leveled logger on stderr; stdout is reserved for command output (tables, SQL results). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export function createLogger(level: LogLevel = 'info', write: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const at = (lvl: LogLevel) => (msg: string) => {
    if (order[lvl] >= order[level]) write(lvl === 'info' ? redact(msg) : `${lvl}: ${redact(msg)}`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export const silentLogger: Logger = createLogger('silent');
