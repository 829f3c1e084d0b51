import { CommanderError } from 'commander';
import { GRAPH } from '../graph.js';
import { ConfigError, EXIT, ExitError, SetupError, exitCodeOf, messageOf } from '../errors.js';
import { redact } from '../log/secrets.js';
import { buildProgram } from './program.js';

/**
 * The one top-level handler: every command's failure arrives here and leaves as one message
 * and a meaningful exit code (errors.ts). Only internal errors show a stack.
 */
export async function main(argv: string[]): Promise<number> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT.interrupted);
    process.stderr.write(`\n${sig}: finishing items in flight and saving (press Ctrl-C again to quit now)\n`);
    controller.abort(new ExitError(`interrupted by ${sig}`, EXIT.interrupted));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await buildProgram(GRAPH, undefined, controller.signal).parseAsync(argv);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has already printed usage errors; help and version exit 0.
      return err.exitCode === 0 ? EXIT.ok : EXIT.config;
    }
    const code = exitCodeOf(err);
    if (err instanceof ConfigError) process.stderr.write(`configuration error: ${redact(err.message)}\n`);
    else if (err instanceof SetupError) process.stderr.write(`setup error: ${redact(err.message)}\n`);
    else if (err instanceof ExitError) process.stderr.write(`${redact(err.message)}\n`);
    else process.stderr.write(`internal error (a bug in envforge, please report it): ${redact((err as Error)?.stack ?? messageOf(err))}\n`);
    return code;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
