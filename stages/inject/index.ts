import { sha256 } from '../../pipeline/config/fingerprint.js';
import type { InjectSettings } from '../../pipeline/config/schema.js';
import { LlmCallError, LlmClient } from '../../pipeline/llm/client.js';
import { checkModels } from '../../pipeline/llm/models.js';
import { accept, fail, reject, type Cells, type Columns, type Item, type Outcome, type Stage, type StageContext } from '../../pipeline/stage.js';
import type { ShellStep } from '../readme/doc-model.js';
import { checkInstance } from './checks.js';
import { changedLines } from './edits.js';
import { goldJson, instanceName, repoName, type InjectedError } from './gold.js';
import { injectionPrompt, llmEdits, validateAnswer } from './llm-injector.js';
import { mutateReadme } from './mutation/injector.js';
import { jsonCell } from '../../pipeline/store/json-cell.js';

/**
 * inject: README instances with injected setup errors (EnConda-Bench), one output row per
 * instance, keyed `<owner>_<repo>_error_readme_<N>` as in the reference. The injectors named in
 * `inject.injectors` run in order on every README the readme stage accepted: `llm` (each model
 * of inject.llm.models writes inject.llm.instances READMEs) and `mutation` (deterministic,
 * inject.mutation.instances READMEs). Every instance passes the checks of checks.ts or is
 * rejected with the first failing one; a model that never answers with the JSON asked for gives
 * an `error` row with its raw answer.
 */

const columns = {
  repository: 'VARCHAR',
  revision: 'VARCHAR',
  doc_path: 'VARCHAR',
  /** The reference's names: instance (the README folder) and repo_name (`<owner>_<repo>`). */
  instance: 'VARCHAR',
  repo_name: 'VARCHAR',
  injector: 'VARCHAR',
  /** The model's name in [llm.models] (llm injector). */
  model: 'VARCHAR',
  /** The seed of the mutation injector. */
  seed: 'INTEGER',
  level: 'VARCHAR',
  error_count: 'INTEGER',
  error_types: 'VARCHAR[]',
  /** Every error: the gold fields plus its edit (lines, original and injected text) and origin. */
  errors: 'JSON',
  /** The reference's README.json, exactly its shape. */
  gold: 'JSON',
  injected_text: 'VARCHAR',
  original_sha256: 'VARCHAR',
  changed_lines: 'INTEGER',
  /** Every failed check (the row's reason is the first). */
  problems: 'VARCHAR[]',
  prompt_hash: 'VARCHAR',
  llm_calls: 'INTEGER',
  cached: 'BOOLEAN',
  tokens_in: 'BIGINT',
  tokens_out: 'BIGINT',
  cost_usd: 'DOUBLE',
  /** The model's last answer when it was not the JSON asked for (error rows). */
  raw_output: 'VARCHAR',
} satisfies Columns;

