import { createHash } from 'node:crypto';
import { parseConfig, type LoadedConfig } from '../../pipeline/config/load.js';
import { GRAPH } from '../../pipeline/graph.js';
import { findStage } from '../../pipeline/graph-types.js';
import { ArtifactStore } from '../../pipeline/store/artifact-store.js';
import { layoutFor, type Layout } from '../../pipeline/store/layout.js';

/**
 * A small FIXED EnvBench dataset written through the real artifact store with the real stages'
 * column declarations: eleven repositories that end at every step of the funnel, with fixed run
 * ids, config hashes and timestamps, so exports of it can be compared byte for byte.
 */

export type Row = Record<string, unknown>;
export type StageRows = Record<'search' | 'clone' | 'inspect' | 'baseline', Row[]>;

export const sha = (s: string) => createHash('sha1').update(s).digest('hex');

interface Repo {
  name: string;
  language: string;
  license?: string;
  search?: [string, string];
  clone?: [string, string];
  manager?: string;
  managers?: string[];
  inspect?: [string, string];
  findings?: string[];
  baseline?: Row;
}

const REPOS: Repo[] = [
  { name: 'acme/py-pip', language: 'Python', manager: 'pip', baseline: { status: 'accepted', failure_class: 'setup', exit_code: 1, run_ms: 9100, log: 'ERROR: No matching distribution found for numpy==1.26.4\nenvforge: setup exited with 1\n' } },
  { name: 'acme/py-poetry', language: 'Python', license: 'Apache-2.0', manager: 'poetry', baseline: { status: 'accepted', failure_class: 'metric', exit_code: 0, metric_exit_code: 1, issues_count: 3, missing_modules: ['numpy', 'requests', 'yaml'], run_ms: 12400, log: 'Installing dependencies from lock file\n3 errors\n' } },
  { name: 'acme/py-trivial', language: 'Python', manager: 'pip', baseline: { status: 'rejected', reason: 'trivially_configurable', reason_text: 'the deterministic script configured it: setup exit 0 and 0 issues', exit_code: 0, metric_exit_code: 0, issues_count: 0, missing_modules: [], run_ms: 3900, log: 'Successfully installed\n' } },
  { name: 'acme/py-docker', language: 'Python', manager: 'pip', inspect: ['has_docker', 'Docker files: Dockerfile'] },
  { name: 'acme/py-old', language: 'Python', search: ['last_commit_too_old', 'last commit 2023-05-01, before 2024-01-01'] },
  { name: 'acme/jvm-maven', language: 'Java', license: 'BSD-3-Clause', manager: 'maven', findings: ['pom.xml: invalid XML: Expected closing tag (line 9)'], baseline: { status: 'accepted', failure_class: 'metric', exit_code: 0, metric_exit_code: 1, build_tool: 'maven', issues_count: 7, run_ms: 6000, log: '[ERROR] Failed to execute goal\n' } },
  { name: 'acme/jvm-gradle', language: 'Kotlin', manager: 'gradle', baseline: { status: 'accepted', failure_class: 'setup', exit_code: 1, run_ms: 13200, log: 'FAILURE: Build failed with an exception.\n' } },
  { name: 'acme/jvm-timeout', language: 'Java', manager: 'gradle', baseline: { status: 'error', reason: 'timeout', reason_text: 'no result within 600 s (baseline.timeout_seconds)', failure_class: 'infra', exit_code: -127, timed_out: true, run_ms: 600000, log: '' } },
  { name: 'acme/jvm-gone', language: 'Java', clone: ['repo_unavailable', 'remote repository not found'] },
  { name: 'acme/jvm-mono', language: 'Java', managers: ['maven'], inspect: ['monorepo', 'Maven modules: core, api'] },
  { name: 'acme/js-lib', language: 'JavaScript', search: ['language_not_selected', 'primary language JavaScript is not one of Python, Java, Kotlin'] },
];

export const RUN = { search: '20240301T100000000-aaaaaa', clone: '20240301T100100000-bbbbbb', inspect: '20240301T100200000-cccccc', baseline: '20240301T100300000-dddddd' };
const AT = { search: '2024-03-01 10:00:00.000', clone: '2024-03-01 10:01:00.000', inspect: '2024-03-01 10:02:00.000', baseline: '2024-03-01 10:03:00.000' };
const familyOf = (language: string) => (language === 'Python' ? 'python' : language === 'JavaScript' ? null : 'jvm');

function row(stage: keyof typeof RUN, key: string, outcome: Row, cells: Row): Row {
  const status = String(outcome.status ?? 'accepted');
  return {
    ...cells,
    key,
    input_key: key,
    status,
    reason: (outcome.reason as string | undefined) ?? null,
    reason_text: (outcome.reason_text as string | undefined) ?? null,
    input_hash: sha(`${stage}:${key}`).slice(0, 16),
    run_id: RUN[stage],
    stage_version: 1,
    config_hash: sha(`config:${stage}`).slice(0, 16),
    created_at: AT[stage],
    duration_ms: 5,
  };
}

