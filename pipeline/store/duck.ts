import { DuckDBInstance, type DuckDBConnection, type DuckDBResultReader, type DuckDBValue } from '@duckdb/node-api';

/** A thin wrapper over @duckdb/node-api that returns plain JS rows (numbers, ISO date strings). */
export interface Duck {
  all(sql: string, params?: DuckDBValue[]): Promise<Record<string, unknown>[]>;
  exec(sql: string): Promise<void>;
  close(): void;
  /** Column names and DuckDB type names of a query, in order. */
  describe(sql: string, params?: DuckDBValue[]): Promise<{ names: string[]; types: string[]; rows: Record<string, unknown>[] }>;
}

export async function openDuck(path = ':memory:'): Promise<Duck> {
  const instance = await DuckDBInstance.create(path);
  const conn = await instance.connect();
  const read = async (sql: string, params?: DuckDBValue[]) => toPlain(await conn.runAndReadAll(sql, params));
  return {
    all: async (sql, params) => (await read(sql, params)).rows,
    describe: read,
    exec: async (sql) => {
      await conn.run(sql);
    },
    close: () => {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

const NUMERIC = /^(BIGINT|HUGEINT|UBIGINT|UHUGEINT|DOUBLE|FLOAT|REAL|DECIMAL)/;

function toPlain(result: DuckDBResultReader) {
  const names = result.columnNames();
  const types = result.columnTypes().map(String);
  const numeric = names.filter((_n, i) => NUMERIC.test(types[i]!));
  const rows = result.getRowObjectsJson() as Record<string, unknown>[];
  for (const row of rows) {
    for (const n of numeric) if (typeof row[n] === 'string') row[n] = Number(row[n]);
  }
  return { names, types, rows };
}

export type { DuckDBConnection };

/** Quote a string literal for SQL text (paths in read_parquet, which take no parameters). */
export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

export function sqlIdent(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}
