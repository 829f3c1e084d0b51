import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The envforge checkout this code runs from (the folder holding package.json), whether it runs
 * from source (tsx, vitest) or from dist/: sandbox images and scripts are found from here,
 * not from the caller's working directory.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'sandboxes'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the envforge package root (package.json with sandboxes/)');
    dir = up;
  }
  return dir;
}