/** The rows of each stage, before they are written; tests may change them (plant a leak). */
export function envbenchRows(): StageRows {
  const out: StageRows = { search: [], clone: [], inspect: [], baseline: [] };
  for (const r of REPOS) {
    const revision = sha(r.name);
    const family = familyOf(r.language);
    const s = r.search ? { status: 'rejected', reason: r.search[0], reason_text: r.search[1] } : {};
    out.search.push(
      row('search', r.name, s, {
        repository: r.name, ghs_id: out.search.length + 1, language: r.language, is_fork: false, is_archived: false, commits: 2400, total_issues: 140,
        open_issues: 12, contributors: 35, stars: 420, forks: 57, size_kb: 2048, license: r.license ?? 'MIT', license_spdx: r.license ?? 'MIT',
        default_branch: 'main', created_date: '2019-03-04', pushed_date: '2024-02-11', last_commit_date: '2024-02-11', last_commit_raw: '2024-02-11T03:12:44',
        revision, source: 'seart', source_row: out.search.length + 1,
      }),
    );
    if (r.search) continue;
    const c = r.clone ? { status: 'error', reason: r.clone[0], reason_text: r.clone[1] } : {};
    out.clone.push(
      row('clone', r.name, c, r.clone ? { repository: r.name, language: r.language, revision } : {
        repository: r.name, language: r.language, revision, default_branch: 'main', commit_date: '2024-02-11T03:12:44Z',
        clone_path: `${r.name}/${revision}`, cached: false, clone_mode: 'shallow', object_bytes: 131072, worktree_bytes: 65536, files: 42, submodules: [],
      }),
    );
    if (r.clone) continue;
    const managers = r.managers ?? (r.manager ? [r.manager] : []);
    const i = r.inspect ? { status: 'rejected', reason: r.inspect[0], reason_text: r.inspect[1] } : {};
    out.inspect.push(
      row('inspect', r.name, i, {
        repository: r.name, language: r.language, family, revision, clone_path: `${r.name}/${revision}`, manager: r.manager ?? null,
        managers, manager_files: managers.map((m) => `${m}:${m === 'maven' ? 'pom.xml' : m === 'gradle' ? 'build.gradle' : m === 'poetry' ? 'pyproject.toml' : 'requirements.txt'}`),
        python_managers: family === 'python' ? managers : [], jvm_managers: family === 'jvm' ? managers : [],
        is_monorepo: r.inspect?.[0] === 'monorepo', monorepo_signals: r.inspect?.[0] === 'monorepo' ? ['maven-modules:core,api'] : [],
        nested_build_files: [], nested_build_files_ignored: [], has_docker: r.inspect?.[0] === 'has_docker', docker_files: r.inspect?.[0] === 'has_docker' ? ['Dockerfile'] : [],
        python_version_spec: family === 'python' ? '>=3.9' : null, python_version_specs: family === 'python' ? ['>=3.9'] : [], python_version_sources: family === 'python' ? ['pyproject.toml:requires-python'] : [],
        java_version: family === 'jvm' ? '17' : null, java_versions: family === 'jvm' ? ['17'] : [], java_version_sources: family === 'jvm' ? ['pom.xml:maven.compiler.source'] : [],
        gradle_version: null, gradle_version_source: null, maven_version: null, maven_version_source: null,
        readme_path: 'README.md', setup_docs: ['README.md'], findings: r.findings ?? [], malformed_files: (r.findings ?? []).map((f) => f.split(':')[0]!),
        entries_visited: 50, walk_truncated: false,
      }),
    );
    if (r.inspect || !r.baseline) continue;
    const { status, reason, reason_text, ...cells } = r.baseline;
    out.baseline.push(
      row('baseline', r.name, { status, reason, reason_text }, {
        repository: r.name, family, manager: r.manager ?? null, revision, image: `envforge/${family}:0123456789ab`, image_id: `sha256:${sha(`image:${family}`)}`,
        exit_code: null, metric_exit_code: null, build_tool: null, issues_count: null, missing_modules: null, failure_class: null, timed_out: false, oom_killed: false,
        log_bytes: String(cells.log ?? '').length, log_truncated: false, ...cells,
      }),
    );
  }
  return out;
}

export interface FixtureDataset {
  layout: Layout;
  loaded: LoadedConfig;
}

/** Write the rows of the given stages (default all four) into `<dataDir>/fixture`. */
export async function writeEnvbenchDataset(dataDir: string, rows: Partial<StageRows> = envbenchRows()): Promise<FixtureDataset> {
  const layout = layoutFor(dataDir, 'fixture');
  const store = await ArtifactStore.open(layout);
  try {
    for (const [name, stageRows] of Object.entries(rows)) {
      if (!stageRows || stageRows.length === 0) continue;
      await store.writer(findStage(GRAPH, name)!, RUN[name as keyof typeof RUN]).write(stageRows);
    }
  } finally {
    store.close();
  }
  return { layout, loaded: fixtureConfig(dataDir) };
}

export function fixtureConfig(dataDir: string): LoadedConfig {
  return parseConfig(
    `dataset = "fixture"\ndata_dir = ${JSON.stringify(dataDir)}\n[run]\nlog_level = "silent"\n[search]\nexport = "fixture.csv"\nlast_commit_after = "2024-01-01"\nlicenses = ["MIT", "Apache-2.0", "BSD-3-Clause"]\n`,
    'fixture.toml',
    {},
  );
}
