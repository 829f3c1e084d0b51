import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { SetupError } from '../../pipeline/errors.js';

/**
 * Reading a SEART-GHS export (../shared/reference/seart-ghs.md): CSV or JSON, optionally gzip
 * (detected by content, not by name). The file as a whole must look like an export, else the
 * run stops; a single bad record is yielded with `__error` so it becomes an `error` row.
 */
export interface RawRecord {
  __row: number;
  __error?: string;
  [field: string]: unknown;
}

/** The columns the selection needs; an export without them is not one we can use. */
export const REQUIRED_COLUMNS = [
  'name',
  'isFork',
  'commits',
  'mainLanguage',
  'license',
  'stargazers',
  'contributors',
  'totalIssues',
  'lastCommit',
  'isArchived',
] as const;

export async function readSeartExport(file: string): Promise<RawRecord[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new SetupError(`${file}: cannot read the SEART-GHS export (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return parseSeartExport(bytes, file);
}

export function parseSeartExport(bytes: Buffer, file: string): RawRecord[] {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch (err) {
      throw new SetupError(`${file}: looks gzip-compressed but cannot be decompressed (${(err as Error).message})`);
    }
  }
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const first = text.trimStart()[0];
  return first === '{' || first === '[' ? parseJson(text, file) : parseCsv(text, file);
}

function parseJson(text: string, file: string): RawRecord[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new SetupError(`${file}: not a SEART-GHS export: invalid JSON (${(err as Error).message})`);
  }
  const items = Array.isArray(doc) ? doc : (doc as { items?: unknown })?.items;
  if (!Array.isArray(items)) {
    throw new SetupError(`${file}: not a SEART-GHS export: expected {"parameters": ..., "items": [...]}, found no "items" array`);
  }
  // Items are checked one by one (a gap is an error row); only a file with no repository-like
  // item at all is rejected as a whole.
  if (items.length > 0 && !items.some((it) => it && typeof it === 'object' && 'name' in it)) {
    throw new SetupError(`${file}: not a SEART-GHS export: no item has a "name" field`);
  }
  return items.map((it, i) =>
    it && typeof it === 'object' && !Array.isArray(it)
      ? { ...(it as Record<string, unknown>), __row: i + 1 }
      : { __row: i + 1, __error: `item ${i + 1} is not an object` },
  );
}

function parseCsv(text: string, file: string): RawRecord[] {
  const header = text.split(/\r?\n/, 1)[0] ?? '';
  // Every record, readable or not, is numbered by its position among the records (header = 0),
  // the numbering a JSON export's items get, so `source_row` and the `row:<n>` key of a
  // malformed row mean the same in either format and two records never share a number. (Line
  // numbers would not do: a quoted field may span lines, and a skipped record must still count.)
  let seen = 0;
  const numbers: number[] = [];
  let rows: string[][];
  const skipped: RawRecord[] = [];
  try {
    rows = parse(text, {
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_record: (cells: string[]) => {
        numbers.push(seen++);
        return cells;
      },
      on_skip: (err) => {
        const n = seen++;
        skipped.push({ __row: n, __error: `unreadable CSV record: ${err?.message ?? 'unknown error'}` });
      },
    }) as string[][];
  } catch (err) {
    throw new SetupError(`${file}: not a SEART-GHS export: CSV cannot be parsed (${(err as Error).message})`);
  }
  if (seen === 0) throw new SetupError(`${file}: not a SEART-GHS export: the file is empty`);
  const head = rows[0];
  if (!head || numbers[0] !== 0) {
    throw new SetupError(`${file}: not a SEART-GHS export: the header cannot be read (${skipped[0]?.__error ?? 'no header'})`);
  }
  assertColumns(new Set(head), file, `header ${JSON.stringify(header.slice(0, 80))}`);
  const records = rows.slice(1).map((cells, i) => {
    const rec: RawRecord = { __row: numbers[i + 1]! };
    head.forEach((col, j) => {
      if (j < cells.length) rec[col] = cells[j];
    });
    if (cells.length !== head.length) rec.__error = `expected ${head.length} columns, found ${cells.length}`;
    return rec;
  });
  return [...records, ...skipped].sort((a, b) => a.__row - b.__row);
}

function assertColumns(present: Set<string>, file: string, where: string): void {
  const missing = REQUIRED_COLUMNS.filter((c) => !present.has(c));
  if (missing.length > 0) {
    throw new SetupError(`${file}: not a SEART-GHS export: ${where} lacks the columns ${missing.join(', ')}`);
  }
}
