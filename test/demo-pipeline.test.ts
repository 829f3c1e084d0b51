import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPH } from '../pipeline/graph.js';
import { runCommand } from '../pipeline/cli/commands/run.js';
import { sqlCommand } from '../pipeline/cli/commands/query.js';
import type { Io } from '../pipeline/cli/context.js';
import { tempDirs } from './helpers/temp-dir.js';
import { demoConfig } from './helpers/demo-config.js';

/** The main job on the committed samples: search → clone → inspect as `make demo` runs them (baseline: baseline.docker.test.ts). */
const dirs = tempDirs();
let config = '';
const io: Io = { out: () => {}, err: { write: () => true } as unknown as NodeJS.WritableStream, tty: false };

beforeAll(async () => {
  config = await demoConfig(dirs.make('envforge-demo-'));
});
afterAll(() => dirs.cleanup());

describe('the demo pipeline on the committed samples', () => {
  it('decides every sample repository as EnvBench would', async () => {
    const summaries = await runCommand(['search', 'clone', 'inspect'], { config }, GRAPH, io);
    expect(summaries.map((s) => [s.stage, s.counts])).toEqual([
      ['search', { accepted: 18, rejected: 13, error: 5 }],
      ['clone', { accepted: 15, rejected: 0, error: 3 }],
      ['inspect', { accepted: 10, rejected: 5, error: 0 }],
    ]);
    const rows = await sqlCommand(`select key, status, reason, manager from inspect order by key`, { config, format: 'json' }, GRAPH, io);
    const decisions = Object.fromEntries(rows.map((r) => [String(r.key).replace('envforge-demo/', ''), r.status === 'accepted' ? `accepted:${r.manager}` : r.reason]));
    expect(decisions).toEqual({
      'gradle-groovy': 'accepted:gradle',
      'gradle-kotlin': 'accepted:gradle',
      'gradle-monorepo': 'monorepo',
      'malformed-pom': 'accepted:maven',
      'malformed-pyproject': 'accepted:pip',
      'maven-app': 'accepted:maven',
      'maven-multimodule': 'monorepo',
      'no-manager': 'no_dependency_manager',
      'pip-and-poetry': 'multiple_dependency_managers',
      'pip-requirements': 'accepted:pip',
      'pip-setuptools': 'accepted:pip',
      'pip-trivial': 'accepted:pip',
      'pip-undeclared': 'accepted:pip',
      'pip-with-docker': 'has_docker',
      'poetry-app': 'accepted:poetry',
    });
    const malformed = await sqlCommand(`select key, findings from inspect where len(findings) > 0 order by key`, { config }, GRAPH, io);
    expect(malformed.map((r) => r.key)).toEqual(['envforge-demo/malformed-pom', 'envforge-demo/malformed-pyproject']);
    const clones = await sqlCommand(`select key, reason from clone where status = 'error' order by key`, { config }, GRAPH, io);
    expect(clones).toEqual([
      { key: 'envforge-demo/vanished', reason: 'repo_unavailable' },
      { key: 'popular/django-plugin', reason: 'repo_unavailable' },
      { key: 'thresholds/exactly-2024', reason: 'repo_unavailable' },
    ]);
  });

  it('pins the evaluate sample to the revisions the demo templates produce', async () => {
    // Template commits are deterministic (fixed author and date), so a template edit changes
    // its SHA: the committed scripts sample must follow, or `make demo`'s evaluate breaks.
    const sample = readFileSync(resolve('data/samples/evaluate/scripts.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { repository: string; revision: string });
    const rows = await sqlCommand(`select key, revision from clone where status = 'accepted'`, { config }, GRAPH, io);
    const cloned = new Map(rows.map((r) => [String(r.key), String(r.revision)]));
    expect(sample.length).toBeGreaterThan(0);
    for (const s of sample) expect(cloned.get(s.repository), s.repository).toBe(s.revision);
  });

  it('does no work on a rerun', async () => {
    const summaries = await runCommand(['search', 'clone', 'inspect'], { config }, GRAPH, io);
    expect(summaries.map((s) => [s.stage, s.processed])).toEqual([
      ['search', 0],
      ['clone', 0],
      ['inspect', 0],
    ]);
  });
});
