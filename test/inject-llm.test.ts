import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../pipeline/config/load.js';
import { SetupError } from '../pipeline/errors.js';
import type { StageGraph } from '../pipeline/graph-types.js';
import { silentLogger } from '../pipeline/log/logger.js';
import { clearSecrets } from '../pipeline/log/secrets.js';
import { runStage } from '../pipeline/runner/run-stage.js';
import { ArtifactStore } from '../pipeline/store/artifact-store.js';
import { openCatalog } from '../pipeline/store/catalog.js';
import { layoutFor } from '../pipeline/store/layout.js';
import type { Source } from '../pipeline/stage.js';
import { extractDoc } from '../stages/readme/extract.js';
import { injectStage } from '../stages/inject/index.js';
import { tempDirs } from './helpers/temp-dir.js';
import { openAiServer, type ChatBody, type OpenAiServer, type Step } from './servers/openai-server.js';

/** The inject stage with the llm injector, through the real runner, against the local OpenAI-compatible server. */

const KEY = 'sk-inject-test-5f2c9a7e1b';
const USAGE = { prompt_tokens: 2000, completion_tokens: 400 }; // $0.006 + $0.006 at $3/$15 per million
const dirs = tempDirs();
let server: OpenAiServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  dirs.cleanup();
  clearSecrets();
});

const README = { weatherkit: readFileSync(resolve('test/fixtures/readmes/pip.md'), 'utf8'), order: readFileSync(resolve('test/fixtures/readmes/maven.md'), 'utf8') };

const err = (type: string, original: string, injected: string) => ({
  error_type: type,
  error_description: `${original} was changed`,
  original_text: original,
  injected_text: injected,
  correction_candidates: [original, `${injected} --upgrade`, `sudo ${injected}`, `${original} --force`],
  golden_answer: original,
});

const ANSWERS = {
  weatherkit: { errors: [err('E4', 'pip install -r requirements.txt', 'pip install -r requirement.txt'), err('E7', 'python3.10 -m venv .venv', 'python2.7 -m venv .venv')] },
  order: { errors: [err('E2', 'mvn clean install -DskipTests', 'mvn clean instal -DskipTests'), err('E8', 'export SPRING_PROFILES_ACTIVE=local', 'export SPRING_PROFILE_ACTIVE=local')] },
};

/** Answers by README: the strong model "injects" the errors above. */
function respond(body: ChatBody): Step {
  const prompt = body.messages.map((m) => m.content).join('\n');
  const answer = prompt.includes('weatherkit') ? ANSWERS.weatherkit : ANSWERS.order;
  return { content: '```json\n' + JSON.stringify(answer) + '\n```', usage: USAGE };
}

const readmes: Source = {
  name: 'readmes',
  description: 'readme rows of two fixtures',
  read: () =>
    (
      [
        ['acme/weatherkit', README.weatherkit],
        ['shopco/order-service', README.order],
      ] as const
    ).map(([repository, text]) => ({ repository, revision: 'a'.repeat(40), doc_path: 'README.md', doc_text: text, steps: extractDoc('README.md', text).steps })),
};
const stage = { ...injectStage, input: 'readmes' };
const graph: StageGraph = { sources: [readmes], stages: [stage] };

function config(dataDir: string, inject: string, llm = '') {
  return parseConfig(
    `dataset = "t"\ndata_dir = ${JSON.stringify(dataDir)}\n[run]\njobs = 1\nbatch_size = 10\nflush_seconds = 0.2\nlog_level = "silent"\n` +
      `[inject]\nerrors_per_readme = 2\n${inject}\n[inject.llm]\nmodels = ["strong"]\n` +
      `[llm]\nbackoff_seconds = 0.01\nmax_backoff_seconds = 0.05\n${llm}\n` +
      `[llm.models.strong]\nmodel = "claude-4-sonnet"\nbase_url = "${server!.baseUrl}"\napi_key = "\${INJECT_TEST_KEY:-}"\ninput_usd_per_mtok = 3\noutput_usd_per_mtok = 15\n`,
    'inject.toml',
    { INJECT_TEST_KEY: KEY },
  );
}

async function run(dataDir: string, inject: string, opts: { force?: boolean; llm?: string } = {}) {
  const store = await ArtifactStore.open(layoutFor(dataDir, 't'));
  try {
    return await runStage(stage, { graph, store, config: config(dataDir, inject, opts.llm), log: silentLogger }, { force: opts.force, progressStream: { write: () => true } as unknown as NodeJS.WritableStream, tty: false });
  } finally {
    store.close();
  }
}