export const injectStage: Stage<Item> = {
  name: 'inject',
  version: 1,
  description: 'inject setup errors into READMEs (LLM and/or seeded mutations) with gold JSON; check every edit',
  input: 'readme',
  // What decides the instances: not the budget, retries or cache settings (raising max_usd invalidates nothing).
  configSections: [
    'inject.injectors',
    'inject.errors_per_readme',
    'inject.seed',
    'inject.max_lines_per_edit',
    'inject.max_chars_per_edit',
    'inject.llm',
    'inject.mutation',
    'llm.models',
    'llm.json_retries',
  ],
  columns,
  key: (row) => String(row.repository),
  async preflight(ctx) {
    const s = ctx.config.config.inject;
    if (s.injectors.includes('llm')) checkModels(ctx.config, s.llm.models, 'inject');
  },
  async run(row, ctx) {
    const s = ctx.config.config.inject;
    const repository = String(row.repository);
    const original = String(row.doc_text ?? '');
    const base = {
      repository,
      revision: (row.revision as string | null) ?? null,
      doc_path: (row.doc_path as string | null) ?? null,
      repo_name: repoName(repository),
      original_sha256: sha256(original),
    };
    const steps = jsonCell(row.steps) as ShellStep[];
    const out: Outcome[] = [];
    const next = () => instanceName(repository, out.length + 1);

    for (const injector of s.injectors) {
      if (injector === 'llm') {
        const client = LlmClient.forStage(ctx, 'inject', s.max_usd);
        for (const model of s.llm.models) {
          for (let k = 0; k < s.llm.instances; k++) out.push(await llmInstance(client, model, k, next(), original, base, s, ctx));
        }
      } else {
        const seen = new Set<string>();
        for (let k = 0; k < s.mutation.instances; k++) {
          const r = mutateReadme(
            { repository, doc_path: String(row.doc_path), doc_text: original, steps },
            { seed: s.seed, instance: k, errors: s.errors_per_readme, types: s.mutation.types },
          );
          if (!r || seen.has(r.injected)) continue;
          seen.add(r.injected);
          const name = next();
          out.push(checked(name, original, r.injected, r.errors, s, { ...base, instance: name, injector: 'mutation', seed: s.seed }));
        }
      }
    }
    if (out.length === 0) {
      return reject('no_applicable_operator', `no operator of types ${s.mutation.types.join(' ')} applies to the ${steps.length} steps of ${String(row.doc_path)}`, base);
    }
    return out;
  },
};

async function llmInstance(
  client: LlmClient,
  model: string,
  k: number,
  name: string,
  original: string,
  base: Cells,
  s: InjectSettings,
  ctx: StageContext,
): Promise<Outcome> {
  const messages = injectionPrompt(original, String(base.doc_path), s.errors_per_readme);
  // Instances after the first ask for other choices, so they are distinct requests (and cache entries).
  if (k > 0) messages[1]!.content += `\n\n(Variant ${k + 1}: choose other steps and other error types than in variant 1.)`;
  const cells = { ...base, instance: name, injector: 'llm', model };
  let r;
  try {
    r = await client.completeJson({ model, messages, temperature: s.llm.temperature }, { key: name }, validateAnswer(s.errors_per_readme));
  } catch (err) {
    // A budget stop or a refused key (SetupError) stops the run; an interrupt leaves the item pending.
    if (err instanceof LlmCallError && !ctx.signal.aborted) return fail('llm_unavailable', err.message, cells, name);
    throw err;
  }
  const usage = {
    prompt_hash: r.prompt_hash,
    llm_calls: r.calls,
    cached: r.cached_calls === r.calls,
    tokens_in: r.tokens_in,
    tokens_out: r.tokens_out,
    cost_usd: r.cost_usd,
  };
  if (!r.ok) {
    return fail('llm_malformed_output', `${model} did not answer with the JSON asked for after ${r.calls} tries: ${r.problem}`, { ...cells, ...usage, raw_output: r.raw }, name);
  }
  const edits = llmEdits(original, r.value, model);
  if (!edits.ok) {
    return reject('edit_not_applicable', edits.problem, { ...cells, ...usage, raw_output: r.text, problems: [`edit_not_applicable: ${edits.problem}`] }, name);
  }
  return checked(name, original, edits.injected, edits.errors, s, { ...cells, ...usage });
}

/** The instance row: accepted when every check passes, else rejected with the first failure. */
function checked(name: string, original: string, injected: string, errors: InjectedError[], s: InjectSettings, cells: Cells): Outcome {
  const problems = checkInstance(original, injected, errors, s);
  const full: Cells = {
    ...cells,
    level: `level${errors.length}`,
    error_count: errors.length,
    error_types: errors.map((e) => e.error_type),
    errors: errors as unknown as Record<string, unknown>,
    gold: goldJson(name, String(cells.repository), errors) as unknown as Record<string, unknown>,
    injected_text: injected,
    changed_lines: changedLines(original, injected),
    problems: problems.map((p) => `${p.reason}: ${p.text}`),
  };
  if (problems.length > 0) return reject(problems[0]!.reason, problems.map((p) => p.text).join('; '), full, name);
  return accept(full, name);
}
