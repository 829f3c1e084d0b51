#!/usr/bin/env node
// The tiny bin: everything lives in pipeline/cli. Runs the compiled build (npm run build).
import { existsSync } from 'node:fs';
const entry = new URL('../dist/pipeline/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('setup error: envforge is not built yet: run `npm ci && npm run build` (or `make build`)\n');
  process.exit(3);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
