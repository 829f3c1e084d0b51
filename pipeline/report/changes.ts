import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { orderedStages } from '../graph-types.js';
import { sqlIdent, sqlString } from '../store/duck.js';
import type { DatasetViews } from './dataset-views.js';

/**
 * What changed since the previous run of the same dataset: keys that are new, dropped, or whose
 * status (or reason) changed, per stage. The report keeps a small snapshot of each stage's
 * key → status map (`snapshot.json` in the report folder) and diffs against the previous report.
 * Rendering again without a new run shows the same diff (the snapshot keeps what it was diffed
 * against). Without a snapshot (first report) the previous state comes from the stage's
 * history: the latest row per input as of the run before the newest one.
 */

export type StatusMap = Record<string, string>;

export interface StageState {
  run_ids: string[];
  keys: StatusMap;
}

export type DatasetState = Record<string, StageState>;

export interface Snapshot {
  version: 1;
  dataset: string;
  current: DatasetState;
  /** What `current` was compared with when this snapshot was written. */
  previous: DatasetState | null;
  /** Where `previous` came from, for the page. */
  previous_label: string;
}

export interface StageChanges {
  stage: string;
  /** `first run`: nothing earlier to compare with; `not run`: the stage has no rows. */
  basis: 'compared' | 'first run' | 'not run';
  since: string;
  added: string[];
  dropped: string[];
  changed: { key: string; from: string; to: string }[];
  unchanged: number;
}

export const SNAPSHOT_FILE = 'snapshot.json';
const statusExpr = `CASE WHEN status = 'accepted' THEN 'accepted' ELSE status || ':' || coalesce(reason, 'unspecified') END`;

export async function currentState(views: DatasetViews): Promise<DatasetState> {
  const state: DatasetState = {};
  for (const s of orderedStages(views.graph)) {
    if (!views.ran(s.name)) continue;
    const rows = await views.duck.all(`SELECT key, ${statusExpr} AS st, run_id FROM ${sqlIdent(s.name)} ORDER BY key`);
    state[s.name] = { run_ids: [...new Set(rows.map((r) => String(r.run_id)))].sort(), keys: Object.fromEntries(rows.map((r) => [String(r.key), String(r.st)])) };
  }
  return state;
}

/** Each stage as it stood after its run before the newest one, from `<stage>_history`. */
export async function stateBeforeLatestRun(views: DatasetViews): Promise<{ state: DatasetState; label: string }> {
  const state: DatasetState = {};
  const runs: string[] = [];
  for (const s of orderedStages(views.graph)) {
    if (!views.ran(s.name)) continue;
    const h = sqlIdent(`${s.name}_history`);
    const [p] = await views.duck.all(`SELECT max(run_id) AS prev FROM ${h} WHERE run_id < (SELECT max(run_id) FROM ${h})`);
    const prev = p?.prev as string | null | undefined;
    if (!prev) continue;
    runs.push(`${s.name} ${prev}`);
    const rows = await views.duck.all(
      `SELECT key, ${statusExpr} AS st, run_id FROM ${h} WHERE run_id <= ${sqlString(prev)} ` +
        `QUALIFY rank() OVER (PARTITION BY input_key ORDER BY created_at DESC, run_id DESC) = 1 ORDER BY key`,
    );
    state[s.name] = { run_ids: [...new Set(rows.map((r) => String(r.run_id)))].sort(), keys: Object.fromEntries(rows.map((r) => [String(r.key), String(r.st)])) };
  }
  return { state, label: runs.length ? `each stage's previous run (${runs.join(', ')})` : 'no earlier run' };
}

export function readSnapshot(dir: string, dataset: string): Snapshot | undefined {
  const file = join(dir, SNAPSHOT_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
    return s.version === 1 && s.dataset === dataset && s.current ? s : undefined;
  } catch {
    return undefined; // an unreadable snapshot only costs the comparison
  }
}

const sameRuns = (a: DatasetState, b: DatasetState) =>
  JSON.stringify(Object.entries(a).map(([k, v]) => [k, v.run_ids])) === JSON.stringify(Object.entries(b).map(([k, v]) => [k, v.run_ids]));

/** The state to compare with and the snapshot to write after the report. */
export async function planChanges(views: DatasetViews, dir: string): Promise<{ current: DatasetState; previous: DatasetState | null; label: string; next: Snapshot }> {
  const current = await currentState(views);
  const snap = readSnapshot(dir, views.layout.dataset);
  let previous: DatasetState | null;
  let label: string;
  if (snap && !sameRuns(snap.current, current)) {
    previous = snap.current;
    label = 'the previous report';
  } else if (snap) {
    previous = snap.previous;
    label = snap.previous_label;
  } else {
    const h = await stateBeforeLatestRun(views);
    previous = Object.keys(h.state).length ? h.state : null;
    label = h.label;
  }
  return { current, previous, label, next: { version: 1, dataset: views.layout.dataset, current, previous, previous_label: label } };
}

export function diffStates(stages: readonly string[], current: DatasetState, previous: DatasetState | null, label: string): StageChanges[] {
  return stages.map((stage) => {
    const now = current[stage];
    const before = previous?.[stage];
    if (!now) return { stage, basis: 'not run', since: label, added: [], dropped: [], changed: [], unchanged: 0 };
    if (!before) return { stage, basis: 'first run', since: label, added: Object.keys(now.keys), dropped: [], changed: [], unchanged: 0 };
    const added = Object.keys(now.keys).filter((k) => !(k in before.keys));
    const dropped = Object.keys(before.keys).filter((k) => !(k in now.keys));
    const changed = Object.keys(now.keys)
      .filter((k) => k in before.keys && before.keys[k] !== now.keys[k])
      .map((k) => ({ key: k, from: before.keys[k]!, to: now.keys[k]! }));
    return { stage, basis: 'compared', since: label, added, dropped, changed, unchanged: Object.keys(now.keys).length - added.length - changed.length };
  });
}

export async function writeSnapshot(dir: string, snap: Snapshot): Promise<void> {
  await writeFile(join(dir, SNAPSHOT_FILE), JSON.stringify(snap) + '\n');
}
