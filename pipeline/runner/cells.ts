import type { Cells, ColumnType, Columns } from '../stage.js';

/**
 * Check a stage's output cells against its declared columns before they reach a batch, so one
 * bad row becomes an `error` row instead of failing the whole Parquet part.
 */
export function checkCells(cells: Cells, columns: Columns): string | undefined {
  for (const [name, value] of Object.entries(cells)) {
    const type = columns[name];
    if (type === undefined) return `undeclared column "${name}"`;
    if (value === null || value === undefined) continue;
    if (!fits(value, type)) return `column "${name}" (${type}) got ${JSON.stringify(value)?.slice(0, 80)}`;
  }
  return undefined;
}

function fits(value: unknown, type: ColumnType): boolean {
  switch (type) {
    case 'VARCHAR':
      return typeof value === 'string';
    case 'BIGINT':
    case 'INTEGER':
      return typeof value === 'number' && Number.isInteger(value);
    case 'DOUBLE':
      return typeof value === 'number' && Number.isFinite(value);
    case 'BOOLEAN':
      return typeof value === 'boolean';
    case 'DATE':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
    case 'TIMESTAMP':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/.test(value);
    case 'VARCHAR[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'JSON':
      return true;
  }
}

/** The TIMESTAMP text form the part writer reads: UTC, millisecond precision. */
export function timestampText(d: Date): string {
  return d.toISOString().replace('T', ' ').replace('Z', '');
}
