import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { GRAPH } from '../pipeline/graph.js';
import { runCommand } from '../pipeline/cli/commands/run.js';
import { sqlCommand } from '../pipeline/cli/commands/query.js';
import { reviewExportCommand, reviewImportCommand, reviewStatusCommand, type ReviewEntry } from '../pipeline/cli/commands/review.js';
import type { Io } from '../pipeline/cli/context.js';
import { ArtifactStore } from '../pipeline/store/artifact-store.js';
import { layoutFor } from '../pipeline/store/layout.js';
import { timestampText } from '../pipeline/runner/cells.js';
import { validateStage } from '../stages/validate/index.js';
import { injectRow, injectedError, lineEdit } from './helpers/validate-fixture.js';
import { openAiServer, type OpenAiServer } from './servers/openai-server.js';
import { tempDirs } from './helpers/temp-dir.js';

/**
 * review and tiers on validate rows written as the validate stage writes them (no Docker): the
 * LLM filter against the scripted OpenAI-compatible server, the human review file exported,
 * edited and imported back, the agreement rate, and the decisions taking effect in tiers.
 */
const dirs = tempDirs();
const lines: string[] = [];
const io: Io = { out: (t) => lines.push(t), err: { write: () => true } as unknown as NodeJS.WritableStream, tty: false };
const ORIGINAL = ['# r', '', '```bash', 'python -m venv .venv', 'ls src', 'python tool.py --name x', 'cat setup.cfg', '```', ''].join('\n');
let server: OpenAiServer;
let config = '';
let offline = '';

beforeAll(async () => {
  // The filter keeps every error but those whose prompt mentions `--nmae`.
  server = await openAiServer({
    respond: (body) => {
      const prompt = body.messages.map((m) => m.content).join('\n');
      const keep = !prompt.includes('--nmae');
      const criteria = { realistic: true, single_cause: true, description_matches: keep, golden_fixes: true, not_trivially_detectable: true };
      return { content: JSON.stringify({ verdict: keep ? 'keep' : 'reject', criteria, rationale: keep ? 'a plausible typo' : 'description does not match' }) };
    },
  });
  const dir = dirs.make('envforge-review-');
  const common = `data_dir = ${JSON.stringify(join(dir, 'data'))}\n[run]\nlog_level = "silent"\n[llm.models.judge]\nmodel = "judge-1"\nbase_url = "${server.baseUrl}"\n`;
  config = join(dir, 'c.toml');
  writeFileSync(config, `dataset = "rv"\n${common}[review]\nmodel = "judge"\n`);
  offline = join(dir, 'off.toml');
  writeFileSync(offline, `dataset = "off"\n${common}`);

  // Two instances of one repository, all errors valid; written as validate rows.
  const e = (type: string, line: number, text: string) => injectedError(type, lineEdit(ORIGINAL, line, line, [text]));
  const inst = [
    injectRow('o/r', 'o_r_error_readme_1', ORIGINAL, [e('E4', 5, 'ls scr'), e('E2', 6, 'python tool.py --nmae x')]),
    injectRow('o/r', 'o_r_error_readme_2', ORIGINAL, [e('E1', 4, 'python -m venv .venv --offline'), e('E4', 7, 'cat setup.cgf')]),
  ];
  for (const dataset of ['rv', 'off']) {
    const store = await ArtifactStore.open(layoutFor(join(dir, 'data'), dataset));
    const rows = inst.map((r) => ({
      ...r,
      original_text: ORIGINAL,
      input_key: r.key,
      status: 'accepted',
      verdicts: (r.errors as unknown[]).map((x, i) => ({ index: i + 1, error_type: (x as { error_type: string }).error_type, valid: true, reason: 'valid', reason_text: 'fails', failing_step: { n: 1, line: 4, text: 'x', exit_code: 2 }, output_excerpt: 'No such file', original_step: null })),
      valid_errors: 2,
      run_id: '20240101T000000000Z-test',
      created_at: timestampText(new Date()),
    }));
    await store.writer(validateStage, '20240101T000000000Z-test').write(rows);
    store.close();
  }
});
afterAll(async () => {
  await server.close();
  dirs.cleanup();
});

