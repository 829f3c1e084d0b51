import Table from 'cli-table3';
import { ConfigError, SetupError, messageOf } from '../../errors.js';
import { findStage, type StageGraph } from '../../graph-types.js';
import { openCatalog } from '../../store/catalog.js';
import { sqlIdent, sqlString } from '../../store/duck.js';
import { openContext, type GlobalOptions, type Io } from '../context.js';

export type OutputFormat = 'table' | 'json' | 'csv';

export interface SqlOptions extends GlobalOptions {
  format?: OutputFormat;
}

/** `envforge sql "<query>"`: any DuckDB query over the catalog's views (one per stage). */
export async function sqlCommand(query: string, opts: SqlOptions, graph: StageGraph, io: Io): Promise<Record<string, unknown>[]> {
  const ctx = await openContext(opts, io);
  const duck = await openCatalog(ctx.layout, graph.stages);
  try {
    let res;
    try {
      res = await duck.describe(query);
    } catch (err) {
      throw new ConfigError(`sql: ${messageOf(err).split('\n')[0]}`);
    }
    io.out(formatRows(res.names, res.rows, opts.format ?? 'table'));
    return res.rows;
  } finally {
    duck.close();
  }
}

export interface ShowOptions extends GlobalOptions {
  status?: string;
  reason?: string;
  limit?: number;
  columns?: string;
  format?: OutputFormat;
}

const SHOW_DEFAULT = ['key', 'status', 'reason', 'reason_text'];

/** `envforge show <stage>`: the stage's current rows, filtered by status or reason. */
export async function showCommand(stageName: string, opts: ShowOptions, graph: StageGraph, io: Io): Promise<Record<string, unknown>[]> {
  const stage = findStage(graph, stageName);
  if (!stage) throw new ConfigError(`show: unknown stage "${stageName}" (stages: ${graph.stages.map((s) => s.name).join(', ')})`);
  if (opts.status && !['accepted', 'rejected', 'error'].includes(opts.status)) {
    throw new ConfigError(`show --status ${JSON.stringify(opts.status)}: expected accepted, rejected or error`);
  }
  const known = new Set([...SHOW_DEFAULT, 'input_key', 'run_id', 'created_at', 'duration_ms', 'config_hash', 'stage_version', ...Object.keys(stage.columns)]);
  const columns = opts.columns ? opts.columns.split(',').map((c) => c.trim()) : [...SHOW_DEFAULT, ...Object.keys(stage.columns).slice(0, 3)];
  const unknown = columns.filter((c) => !known.has(c));
  if (unknown.length > 0) throw new ConfigError(`show --columns: stage ${stage.name} has no column ${unknown.join(', ')}`);
  const where = [
    opts.status ? `status = ${sqlString(opts.status)}` : undefined,
    opts.reason ? `reason = ${sqlString(opts.reason)}` : undefined,
  ].filter(Boolean);
  const ctx = await openContext(opts, io);
  const duck = await openCatalog(ctx.layout, graph.stages);
  try {
    const sql =
      `SELECT ${columns.map(sqlIdent).join(', ')} FROM ${sqlIdent(stage.name)}` +
      (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
      ` ORDER BY key LIMIT ${opts.limit ?? 50}`;
    const res = await duck.describe(sql).catch((err: unknown) => {
      throw new SetupError(`show: ${messageOf(err).split('\n')[0]}`);
    });
    io.out(formatRows(res.names, res.rows, opts.format ?? 'table'));
    return res.rows;
  } finally {
    duck.close();
  }
}

export function formatRows(names: string[], rows: Record<string, unknown>[], format: OutputFormat): string {
  if (format === 'json') return rows.map((r) => JSON.stringify(r)).join('\n');
  if (format === 'csv') {
    const cell = (v: unknown) => {
      const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
      return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    };
    return [names.map(cell).join(','), ...rows.map((r) => names.map((n) => cell(r[n])).join(','))].join('\n');
  }
  const table = new Table({ head: names, style: { head: [], border: [] }, wordWrap: true });
  for (const r of rows) {
    table.push(names.map((n) => {
      const v = r[n];
      const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
      return s.length > 120 ? s.slice(0, 117) + '...' : s;
    }));
  }
  return `${table.toString()}\n(${rows.length} row${rows.length === 1 ? '' : 's'})`;
}
