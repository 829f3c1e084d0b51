/**
 * A JSON column as read back from the store: DuckDB hands JSON cells over as text, so readers
 * parse them; an absent or unreadable cell reads as an empty list.
 */
export function jsonCell(v: unknown): unknown {
  if (typeof v === 'string') {
    try {
      return JSON.parse(v);
    } catch {
      return [];
    }
  }
  return v ?? [];
}
