import type { Columns } from '../stage.js';

/**
 * Columns every stage row carries. `input_key`/`input_hash` tie a row to the exact input it was
 * computed from; `created_at` is shared by all rows of one item's run, which is how views pick
 * the latest result per input key even when a stage fans one input out into several rows.
 */
export const COMMON_COLUMNS: Columns = {
  key: 'VARCHAR',
  input_key: 'VARCHAR',
  status: 'VARCHAR',
  reason: 'VARCHAR',
  reason_text: 'VARCHAR',
  input_hash: 'VARCHAR',
  run_id: 'VARCHAR',
  stage_version: 'INTEGER',
  config_hash: 'VARCHAR',
  created_at: 'TIMESTAMP',
  duration_ms: 'BIGINT',
};

/** Columns that describe how a row was made rather than what it says: left out of input hashes. */
export const PROVENANCE_COLUMNS = new Set([
  'run_id',
  'stage_version',
  'config_hash',
  'created_at',
  'duration_ms',
  'input_hash',
]);

export function allColumns(stageColumns: Columns): Columns {
  for (const name of Object.keys(stageColumns)) {
    if (name in COMMON_COLUMNS) throw new Error(`stage column "${name}" clashes with a common column`);
  }
  return { ...COMMON_COLUMNS, ...stageColumns };
}
