import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory per call, removed by `cleanup` (call it from afterEach/afterAll). */
export function tempDirs() {
  const made: string[] = [];
  return {
    make(prefix = 'envforge-test-'): string {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    cleanup(): void {
      for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}