async function query(dataDir: string, sql: string) {
  const duck = await openCatalog(layoutFor(dataDir, 't'), graph.stages);
  try {
    return await duck.all(sql);
  } finally {
    duck.close();
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('inject with the llm injector', () => {
  it('accepts checked instances, records tokens and cost per row and per call, and keeps the key out of everything', async () => {
    server = await openAiServer({ respond, apiKey: KEY });
    const data = dirs.make();
    const summary = await run(data, 'injectors = ["llm"]\nmax_usd = 1');
    expect(summary.counts).toEqual({ accepted: 2, rejected: 0, error: 0 });
    expect(server.hits()).toBe(2);
    expect(server.requests[0]!.body).toMatchObject({ model: 'claude-4-sonnet', temperature: 0.7 });

    const rows = await query(data, `select key, status, injector, model, level, error_types, llm_calls, cached, tokens_in, tokens_out, cost_usd, changed_lines from inject order by key`);
    expect(rows).toEqual([
      { key: 'acme_weatherkit_error_readme_1', status: 'accepted', injector: 'llm', model: 'strong', level: 'level2', error_types: ['E7', 'E4'], llm_calls: 1, cached: false, tokens_in: 2000, tokens_out: 400, cost_usd: 0.012, changed_lines: 4 },
      { key: 'shopco_order-service_error_readme_1', status: 'accepted', injector: 'llm', model: 'strong', level: 'level2', error_types: ['E2', 'E8'], llm_calls: 1, cached: false, tokens_in: 2000, tokens_out: 400, cost_usd: 0.012, changed_lines: 4 },
    ]);
    const [gold] = await query(data, `select gold from inject where key = 'acme_weatherkit_error_readme_1'`);
    const g = typeof gold!.gold === 'string' ? JSON.parse(gold!.gold) : gold!.gold;
    expect(g).toMatchObject({ readme: 'acme_weatherkit_error_readme_1', repo_name: 'acme_weatherkit', level: 'level2' });
    expect(g.errors.map((e: { golden_answer: string }) => e.golden_answer)).toEqual(['python3.10 -m venv .venv', 'pip install -r requirements.txt']);

    const ledger = await query(data, `select stage, key, model, model_id, cached, outcome, attempts, tokens_in, tokens_out, cost_usd, length(prompt_hash) as h from llm_ledger order by key`);
    expect(ledger).toEqual([
      { stage: 'inject', key: 'acme_weatherkit_error_readme_1', model: 'strong', model_id: 'claude-4-sonnet', cached: false, outcome: 'ok', attempts: 1, tokens_in: 2000, tokens_out: 400, cost_usd: 0.012, h: 64 },
      { stage: 'inject', key: 'shopco_order-service_error_readme_1', model: 'strong', model_id: 'claude-4-sonnet', cached: false, outcome: 'ok', attempts: 1, tokens_in: 2000, tokens_out: 400, cost_usd: 0.012, h: 64 },
    ]);
    expect(filesUnder(join(data, 't', 'ledger')).some((f) => /part-.*\.parquet$/.test(f))).toBe(true);
    // The key appears in no artifact, cache entry or catalog.
    const everything = await query(data, `select (select string_agg(to_json(i)::VARCHAR, '') from inject i) || (select string_agg(to_json(l)::VARCHAR, '') from llm_ledger l) as s`);
    expect(String(everything[0]!.s)).not.toContain(KEY);
    for (const f of filesUnder(data)) expect(readFileSync(f).toString('latin1').includes(KEY), f).toBe(false);
  });

  it('a rerun is answered from the cache: zero requests, the same instances, free cached ledger rows', async () => {
    server = await openAiServer({ respond, apiKey: KEY });
    const data = dirs.make();
    await run(data, 'injectors = ["llm"]\nmax_usd = 1');
    const before = await query(data, `select key, gold, injected_text from inject order by key`);
    const again = await run(data, 'injectors = ["llm"]\nmax_usd = 1', { force: true });
    expect(again.processed).toBe(2);
    expect(server.hits()).toBe(2);
    expect(await query(data, `select key, gold, injected_text from inject order by key`)).toEqual(before);
    expect(await query(data, `select cached, count(*) as n, sum(cost_usd) as usd from llm_ledger group by cached order by cached`)).toEqual([
      { cached: false, n: 2, usd: 0.024 },
      { cached: true, n: 2, usd: 0 },
    ]);
    expect(await query(data, `select distinct cached, cost_usd from inject`)).toEqual([{ cached: true, cost_usd: 0 }]);
  });

  it('stops cleanly when the budget is spent: finished items are kept, the rest runs after raising max_usd', async () => {
    server = await openAiServer({ respond, apiKey: KEY });
    const data = dirs.make();
    const stopped = await run(data, 'injectors = ["llm"]\nmax_usd = 0.01').catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(SetupError);
    expect((stopped as Error).message).toMatch(/budget reached: \$0\.0120 spent of max_usd \$0\.01/);
    expect(server.hits()).toBe(1);
    expect(await query(data, `select key, status from inject`)).toEqual([{ key: 'acme_weatherkit_error_readme_1', status: 'accepted' }]);
    expect(await query(data, `select count(*) as n from llm_ledger`)).toEqual([{ n: 1 }]);
    // The budget covers the dataset: rerunning with the same max_usd still stops before any call.
    await expect(run(data, 'injectors = ["llm"]\nmax_usd = 0.01')).rejects.toBeInstanceOf(SetupError);
    expect(server.hits()).toBe(1);
    const rest = await run(data, 'injectors = ["llm"]\nmax_usd = 0.05');
    expect(rest.processed).toBe(1);
    expect(server.hits()).toBe(2);
    expect(await query(data, `select sum(cost_usd) as usd from llm_ledger`)).toEqual([{ usd: 0.024 }]);
  });

  it('retries 429 and 500 transparently; a model that never answers JSON gives an error row with its raw text', async () => {
    server = await openAiServer({
      apiKey: KEY,
      script: [{ status: 429, retryAfter: 0 }, { status: 500 }],
      respond: (body) => (body.messages.some((m) => m.content.includes('order-service')) ? { content: 'I cannot help with that.', usage: USAGE } : respond(body)),
    });
    const data = dirs.make();
    const summary = await run(data, 'injectors = ["llm"]\nmax_usd = 1', { llm: 'json_retries = 1' });
    expect(summary.counts).toEqual({ accepted: 1, rejected: 0, error: 1 });
    const [bad] = await query(data, `select key, status, reason, reason_text, raw_output, llm_calls, cost_usd from inject where status = 'error'`);
    expect(bad).toEqual({
      key: 'shopco_order-service_error_readme_1',
      status: 'error',
      reason: 'llm_malformed_output',
      reason_text: expect.stringMatching(/strong did not answer with the JSON asked for after 2 tries: the answer is not JSON|not valid JSON/),
      raw_output: 'I cannot help with that.',
      llm_calls: 2,
      cost_usd: 0.024,
    });
    expect(server.hits()).toBe(2 + 1 + 2); // 429 + 500 + the weatherkit answer; two tries for order-service
    expect(await query(data, `select key, attempts from llm_ledger order by key, attempts desc`)).toEqual([
      { key: 'acme_weatherkit_error_readme_1', attempts: 3 },
      { key: 'shopco_order-service_error_readme_1', attempts: 1 },
      { key: 'shopco_order-service_error_readme_1', attempts: 1 },
    ]);
  });

  it('runs llm and mutation injectors on the same README, numbering instances in order', async () => {
    server = await openAiServer({ respond, apiKey: KEY });
    const data = dirs.make();
    await run(data, 'injectors = ["llm", "mutation"]\nmax_usd = 1\n[inject.mutation]\ninstances = 2');
    expect(await query(data, `select key, injector, status from inject where repository = 'acme/weatherkit' order by key`)).toEqual([
      { key: 'acme_weatherkit_error_readme_1', injector: 'llm', status: 'accepted' },
      { key: 'acme_weatherkit_error_readme_2', injector: 'mutation', status: 'accepted' },
      { key: 'acme_weatherkit_error_readme_3', injector: 'mutation', status: 'accepted' },
    ]);
  });

  it('a model without its API key stops before any call, naming the variable', async () => {
    server = await openAiServer({ respond });
    const data = dirs.make();
    const store = await ArtifactStore.open(layoutFor(data, 't'));
    const loaded = parseConfig(
      `dataset = "t"\n[run]\nlog_level = "silent"\n[inject]\ninjectors = ["llm"]\n[inject.llm]\nmodels = ["strong"]\n[llm.models.strong]\nmodel = "m"\nbase_url = "${server.baseUrl}"\napi_key = "\${MISSING_TEST_KEY:-}"\n`,
      'k.toml',
      {},
    );
    try {
      await expect(runStage(stage, { graph, store, config: loaded, log: silentLogger }, { progressStream: { write: () => true } as unknown as NodeJS.WritableStream })).rejects.toThrow(
        /model strong .* needs an API key: set the environment variable MISSING_TEST_KEY/,
      );
    } finally {
      store.close();
    }
    expect(server.hits()).toBe(0);
  });
});