describe('review and tiers', () => {
  it('filters with the LLM, exports the review file, imports human decisions, reports agreement, and tiers follows them', async () => {
    const [review, tiers] = await runCommand(['review', 'tiers'], { config }, GRAPH, io);
    expect(review!.counts).toEqual({ accepted: 2, rejected: 0, error: 0 });
    expect(server.hits()).toBe(4);
    const reviews = await sqlCommand(`select key, kept_count, llm_review from review order by key`, { config, format: 'json' }, GRAPH, io);
    expect(reviews.map((r) => [r.key, r.kept_count, r.llm_review])).toEqual([
      ['o_r_error_readme_1', 1, 'done'],
      ['o_r_error_readme_2', 2, 'done'],
    ]);
    expect(tiers!.counts.accepted).toBeGreaterThan(0);

    const { file, entries } = await reviewExportCommand({ config }, GRAPH, io);
    expect(entries.map((x) => [x.error_id, x.llm_verdict, x.decision])).toEqual([
      ['o_r_error_readme_1#1', 'keep', null],
      ['o_r_error_readme_1#2', 'reject', null],
      ['o_r_error_readme_2#1', 'keep', null],
      ['o_r_error_readme_2#2', 'keep', null],
    ]);
    expect(entries[0]!.diff).toContain('-ls src\n+ls scr');
    expect(entries[0]!.evidence.failing_step).toBe('line 4: x (exit 2)');

    // A human accepts three (one the LLM rejected), rejects one the LLM kept, leaves none open.
    const edited = YAML.parse(readFileSync(file, 'utf8')) as ReviewEntry[];
    const decide: Record<string, 'accept' | 'reject'> = { 'o_r_error_readme_1#1': 'accept', 'o_r_error_readme_1#2': 'accept', 'o_r_error_readme_2#1': 'reject', 'o_r_error_readme_2#2': 'accept' };
    for (const x of edited) x.decision = decide[x.error_id]!;
    writeFileSync(file, YAML.stringify(edited));
    const before = server.hits();
    const result = await reviewImportCommand(file, { config, reviewer: 'ana' }, GRAPH, io);
    expect(result.imported).toBe(4);
    // Agreement: #1 keep/accept yes, #2 reject/accept no, 2#1 keep/reject no, 2#2 keep/accept yes.
    expect(result.agreement).toMatchObject({ compared: 4, agreed: 2, rate: 0.5 });
    expect(server.hits()).toBe(before); // the rerun of review is served from the response cache
    const after = await sqlCommand(`select key, kept_count, human_decisions from review order by key`, { config, format: 'json' }, GRAPH, io);
    expect(after.map((r) => [r.key, r.kept_count, r.human_decisions])).toEqual([
      ['o_r_error_readme_1', 2, 2],
      ['o_r_error_readme_2', 1, 2],
    ]);
    const t = await sqlCommand(`select key, level, error_types from tiers where status = 'accepted' order by key`, { config, format: 'json' }, GRAPH, io);
    expect(t.map((r) => [r.key, r.level, r.error_types])).toEqual([
      ['error_gen_o_r_error_readme_merge_k2', 'level3', ['E4', 'E2', 'E4']],
      ['o_r_error_readme_1', 'level2', ['E4', 'E2']],
      ['o_r_error_readme_1_only_E2', 'level1', ['E2']],
      ['o_r_error_readme_1_only_E4', 'level1', ['E4']],
      ['o_r_error_readme_2', 'level1', ['E4']],
    ]);
    const decisions = await sqlCommand(`select error_id, decision, reviewer, llm_verdict from review_decisions order by error_id`, { config, format: 'json' }, GRAPH, io);
    expect(decisions.map((d) => [d.decision, d.reviewer])).toEqual([['accept', 'ana'], ['accept', 'ana'], ['reject', 'ana'], ['accept', 'ana']]);

    // Exporting again carries the decisions; status reports the funnel and the agreement.
    const again = await reviewExportCommand({ config }, GRAPH, io);
    expect(again.entries.map((x) => x.decision)).toEqual(['accept', 'accept', 'reject', 'accept']);
    lines.length = 0;
    const st = await reviewStatusCommand({ config }, GRAPH, io);
    expect(st.funnel).toMatchObject({ valid: 4, kept: 3, tierInstances: 5 });
    expect(lines.join('\n')).toContain('LLM↔human agreement: 50.0% (2 of 4 errors; 4 human decisions)');
  });

  it('without a model the LLM filter is skipped and every valid error awaits a human', async () => {
    const [review] = await runCommand(['review', 'tiers'], { config: offline }, GRAPH, io);
    expect(review!.counts).toEqual({ accepted: 2, rejected: 0, error: 0 });
    const rows = await sqlCommand(`select llm_review, kept_count from review order by key`, { config: offline, format: 'json' }, GRAPH, io);
    expect(rows).toEqual([
      { llm_review: 'skipped', kept_count: 2 },
      { llm_review: 'skipped', kept_count: 2 },
    ]);
    const { entries } = await reviewExportCommand({ config: offline }, GRAPH, io);
    expect(entries.every((x) => x.llm_verdict === 'skipped')).toBe(true);
    const tiers = await sqlCommand(`select key from tiers where status = 'accepted' and kind = 'merge'`, { config: offline, format: 'json' }, GRAPH, io);
    expect(tiers.map((r) => r.key)).toEqual(['error_gen_o_r_error_readme_merge_k2']);
  });
});
