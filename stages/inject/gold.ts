import { ERROR_TYPES, type ErrorType } from '../../pipeline/config/schema.js';
import type { Edit } from './edits.js';

/**
 * The gold JSON of EnConda-Bench (one per README instance, `README.json`), and what envforge
 * records beyond it: every error's edit, so validation can tell which step an error broke and
 * tiers can split and merge edits exactly.
 */

export const ERROR_TYPE_NAMES: Record<ErrorType, string> = {
  E1: 'Dependency Installation Error',
  E2: 'Command Usage or Syntax Error',
  E4: 'File Path or Missing File Error',
  E6: 'Logical Order Error',
  E7: 'Version Compatibility Error',
  E8: 'Other Miscellaneous Errors',
};

export function isErrorType(t: unknown): t is ErrorType {
  return typeof t === 'string' && (ERROR_TYPES as readonly string[]).includes(t);
}

/** One error of the reference's gold JSON. */
export interface GoldError {
  error_type: string;
  error_description: string;
  correction_candidates: string[];
  golden_answer: string;
}

export interface GoldJson {
  readme: string;
  repo_name: string;
  level: string;
  errors: GoldError[];
}

/** An injected error: the gold fields, its edit, and how it was made. */
export interface InjectedError extends GoldError {
  edit: Edit;
  /** `mutation:<operator>` or `llm:<model>`. */
  origin: string;
  /** Index of the shell step the edit changed (mutation), when known. */
  step_index?: number;
}

/** `<owner>_<repo>`, the reference's repo_name. */
export function repoName(repository: string): string {
  return repository.replace('/', '_');
}

/** `<owner>_<repo>_error_readme_<N>`, the reference's base instance name. */
export function instanceName(repository: string, n: number): string {
  return `${repoName(repository)}_error_readme_${n}`;
}

export function goldJson(instance: string, repository: string, errors: readonly GoldError[]): GoldJson {
  return {
    readme: instance,
    repo_name: repoName(repository),
    level: `level${errors.length}`,
    errors: errors.map((e) => ({
      error_type: e.error_type,
      error_description: e.error_description,
      correction_candidates: [...e.correction_candidates],
      golden_answer: e.golden_answer,
    })),
  };
}
