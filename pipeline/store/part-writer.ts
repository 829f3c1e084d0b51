import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Columns } from '../stage.js';
import { redactValue, redact } from '../log/secrets.js';
import { sqlString, type Duck } from './duck.js';

/**
 * Writes batches of rows as Parquet parts: `<stageDir>/part-<run>-<n>.parquet`. A batch goes
 * to NDJSON, DuckDB converts it with the declared column types, and the result is renamed into
 * place, so a kill leaves either a whole part or none (the `.tmp` names never match the glob).
 */
export class PartWriter {
  private seq = 0;

  constructor(
    private readonly duck: Duck,
    private readonly stageDir: string,
    private readonly tmpDir: string,
    private readonly runId: string,
    private readonly columns: Columns,
    private readonly prefix: 'part' | 'inputs' = 'part',
  ) {}

  async write(rows: Record<string, unknown>[]): Promise<string | undefined> {
    if (rows.length === 0) return undefined;
    await mkdir(this.stageDir, { recursive: true });
    await mkdir(this.tmpDir, { recursive: true });
    const n = String(this.seq++).padStart(5, '0');
    const base = `${this.prefix}-${this.runId}-${n}`;
    // Temporary names are unique per write: two writers of one run (rows, ledger) never collide.
    const nonce = randomBytes(4).toString('hex');
    const ndjson = join(this.tmpDir, `${base}.${nonce}.ndjson`);
    const tmpParquet = join(this.stageDir, `.${base}.${nonce}.parquet.tmp`);
    const final = join(this.stageDir, `${base}.parquet`);
    await writeFile(ndjson, rows.map((r) => JSON.stringify(this.clean(r))).join('\n') + '\n');
    const spec = Object.entries(this.columns)
      .map(([name, type]) => `${sqlString(name)}: ${sqlString(type)}`)
      .join(', ');
    const select = Object.keys(this.columns).map((c) => `"${c}"`).join(', ');
    try {
      await this.duck.exec(
        `COPY (SELECT ${select} FROM read_json(${sqlString(ndjson)}, format='newline_delimited', columns={${spec}}, ` +
          `timestampformat='%Y-%m-%d %H:%M:%S.%g', dateformat='%Y-%m-%d')) TO ${sqlString(tmpParquet)} (FORMAT parquet, COMPRESSION zstd)`,
      );
      await rename(tmpParquet, final);
    } finally {
      await rm(ndjson, { force: true });
      await rm(tmpParquet, { force: true });
    }
    return final;
  }

  private clean(row: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(this.columns)) {
      const v = row[name];
      if (v === undefined || v === null) out[name] = null;
      else if (this.columns[name] === 'JSON') out[name] = JSON.parse(redact(JSON.stringify(v)));
      else out[name] = redactValue(v);
    }
    return out;
  }
}
