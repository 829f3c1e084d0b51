import { removeLeftovers } from '../../sandbox/container-run.js';
import { connectEngine, assertEngine } from '../../sandbox/engine.js';
import { openContext, type GlobalOptions, type Io } from '../context.js';

/** `envforge gc`: remove sandbox containers left behind by a crash or a kill -9 (by label). */
export async function gcCommand(opts: GlobalOptions, io: Io): Promise<string[]> {
  const ctx = await openContext(opts, io);
  const docker = connectEngine(ctx.loaded.config.sandbox);
  await assertEngine(docker);
  const removed = await removeLeftovers(docker);
  io.out(removed.length ? `removed ${removed.length} leftover containers: ${removed.join(', ')}` : 'no leftover containers');
  return removed;
}
