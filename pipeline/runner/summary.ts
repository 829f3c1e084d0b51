import Table from 'cli-table3';
import type { Status } from '../stage.js';

export interface StageSummary {
  stage: string;
  runId: string;
  inputs: number;
  done: number;
  otherShards: number;
  deferred: number;
  processed: number;
  counts: Record<Status, number>;
  /** `rejected:<code>` / `error:<code>` → count, datatrove's dropped_<reason> counters. */
  reasons: Record<string, number>;
  durationMs: number;
  interrupted: boolean;
  parts: number;
}

export function emptySummary(stage: string, runId: string): StageSummary {
  return {
    stage,
    runId,
    inputs: 0,
    done: 0,
    otherShards: 0,
    deferred: 0,
    processed: 0,
    counts: { accepted: 0, rejected: 0, error: 0 },
    reasons: {},
    durationMs: 0,
    interrupted: false,
    parts: 0,
  };
}

export function renderSummaries(summaries: readonly StageSummary[], topReasons = 5): string {
  const table = new Table({
    head: ['stage', 'inputs', 'already done', 'processed', 'accepted', 'rejected', 'error', 'duration'],
    style: { head: [], border: [] },
  });
  for (const s of summaries) {
    table.push([
      s.stage + (s.interrupted ? ' (interrupted)' : ''),
      s.inputs,
      s.done,
      s.processed,
      s.counts.accepted,
      s.counts.rejected,
      s.counts.error,
      formatDuration(s.durationMs),
    ]);
  }
  const lines = [table.toString()];
  for (const s of summaries) {
    const top = Object.entries(s.reasons)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, topReasons);
    if (top.length > 0) lines.push(`${s.stage} top reasons: ${top.map(([r, n]) => `${r} ${n}`).join(', ')}`);
    const notes = [];
    if (s.otherShards > 0) notes.push(`${s.otherShards} inputs belong to other shards`);
    if (s.deferred > 0) notes.push(`${s.deferred} pending inputs left for a later run (--limit)`);
    if (notes.length > 0) lines.push(`${s.stage}: ${notes.join('; ')}`);
  }
  return lines.join('\n');
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}
