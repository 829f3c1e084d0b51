import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../pipeline/cli/commands/run.js';
import { sqlCommand } from '../pipeline/cli/commands/query.js';
import type { Io } from '../pipeline/cli/context.js';
import { GRAPH } from '../pipeline/graph.js';
import { requireBaseImage, requireDocker } from './helpers/docker.js';
import { makeRemote } from './helpers/git-fixtures.js';
import { tempDirs } from './helpers/temp-dir.js';
import { INSTALL_LOCAL_NUMPY, NEEDS_NUMPY } from './helpers/trajectory-fixtures.js';

/**
 * `envforge run evaluate` on a scripts JSONL in real containers, on a generated repository whose
 * code imports numpy: EnvBench's input `{repository, revision, script}` (a script that installs
 * the module passes; one that does not leaves a missing import; one that fails is a setup
 * failure), SetupBench records (success_command), an EnConda record (process scores + the
 * script end to end) and a malformed line.
 */
const dirs = tempDirs();
const io: Io = { out: () => {}, err: { write: () => true } as unknown as NodeJS.WritableStream, tty: false };
let config = '';
let sha = '';

beforeAll(async () => {
  await requireBaseImage(await requireDocker());
  const dir = dirs.make('envforge-evaluate-');
  sha = makeRemote(join(dir, 'remotes'), 'gen/needs-numpy', [NEEDS_NUMPY]).shas[0]!;
  const lines = [
    { repository: 'gen/needs-numpy', revision: sha, script: `#!/bin/bash\nset -e\npip install -r requirements.txt\n${INSTALL_LOCAL_NUMPY}\n`, instance_id: 'installs' },
    { repository: 'gen/needs-numpy', revision: sha, script: '#!/bin/bash\nset -e\npip install -r requirements.txt\n', instance_id: 'forgets' },
    { repository: 'gen/needs-numpy', revision: sha, script: 'echo broken; exit 3\n', instance_id: 'breaks' },
    { repo: 'gen/needs-numpy', base_commit: sha, success_command: 'test -f app/__init__.py', ecosystem: 'pip-conflict', instance_id: 'deps-ok' },
    { repo: 'gen/needs-numpy', base_commit: sha, success_command: 'grep -q numpy requirements.txt', ecosystem: 'pip-conflict', instance_id: 'deps-fail' },
    {
      repository: 'gen/needs-numpy', revision: sha, instance_id: 'gen_needs-numpy_error_readme_1',
      gold: { readme: 'gen_needs-numpy_error_readme_1', repo_name: 'gen_needs-numpy', level: 'level2', errors: [
        { error_type: 'E1', error_description: 'numpy is not installed', correction_candidates: ['a', 'b', 'c', 'd'], golden_answer: 'a' },
        { error_type: 'E4', error_description: 'wrong path', correction_candidates: ['a', 'b', 'c', 'd'], golden_answer: 'b' },
      ] },
      agent_output: { repo_name: 'gen_needs-numpy', readme_name: 'gen_needs-numpy_error_readme_1', errors: [{ error_type: 'E1', error_description: 'numpy missing', fix_answer: 'install numpy' }, { error_type: 'E2', error_description: 'bad flag', fix_answer: 'x' }], shell_script: INSTALL_LOCAL_NUMPY, raw_output: '' },
    },
  ];
  writeFileSync(join(dir, 'scripts.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\nnot json\n');
  config = join(dir, 'c.toml');
  writeFileSync(
    config,
    `dataset = "e"\ndata_dir = ${JSON.stringify(join(dir, 'data'))}\n[run]\nlog_level = "silent"\n` +
      `[clone]\nurl_template = "file://${dir}/remotes/{owner}/{repo}.git"\nmin_free_gb = 0\n` +
      `[sandbox]\nca_bundle = "/etc/ssl/certs/ca-certificates.crt"\n[evaluate]\nscripts = ${JSON.stringify(join(dir, 'scripts.jsonl'))}\ntimeout_seconds = 300\n`,
  );
}, 600_000);
afterAll(() => dirs.cleanup());

describe('evaluate (Docker): each benchmark\'s own rule on scripts', () => {
  it('scores EnvBench scripts with the pass rule and the missing-import count, SetupBench commands by exit code, EnConda by type sets', async () => {
    const [summary] = await runCommand(['evaluate'], { config }, GRAPH, io);
    expect(summary!.counts).toEqual({ accepted: 3, rejected: 3, error: 1 });
    const rows = await sqlCommand(
      `select key, status, reason, exit_code, issues_count, missing_modules, family, precision, recall, f1, description_score, envbench_result, container_logs from evaluate order by key`,
      { config, format: 'json' },
      GRAPH,
      io,
    );
    const by = Object.fromEntries(rows.map((r) => [String(r.key), r]));
    expect(by.installs).toMatchObject({ status: 'accepted', exit_code: 0, issues_count: 0, family: 'python' });
    expect(by.forgets).toMatchObject({ status: 'rejected', reason: 'missing_imports', exit_code: 0, missing_modules: ['numpy'] });
    expect(Number(by.forgets!.issues_count)).toBeGreaterThan(0);
    expect(by.breaks).toMatchObject({ status: 'rejected', reason: 'setup_failed', exit_code: 3 });
    expect(by['deps-ok']).toMatchObject({ status: 'accepted', exit_code: 0 });
    expect(by['deps-fail']).toMatchObject({ status: 'rejected', reason: 'command_failed', exit_code: 1 });
    // EnConda: {E1, E2} against {E1, E4}; no judge configured → description/fix scores off.
    expect(by['gen_needs-numpy_error_readme_1']).toMatchObject({ status: 'accepted', precision: 0.5, recall: 0.5, f1: 0.5, description_score: null });
    expect(by['#line-7']).toMatchObject({ status: 'error', reason: 'malformed_record' });
    // EnvBench's result record, field for field.
    const result = (typeof by.forgets!.envbench_result === 'string' ? JSON.parse(by.forgets!.envbench_result) : by.forgets!.envbench_result) as Record<string, unknown>;
    expect(Object.keys(result)).toEqual(['exit_code', 'execution_time', 'repo_name', 'commit_sha', 'container_logs', 'issues_count', 'pyright']);
    expect(result).toMatchObject({ repo_name: 'gen/needs-numpy', commit_sha: sha, issues_count: 1 });
    expect(JSON.stringify(result.pyright)).toContain('reportMissingImports');
  }, 600_000);
});
