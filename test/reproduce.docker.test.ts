import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../pipeline/cli/commands/run.js';
import { sqlCommand } from '../pipeline/cli/commands/query.js';
import type { Io } from '../pipeline/cli/context.js';
import { GRAPH } from '../pipeline/graph.js';
import { requireBaseImage, requireDocker } from './helpers/docker.js';
import { makeRemote } from './helpers/git-fixtures.js';
import { tempDirs } from './helpers/temp-dir.js';

/**
 * A real reproduction: conflicts → locate → reproduce on generated repositories, npm running
 * inside the `node` sandbox against the real npm registry (through the host CA bundle).
 *   conflicted: react 17.0.2 + react-dom 18.2.0 (which peers react ^18.2.0), lockfile made with
 *               --legacy-peer-deps → `npm ci` fails with ERESOLVE; --legacy-peer-deps installs
 *   clean:      the same project with react 18.2.0 → `npm ci` installs: not reproduced
 */
const dirs = tempDirs();
const io: Io = { out: () => {}, err: { write: () => true } as unknown as NodeJS.WritableStream, tty: false };
const TEMPLATES = resolve('data/samples/conflict-repos/acme-web/storefront');
const project = (commit: string) => ({
  'package.json': readFileSync(join(TEMPLATES, commit, 'package.json'), 'utf8'),
  'package-lock.json': readFileSync(join(TEMPLATES, commit, 'package-lock.json'), 'utf8'),
});
let config = '';

beforeAll(async () => {
  await requireBaseImage(await requireDocker());
  const dir = dirs.make('envforge-reproduce-');
  const conflicted = makeRemote(join(dir, 'remotes'), 'gen/conflicted', [project('02-2023-03-02-upgrade-react-dom-to-18')]);
  makeRemote(join(dir, 'remotes'), 'gen/clean', [project('03-2023-05-20-upgrade-react-to-18')]);
  expect(conflicted.shas).toHaveLength(1);
  // makeRemote commits on 2024-01-01: issues opened a day later.
  const issue = (repo: string, number: number) => ({
    type: 'IssuesEvent', created_at: '2024-01-02T10:00:00Z', repo: { id: number, name: repo, url: '' },
    payload: { action: 'closed', issue: { id: 700 + number, number, state: 'closed', created_at: '2024-01-02T10:00:00Z', html_url: `https://github.com/${repo}/issues/${number}`, title: 'npm ci fails', body: 'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE could not resolve' } },
  });
  writeFileSync(join(dir, 'hour.json.gz'), gzipSync([issue('gen/conflicted', 1), issue('gen/clean', 2)].map((e) => JSON.stringify(e)).join('\n')));
  config = join(dir, 'c.toml');
  writeFileSync(
    config,
    `dataset = "r"\ndata_dir = ${JSON.stringify(join(dir, 'data'))}\n[run]\nlog_level = "silent"\n[conflicts]\ngharchive = [${JSON.stringify(join(dir, 'hour.json.gz'))}]\n` +
      `[clone]\nurl_template = "file://${dir}/remotes/{owner}/{repo}.git"\nmin_free_gb = 0\n` +
      `[sandbox]\nca_bundle = "/etc/ssl/certs/ca-certificates.crt"\n[reproduce]\ntimeout_seconds = 240\n`,
  );
}, 600_000);
afterAll(() => dirs.cleanup());

describe('reproduce (Docker, real npm registry)', () => {
  it('a genuine peer-dependency conflict is reproduced; the same project without it is not', async () => {
    const summaries = await runCommand(['conflicts', 'locate', 'reproduce'], { config }, GRAPH, io);
    expect(summaries.map((s) => [s.stage, s.counts])).toEqual([
      ['conflicts', { accepted: 2, rejected: 0, error: 0 }],
      ['locate', { accepted: 2, rejected: 0, error: 0 }],
      ['reproduce', { accepted: 1, rejected: 1, error: 0 }],
    ]);
    const rows = await sqlCommand(
      `select repo, status, reason, reproduced, matched_line, install_exit_codes, escape_hatch_passed, instance_id, base_commit, success_command, problem_statement, task_type, image_tag, log from reproduce order by repo`,
      { config, format: 'json' },
      GRAPH,
      io,
    );
    const [clean, conflicted] = rows;
    expect(conflicted).toMatchObject({
      repo: 'gen/conflicted', status: 'accepted', reproduced: true, matched_line: 'npm ERR! code ERESOLVE', install_exit_codes: ['1'], escape_hatch_passed: true,
      success_command: 'npm ci --ignore-scripts', task_type: 'dependency_resolution',
      problem_statement: 'There is a dependency conflict in this project when running npm ci --ignore-scripts. Please resolve the dependency conflict so that the command can run successfully.',
    });
    expect(conflicted!.instance_id).toBe(`deps-conflicted-${String(conflicted!.base_commit).slice(0, 5)}`);
    expect(String(conflicted!.image_tag)).toMatch(/^envforge\/node:[0-9a-f]{12}$/);
    expect(String(conflicted!.log)).toContain('peer react@"^18.2.0" from react-dom@18.2.0');
    expect(clean).toMatchObject({ repo: 'gen/clean', status: 'rejected', reason: 'installs_cleanly', reproduced: false, install_exit_codes: ['0'], escape_hatch_passed: null });
  }, 600_000);
});
