import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { clonesRoot } from '../clone/index.js';
import { accept, fail, reject, type Columns, type Item, type Stage } from '../../pipeline/stage.js';
import { decideContentFilter, familyForLanguage } from './content-filter.js';
import { inspectRepository } from './inspect-repository.js';
import { REPO_FACTS_COLUMNS } from './repo-facts.js';

/**
 * inspect: the facts of each cloned repository (managers, monorepo and Docker signals, version
 * requirements, setup documents) and EnvBench's content filters as the row's decision.
 */

const columns = {
  repository: 'VARCHAR',
  language: 'VARCHAR',
  family: 'VARCHAR',
  revision: 'VARCHAR',
  clone_path: 'VARCHAR',
  /** The one EnvBench manager of the family (pip, poetry, maven, gradle) when there is exactly one. */
  manager: 'VARCHAR',
  ...REPO_FACTS_COLUMNS,
} satisfies Columns;

export const inspectStage: Stage<Item> = {
  name: 'inspect',
  version: 1,
  description: 'record dependency managers, monorepo/Docker signals and versions; apply EnvBench content filters',
  input: 'clone',
  columns,
  key: (row) => String(row.repository),
  async run(row, ctx) {
    const s = ctx.config.config.inspect;
    const language = (row.language as string | null) ?? null;
    const family = familyForLanguage(language);
    const base = {
      repository: String(row.repository),
      language,
      family,
      revision: (row.revision as string | null) ?? null,
      clone_path: (row.clone_path as string | null) ?? null,
    };
    const dir = join(clonesRoot(ctx.cacheDir), String(row.clone_path));
    if (!row.clone_path || !existsSync(dir)) {
      return fail('checkout_missing', `the checkout ${String(row.clone_path)} is not in the clone cache: rerun clone with --force --only ${base.repository}`, base);
    }
    const facts = await inspectRepository(dir, {
      nested_depth: s.nested_depth,
      docker_depth: s.docker_depth,
      max_file_bytes: s.max_file_bytes,
      max_entries: s.max_entries,
    });
    const familyManagers = family === 'python' ? facts.python_managers : family === 'jvm' ? facts.jvm_managers : [];
    const cells = { ...base, ...facts, manager: familyManagers.length === 1 ? familyManagers[0]! : null };
    if (!family) return reject('wrong_family', `primary language ${language ?? '(none)'} is neither Python nor Java/Kotlin`, cells);
    const decision = decideContentFilter(facts, {
      family,
      require_single_manager: s.require_single_manager,
      reject_docker: s.reject_docker,
      reject_monorepo: s.reject_monorepo,
    });
    return decision.status === 'accepted' ? accept(cells) : reject(decision.reason, decision.text, cells);
  },
};
