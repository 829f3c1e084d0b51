import { ENVBENCH_MANAGERS } from './detect-managers.js';
import { monorepoSignalFamily } from './detect-monorepo.js';
import type { RepoFacts } from './repo-facts.js';

/**
 * EnvBench's content filters (paper §3.3), applied to the facts of one repository in the
 * paper's funnel order: exactly one dependency manager of the family in the root, then no
 * Docker configuration, then (optionally, beyond the paper) no monorepo signal of the family.
 */

export type BenchmarkFamily = 'python' | 'jvm';

export interface ContentFilterOptions {
  family: BenchmarkFamily;
  require_single_manager: boolean;
  reject_docker: boolean;
  reject_monorepo: boolean;
}

export type ContentFilterReason = 'no_dependency_manager' | 'wrong_family' | 'multiple_dependency_managers' | 'has_docker' | 'monorepo';

export type ContentFilterDecision = { status: 'accepted' } | { status: 'rejected'; reason: ContentFilterReason; text: string };

/** EnvBench selects by GitHub's primary language: Python, or Java/Kotlin for the JVM set. */
export function familyForLanguage(language: string | null | undefined): BenchmarkFamily | null {
  switch (language?.trim().toLowerCase()) {
    case 'python':
      return 'python';
    case 'java':
    case 'kotlin':
      return 'jvm';
    default:
      return null;
  }
}

type ManagerFacts = Pick<RepoFacts, 'managers' | 'manager_files'>;
type FilterFacts = ManagerFacts & Pick<RepoFacts, 'python_managers' | 'jvm_managers' | 'docker_files' | 'monorepo_signals'>;

const MAX_NAMED = 5;

export function decideContentFilter(facts: FilterFacts, options: ContentFilterOptions): ContentFilterDecision {
  const { family } = options;
  const own = family === 'python' ? facts.python_managers : facts.jvm_managers;
  const wanted = listWords([...ENVBENCH_MANAGERS[family]], 'or');

  if (own.length === 0) {
    const other: BenchmarkFamily = family === 'python' ? 'jvm' : 'python';
    const otherManagers = other === 'python' ? facts.python_managers : facts.jvm_managers;
    if (otherManagers.length > 0) {
      return reject('wrong_family', `root declares ${describeManagers(facts, otherManagers)} but no ${wanted} configuration for a ${family} repository`);
    }
    const found = facts.managers.length > 0 ? `; found only ${describeManagers(facts, facts.managers)}` : '';
    return reject('no_dependency_manager', `root declares no ${wanted} configuration${found}`);
  }

  if (options.require_single_manager && own.length > 1) {
    return reject('multiple_dependency_managers', `root declares ${describeManagers(facts, own)}`);
  }

  if (options.reject_docker && facts.docker_files.length > 0) {
    return reject('has_docker', `Docker configuration present: ${named(facts.docker_files)}`);
  }

  if (options.reject_monorepo) {
    const signals = facts.monorepo_signals.filter((s) => monorepoSignalFamily(s) === family);
    if (signals.length > 0) return reject('monorepo', `${family} monorepo signals: ${signals.join('; ')}`);
  }

  return { status: 'accepted' };
}

/** "pip (requirements.txt) and poetry (pyproject.toml, poetry.lock)". */
export function describeManagers(facts: ManagerFacts, managers: readonly string[]): string {
  return listWords(
    managers.map((m) => {
      const files = facts.manager_files.filter((f) => f.startsWith(`${m}:`)).map((f) => f.slice(m.length + 1));
      return files.length > 0 ? `${m} (${files.join(', ')})` : m;
    }),
    'and',
  );
}

function reject(reason: ContentFilterReason, text: string): ContentFilterDecision {
  return { status: 'rejected', reason, text };
}

function listWords(items: readonly string[], conjunction: 'and' | 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

function named(paths: readonly string[]): string {
  if (paths.length <= MAX_NAMED) return paths.join(', ');
  return `${paths.slice(0, MAX_NAMED).join(', ')} and ${paths.length - MAX_NAMED} more`;
}
