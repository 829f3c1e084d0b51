import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SetupError } from '../../pipeline/errors.js';
import type { Item, Source } from '../../pipeline/stage.js';

/**
 * The evaluate stage's input: a JSONL of scripts to score (`[evaluate] scripts`), one record a
 * line in EnvBench's evaluation input format `{repository, revision, script}` (or a SetupBench
 * entry, or an EnConda agent output with its gold JSON: see task.ts). A line that is not JSON is
 * kept as an item with `_problem`, so it becomes an error row instead of stopping the run.
 */
export const evaluateScriptsSource: Source<Item> = {
  name: 'evaluate_scripts',
  description: 'a JSONL of {repository, revision, script} to evaluate ([evaluate] scripts)',
  async read(ctx) {
    const path = ctx.config.config.evaluate.scripts;
    if (!path) throw new SetupError(`${ctx.config.file}: evaluate needs [evaluate] scripts = "<a JSONL of {repository, revision, script}>"`);
    const file = resolve(path);
    if (!existsSync(file)) throw new SetupError(`evaluate.scripts: ${path} does not exist`);
    const items: Item[] = [];
    (await readFile(file, 'utf8')).split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      try {
        const v = JSON.parse(line) as unknown;
        if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not a JSON object');
        items.push({ ...(v as Item), _line: i + 1 });
      } catch (err) {
        items.push({ _line: i + 1, _problem: `line ${i + 1} of ${path} is not a JSON object: ${(err as Error).message}` });
      }
    });
    return items;
  },
};
