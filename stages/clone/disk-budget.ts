import { mkdir, statfs } from 'node:fs/promises';
import { SetupError } from '../../pipeline/errors.js';

/**
 * Stop before the disk fills: a clone that runs out of space fails half-written and takes
 * every other process on the machine down with it. Checked before each clone.
 */
export async function assertFreeSpace(dir: string, minFreeGb: number): Promise<void> {
  if (minFreeGb <= 0) return;
  await mkdir(dir, { recursive: true });
  const s = await statfs(dir);
  const freeGb = (s.bavail * s.bsize) / 1024 ** 3;
  if (freeGb < minFreeGb) {
    throw new SetupError(
      `disk budget reached: ${freeGb.toFixed(1)} GB free under ${dir}, below clone.min_free_gb = ${minFreeGb}; ` +
        'free some space (old clones live in data/cache/clones) or lower clone.min_free_gb, then rerun to resume',
    );
  }
}
