import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReproduceEcosystem } from '../../pipeline/config/conflict-sections.js';
import { ensureCheckout } from '../../pipeline/git/clone-cache.js';
import { GitFailure } from '../../pipeline/git/git-failure.js';
import { SandboxError, type RunResult } from '../../pipeline/sandbox/container-run.js';
import { sandboxFor, scriptsDir } from '../../pipeline/sandbox/sandbox.js';
import { accept, fail, reject, type Cells, type Columns, type Item, type Outcome, type Stage, type StageContext } from '../../pipeline/stage.js';
import { cloneUrl, clonesRoot } from '../clone/index.js';
import { TASK_TYPE, instanceId, problemStatement } from './setupbench-entry.js';

/**
 * reproduce: SetupBench's check that a mined conflict is real (appendix C.2). On a copy of the
 * repository at its base commit, in the ecosystem's sandbox, the install commands run in order;
 * the conflict is `reproduced` when the ecosystem's error regex matches their output (not when
 * the install works). The escape hatch (npm's --legacy-peer-deps, `bundle update`) then runs on
 * a pristine copy: its exit code is evidence that the task can be solved. Each reproduced
 * conflict becomes a SetupBench dependency_resolution entry (all its fields are columns).
 */

const columns = {
  // The SetupBench entry, field for field.
  ecosystem: 'VARCHAR',
  repo: 'VARCHAR',
  issue_number: 'BIGINT',
  issue_url: 'VARCHAR',
  comment_id: 'BIGINT',
  snippet: 'VARCHAR',
  base_commit: 'VARCHAR',
  success_command: 'VARCHAR',
  instance_id: 'VARCHAR',
  problem_statement: 'VARCHAR',
  task_type: 'VARCHAR',
  /** The OS image the sandbox images build FROM (sandbox.base_image). */
  base_image: 'VARCHAR',
  repo_url: 'VARCHAR',
  /** The sandbox image the conflict was reproduced in (envforge/<image>:<content hash>). */
  image_tag: 'VARCHAR',
  // What the reproduction saw.
  image_id: 'VARCHAR',
  install_commands: 'VARCHAR[]',
  /** `<exit code>` per install command, in order (124: killed at reproduce.timeout_seconds). */
  install_exit_codes: 'VARCHAR[]',
  reproduced: 'BOOLEAN',
  matched_line: 'VARCHAR',
  escape_hatch: 'VARCHAR',
  escape_hatch_exit_code: 'INTEGER',
  escape_hatch_passed: 'BOOLEAN',
  timed_out: 'BOOLEAN',
  run_ms: 'BIGINT',
  log: 'VARCHAR',
  log_bytes: 'BIGINT',
  log_truncated: 'BOOLEAN',
} satisfies Columns;

const DRIVER = 'reproduce-install.sh';

