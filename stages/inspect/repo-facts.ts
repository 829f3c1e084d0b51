/**
 * The facts `inspect` records about one checked-out repository. Every field is a scalar or a
 * string array so that the stage can store the object as Parquet columns without reshaping.
 */

export interface InspectOptions {
  /** Deepest directory level searched for nested build files (1 = `a/pom.xml`). */
  nested_depth: number;
  /** Deepest directory level searched for Docker files (0 = root only). */
  docker_depth: number;
  /** Files larger than this are never read; they become findings. */
  max_file_bytes: number;
  /** Cap on directory entries visited by the walk; default DEFAULT_MAX_ENTRIES. */
  max_entries?: number;
}

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
export const DEFAULT_MAX_ENTRIES = 50_000;

export const DEFAULT_INSPECT_OPTIONS: Required<InspectOptions> = {
  nested_depth: 3,
  docker_depth: 3,
  max_file_bytes: DEFAULT_MAX_FILE_BYTES,
  max_entries: DEFAULT_MAX_ENTRIES,
};

export interface RepoFacts {
  /** Every dependency manager declared in the root, in MANAGER_ORDER. */
  managers: string[];
  /** `<manager>:<file>` for each file that proves a manager. */
  manager_files: string[];
  /** The EnvBench Python families present in the root: subset of pip, poetry. */
  python_managers: string[];
  /** The EnvBench JVM families present in the root: subset of maven, gradle. */
  jvm_managers: string[];

  is_monorepo: boolean;
  /** `<kind>:<detail>`, e.g. `maven-modules:core,api`; kinds in MONOREPO_SIGNAL_FAMILY. */
  monorepo_signals: string[];
  /** Build files below the root that count as sub-projects, sorted by path. */
  nested_build_files: string[];
  /** Build files below the root inside test/fixture/example/docs/template dirs: recorded only, sorted. */
  nested_build_files_ignored: string[];

  has_docker: boolean;
  /** Docker files sorted by path; a `.devcontainer` directory is listed with a trailing `/`. */
  docker_files: string[];

  /** The first entry of python_version_specs (declaration order documented in detect-python-versions). */
  python_version_spec: string | null;
  python_version_specs: string[];
  /** `<file>:<key>` parallel to python_version_specs. */
  python_version_sources: string[];

  /** Major Java version ("1.8" → "8"), first of java_versions. */
  java_version: string | null;
  java_versions: string[];
  /** `<file>:<key>` parallel to java_versions. */
  java_version_sources: string[];
  gradle_version: string | null;
  gradle_version_source: string | null;
  maven_version: string | null;
  maven_version_source: string | null;

  readme_path: string | null;
  /** README first, then INSTALL*, docs install pages, CONTRIBUTING*. */
  setup_docs: string[];

  /** `<path>: <problem>` for every malformed, oversized, binary or unsafe file and for walk caps. */
  findings: string[];
  /** Paths whose content could not be used (subset of the paths named in findings). */
  malformed_files: string[];
  entries_visited: number;
  walk_truncated: boolean;
}

/** Column types for the stage's declaration; kept beside the interface so they cannot drift. */
export const REPO_FACTS_COLUMNS = {
  managers: 'VARCHAR[]',
  manager_files: 'VARCHAR[]',
  python_managers: 'VARCHAR[]',
  jvm_managers: 'VARCHAR[]',
  is_monorepo: 'BOOLEAN',
  monorepo_signals: 'VARCHAR[]',
  nested_build_files: 'VARCHAR[]',
  nested_build_files_ignored: 'VARCHAR[]',
  has_docker: 'BOOLEAN',
  docker_files: 'VARCHAR[]',
  python_version_spec: 'VARCHAR',
  python_version_specs: 'VARCHAR[]',
  python_version_sources: 'VARCHAR[]',
  java_version: 'VARCHAR',
  java_versions: 'VARCHAR[]',
  java_version_sources: 'VARCHAR[]',
  gradle_version: 'VARCHAR',
  gradle_version_source: 'VARCHAR',
  maven_version: 'VARCHAR',
  maven_version_source: 'VARCHAR',
  readme_path: 'VARCHAR',
  setup_docs: 'VARCHAR[]',
  findings: 'VARCHAR[]',
  malformed_files: 'VARCHAR[]',
  entries_visited: 'BIGINT',
  walk_truncated: 'BOOLEAN',
} as const satisfies Record<keyof RepoFacts, 'VARCHAR' | 'VARCHAR[]' | 'BOOLEAN' | 'BIGINT'>;

export function resolveInspectOptions(options: InspectOptions): Required<InspectOptions> {
  // Built field by field so that extra keys of a wider config section are ignored.
  const resolved: Required<InspectOptions> = {
    nested_depth: options.nested_depth,
    docker_depth: options.docker_depth,
    max_file_bytes: options.max_file_bytes,
    max_entries: options.max_entries ?? DEFAULT_MAX_ENTRIES,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isInteger(value) || value < 0) {
      throw new Error(`inspect option ${name} must be a non-negative integer, got ${String(value)}`);
    }
  }
  return resolved;
}
