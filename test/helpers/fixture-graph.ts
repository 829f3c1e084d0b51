import { setTimeout as sleep } from 'node:timers/promises';
import { parseConfig, type LoadedConfig } from '../../pipeline/config/load.js';
import type { StageGraph } from '../../pipeline/graph-types.js';
import { silentLogger } from '../../pipeline/log/logger.js';
import { ArtifactStore } from '../../pipeline/store/artifact-store.js';
import { layoutFor } from '../../pipeline/store/layout.js';
import { SetupError } from '../../pipeline/errors.js';
import { accept, fail, reject, type Item, type Source, type Stage } from '../../pipeline/stage.js';

/**
 * A small graph for runner tests: a numbers source → `square` (keeps even numbers) → `label`.
 * Behaviour is steered by the items themselves, so tests need no global switches.
 */
export interface FixtureOptions {
  n: number;
  delayMs?: number;
  /** Keys whose run throws an ordinary error (→ `error` row). */
  throwFor?: string[];
  /** Key whose run throws a SetupError (→ the whole run stops). */
  setupErrorFor?: string;
  /** Message of thrown errors (to test redaction). */
  message?: string;
  /** Per-item content override, to simulate a changed input. */
  salt?: Record<string, string>;
  version?: number;
}

export function fixtureGraph(o: FixtureOptions): StageGraph {
  const numbers: Source = {
    name: 'numbers',
    description: 'the integers 1..n',
    read: () => Array.from({ length: o.n }, (_, i) => ({ id: `n${String(i + 1).padStart(4, '0')}`, value: i + 1, salt: o.salt?.[`n${String(i + 1).padStart(4, '0')}`] ?? '' })),
  };
  const square: Stage<Item> = {
    name: 'square',
    version: o.version ?? 1,
    description: 'square each number; keep the even ones',
    input: 'numbers',
    // Borrows the search section so tests can change "its" config through the real schema.
    configSections: ['search'],
    columns: { value: 'BIGINT', square: 'BIGINT' },
    key: (item) => String(item.id),
    async run(item, ctx) {
      if (o.delayMs) await sleep(o.delayMs);
      const key = String(item.id);
      if (key === o.setupErrorFor) throw new SetupError('the engine went away');
      if (o.throwFor?.includes(key)) throw new Error(o.message ?? `boom at ${key}`);
      if (ctx.signal.aborted) throw new Error('aborted');
      const value = Number(item.value);
      const cells = { value, square: value * value };
      return value % 2 === 0 ? accept(cells) : reject('odd', `${value} is odd`, cells);
    },
  };
  const label: Stage<Item> = {
    name: 'label',
    version: 1,
    description: 'fan out: two labels per accepted square',
    input: 'square',
    columns: { label: 'VARCHAR' },
    key: (row) => String(row.key),
    async run(row) {
      const k = String(row.key);
      return [accept({ label: `${k}:a` }, `${k}#a`), accept({ label: `${k}:b` }, `${k}#b`)];
    },
  };
  const broken: Stage<Item> = {
    name: 'broken',
    version: 1,
    description: 'returns a value of the wrong type',
    input: 'numbers',
    columns: { value: 'BIGINT' },
    key: (item) => String(item.id),
    run: async (item) => (Number(item.value) === 2 ? accept({ value: 'two' }) : Number(item.value) === 3 ? fail('x', 'y') : accept({ value: Number(item.value) })),
  };
  return { sources: [numbers], stages: [square, label, broken] };
}

export function fixtureConfig(dataDir: string, extra = '', batchSize = 5): LoadedConfig {
  return parseConfig(
    `dataset = "t"\ndata_dir = ${JSON.stringify(dataDir)}\n[run]\njobs = 2\nbatch_size = ${batchSize}\nflush_seconds = 0.2\nprogress_seconds = 60\nlog_level = "silent"\n${extra}`,
    'fixture.toml',
    {},
  );
}

export async function fixtureEnv(dataDir: string, graph: StageGraph, config = fixtureConfig(dataDir)) {
  const store = await ArtifactStore.open(layoutFor(dataDir, 't'));
  return { graph, store, config, log: silentLogger };
}