export const reproduceStage: Stage<Item> = {
  name: 'reproduce',
  version: 1,
  description: "run the ecosystem's install commands at the base commit in a sandbox; keep conflicts whose error is reproduced",
  input: 'locate',
  configSections: ['reproduce', 'sandbox'],
  columns,
  key: (row) => String(row.key),
  async preflight(ctx) {
    await sandboxFor(ctx, 'reproduce').check();
  },
  async run(row, ctx): Promise<Outcome> {
    const s = ctx.config.config.reproduce;
    const repo = String(row.repo);
    const ecosystem = String(row.ecosystem);
    const baseCommit = String(row.base_commit);
    const base: Cells = {
      ecosystem,
      repo,
      issue_number: Number(row.issue_number),
      issue_url: String(row.issue_url),
      comment_id: Number(row.comment_id),
      snippet: String(row.snippet),
      base_commit: baseCommit,
      repo_url: `https://github.com/${repo}`,
      base_image: ctx.config.config.sandbox.base_image,
    };
    const eco = s.ecosystems[ecosystem];
    if (!eco) return fail('unknown_ecosystem', `no [reproduce.ecosystems.${ecosystem}] in the config (image and install commands)`, base);
    const errorRegex = regexFor(eco, ecosystem, ctx);
    if (!errorRegex) return fail('unknown_ecosystem', `no error regex for ${ecosystem}: set reproduce.ecosystems.${ecosystem}.error_regex`, base);
    const successCommand = eco.success_command || eco.install[0]!;
    Object.assign(base, {
      success_command: successCommand,
      instance_id: instanceId(repo, baseCommit),
      problem_statement: problemStatement(successCommand),
      task_type: TASK_TYPE,
      install_commands: eco.install,
      escape_hatch: eco.escape_hatch || null,
    });

    const [owner, name] = repo.split('/') as [string, string];
    const clone = ctx.config.config.clone;
    let checkout;
    try {
      checkout = await ensureCheckout({
        url: cloneUrl(clone.url_template, repo),
        owner,
        repo: name,
        revision: baseCommit,
        depth: 1,
        blobFilter: false,
        root: clonesRoot(ctx.cacheDir),
        timeoutMs: clone.timeout_seconds * 1000,
        signal: ctx.signal,
      });
    } catch (err) {
      if (err instanceof GitFailure) return fail(err.code, err.message, base);
      throw err;
    }

    const sandbox = sandboxFor(ctx, 'reproduce');
    const image = await sandbox.image(eco.image);
    Object.assign(base, { image_tag: image.tag, image_id: image.id });
    const steps = eco.install.map((cmd, i) => ({ path: `/envforge/steps/install-${String(i + 1).padStart(2, '0')}.sh`, content: `${cmd}\n` }));
    if (eco.escape_hatch) steps.push({ path: '/envforge/steps/escape.sh', content: `${eco.escape_hatch}\n` });
    const driver = { path: `/envforge/${DRIVER}`, content: await readFile(join(scriptsDir(), DRIVER)), mode: 0o755 };
    let res: RunResult;
    try {
      res = await sandbox.run({
        key: String(row.key),
        image: image.tag,
        cmd: ['bash', `/envforge/${DRIVER}`],
        copies: [{ hostDir: join(clonesRoot(ctx.cacheDir), checkout.path), containerPath: '/repo' }],
        files: [driver, ...steps],
        workdir: '/repo',
        env: { ENVFORGE_STEP_TIMEOUT: String(s.timeout_seconds), ENVFORGE_ALWAYS_ESCAPE: s.escape_when_not_reproduced ? '1' : '0' },
        timeoutMs: (s.timeout_seconds * (steps.length + 1) + 60) * 1000,
        collect: '/envforge/out',
      });
    } catch (err) {
      if (err instanceof SandboxError) return fail(`infra_${err.phase}`, err.message, base);
      throw err;
    }
    if (res.aborted) throw new Error('interrupted');
    const cells: Cells = { ...base, timed_out: res.timedOut, run_ms: res.durationMs, log: res.log, log_bytes: res.logBytes, log_truncated: res.logTruncated };
    if (res.timedOut) return fail('timeout', `no result within the container's limit (reproduce.timeout_seconds per command)`, cells);
    const decided = decide(res.files, eco, errorRegex);
    Object.assign(cells, decided.cells);
    if (decided.exits.size === 0) {
      return fail(res.oomKilled ? 'oom' : 'infra_no_result', res.oomKilled ? 'killed at the memory limit (sandbox.memory_mb)' : `the driver wrote no result (container exit ${res.exitCode})`, cells);
    }
    if (decided.reproduced) return accept(cells);
    const installCodes = eco.install.map((_c, i) => decided.exits.get(`install-${String(i + 1).padStart(2, '0')}`));
    const lastLines = tail(decided.output, 3);
    if (installCodes.includes(124)) return fail('timeout', `an install command ran longer than ${s.timeout_seconds} s (reproduce.timeout_seconds)`, cells);
    if (installCodes.every((c) => c === 0)) return reject('installs_cleanly', `every install command exits 0 at ${baseCommit.slice(0, 12)}: no conflict to reproduce`, cells);
    if (eco.unreachable_regex && new RegExp(eco.unreachable_regex, 'i').test(decided.output)) {
      return fail('registry_unreachable', `the package registry could not be reached, so the run says nothing about the conflict: ${lastLines}`, cells);
    }
    return reject('not_reproduced', `the install failed without the ecosystem's error: ${lastLines}`, cells);
  },
};

function regexFor(eco: ReproduceEcosystem, ecosystem: string, ctx: StageContext): RegExp | undefined {
  const text = eco.error_regex || ctx.config.config.conflicts?.ecosystems[ecosystem]?.regex;
  return text ? new RegExp(text, 'i') : undefined;
}

/** Reads the driver's result files: exit codes per step, the install output, the decision. */
export function decide(files: Map<string, Buffer>, eco: Pick<ReproduceEcosystem, 'install'>, errorRegex: RegExp) {
  const exits = new Map<string, number>();
  for (const line of (files.get('exits')?.toString('utf8') ?? '').split('\n')) {
    const m = /^([\w-]+)=(\d+)$/.exec(line.trim());
    if (m) exits.set(m[1]!, Number(m[2]));
  }
  const names = eco.install.map((_c, i) => `install-${String(i + 1).padStart(2, '0')}`);
  const output = names.map((n) => files.get(`${n}.log`)?.toString('utf8') ?? '').join('\n');
  const matched = output.split(/\r?\n/).find((l) => errorRegex.test(l)) ?? (errorRegex.test(output) ? (errorRegex.exec(output)?.[0] ?? '') : undefined);
  const escape = exits.get('escape');
  return {
    exits,
    output,
    reproduced: matched !== undefined,
    cells: {
      install_exit_codes: names.filter((n) => exits.has(n)).map((n) => String(exits.get(n))),
      reproduced: matched !== undefined,
      matched_line: matched ?? null,
      escape_hatch_exit_code: escape ?? null,
      escape_hatch_passed: escape === undefined ? null : escape === 0,
    } satisfies Cells,
  };
}

function tail(text: string, n: number): string {
  return text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).slice(-n).join(' | ').slice(0, 400);
}
