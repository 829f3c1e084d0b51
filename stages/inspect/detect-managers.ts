import { asString, asTable, dig, isEvidence, type JsonObject, type Manifests, type Parsed } from './parse-manifests.js';
import type { RepoFiles } from './safe-files.js';

/**
 * Dependency managers declared in the repository ROOT, each with the files that prove it.
 *
 * Evidence rule: a regular file in the repository counts by name even when its content is
 * malformed, binary or over the size cap, because EnvBench's deterministic scripts dispatch on
 * file names too (a broken pom.xml still sends the JVM script to Maven). Unsafe entries (a
 * symlink out of the repository, a loop, a broken link) count as absent.
 */

export type Family = 'python' | 'jvm' | 'js' | 'ruby';

export const MANAGER_ORDER = [
  'pip',
  'poetry',
  'uv',
  'pipenv',
  'conda',
  'pdm',
  'hatch',
  'maven',
  'gradle',
  'npm',
  'yarn',
  'pnpm',
  'bundler',
] as const;

export type Manager = (typeof MANAGER_ORDER)[number];

export const MANAGER_FAMILY: Record<Manager, Family> = {
  pip: 'python',
  poetry: 'python',
  uv: 'python',
  pipenv: 'python',
  conda: 'python',
  pdm: 'python',
  hatch: 'python',
  maven: 'jvm',
  gradle: 'jvm',
  npm: 'js',
  yarn: 'js',
  pnpm: 'js',
  bundler: 'ruby',
};

/** The managers EnvBench's benchmark is made of; the others are recorded for information. */
export const ENVBENCH_MANAGERS = {
  python: ['pip', 'poetry'],
  jvm: ['maven', 'gradle'],
} as const satisfies Record<'python' | 'jvm', readonly Manager[]>;

const POETRY_BACKENDS = new Set(['poetry.core.masonry.api', 'poetry.masonry.api']);

export interface ManagerFacts {
  managers: Manager[];
  manager_files: string[];
  python_managers: Manager[];
  jvm_managers: Manager[];
}

class Evidence {
  private readonly byManager = new Map<Manager, string[]>();

  add(manager: Manager, file: string): void {
    const files = this.byManager.get(manager) ?? [];
    if (!files.includes(file)) files.push(file);
    this.byManager.set(manager, files);
  }

  facts(): ManagerFacts {
    const managers = MANAGER_ORDER.filter((m) => this.byManager.has(m));
    return {
      managers,
      manager_files: managers.flatMap((m) => this.byManager.get(m)!.map((f) => `${m}:${f}`)),
      python_managers: managers.filter((m) => (ENVBENCH_MANAGERS.python as readonly Manager[]).includes(m)),
      jvm_managers: managers.filter((m) => (ENVBENCH_MANAGERS.jvm as readonly Manager[]).includes(m)),
    };
  }
}

/** `rootNames`: the names listed in the root directory (symlinks included, resolved on use). */
export async function detectManagers(rootNames: readonly string[], files: RepoFiles, manifests: Manifests): Promise<ManagerFacts> {
  const names = new Set(rootNames);
  const evidence = new Evidence();
  // Name-only evidence: lockfiles and wrapper scripts are never parsed (lockfiles can be huge).
  const byName = async (manager: Manager, name: string): Promise<void> => {
    if (names.has(name) && (await files.present(name))) evidence.add(manager, name);
  };
  const byContent = async (manager: Manager, name: string, parsed: (n: string) => Promise<Parsed<unknown>>): Promise<void> => {
    if (names.has(name) && isEvidence(await parsed(name))) evidence.add(manager, name);
  };

  await detectPython(names, evidence, byName, byContent, manifests);

  await byContent('maven', 'pom.xml', (n) => manifests.xml(n));
  await byName('maven', 'mvnw');
  for (const name of ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts']) {
    await byContent('gradle', name, (n) => manifests.text(n));
  }
  await byName('gradle', 'gradlew');

  await detectJavaScript(names, evidence, files, manifests);

  await byContent('bundler', 'Gemfile', (n) => manifests.text(n));
  await byName('bundler', 'Gemfile.lock');
  return evidence.facts();
}

async function detectPython(
  names: Set<string>,
  evidence: Evidence,
  byName: (m: Manager, n: string) => Promise<void>,
  byContent: (m: Manager, n: string, p: (n: string) => Promise<Parsed<unknown>>) => Promise<void>,
  manifests: Manifests,
): Promise<void> {
  // EnvBench installs every root `*requirements*.txt`, so dev-requirements.txt counts too.
  for (const name of [...names].filter((n) => /requirements.*\.txt$/.test(n)).sort()) {
    await byContent('pip', name, (n) => manifests.text(n));
  }
  await byContent('pip', 'setup.py', (n) => manifests.text(n));

  if (names.has('setup.cfg')) {
    const cfg = await manifests.ini('setup.cfg');
    // A setup.cfg holding only [flake8] or [tool:pytest] configures tools, not a package.
    if (cfg.state === 'ok' ? cfg.value.has('metadata') || cfg.value.has('options') : isEvidence(cfg)) {
      evidence.add('pip', 'setup.cfg');
    }
  }

  if (names.has('pyproject.toml')) {
    for (const manager of classifyPyproject(await manifests.toml('pyproject.toml'))) {
      evidence.add(manager, 'pyproject.toml');
    }
  }

  await byName('poetry', 'poetry.lock');
  await byName('uv', 'uv.lock');
  await byContent('pipenv', 'Pipfile', (n) => manifests.toml(n));
  await byName('pipenv', 'Pipfile.lock');
  for (const name of ['environment.yml', 'environment.yaml']) {
    await byContent('conda', name, (n) => manifests.yaml(n));
  }
  await byName('pdm', 'pdm.lock');
}

/**
 * What a pyproject.toml declares. Poetry wins over pip when both could apply (poetry-core
 * backend, or a [tool.poetry] table next to a [project] table in Poetry 2 projects): the file
 * is then a Poetry project, and counting pip too would call it two managers.
 */
export function classifyPyproject(parsed: Parsed<JsonObject>): Manager[] {
  if (parsed.state === 'missing' || parsed.state === 'unsafe') return [];
  if (parsed.state === 'unusable') return ['pip'];
  if (parsed.state === 'invalid') {
    // Unparseable: fall back on the two unmistakable Poetry markers in the raw text, else pip,
    // which is what a PEP 517 frontend assumes for a pyproject.toml it cannot read further.
    const poetry = /^\s*\[tool\.poetry[\].]/m.test(parsed.text) || /poetry(\.core)?\.masonry\.api/.test(parsed.text);
    return [poetry ? 'poetry' : 'pip'];
  }
  const doc = parsed.value;
  const buildSystem = asTable(doc['build-system']);
  const backend = asString(buildSystem?.['build-backend']);
  const tool = asTable(doc.tool);
  const result: Manager[] = [];
  if ((backend && POETRY_BACKENDS.has(backend)) || asTable(tool?.poetry)) {
    result.push('poetry');
  } else if (backend || buildSystem?.requires !== undefined || asTable(doc.project)) {
    result.push('pip');
  }
  if (asTable(tool?.pdm)) result.push('pdm');
  if (asTable(tool?.hatch)) result.push('hatch');
  return result;
}

async function detectJavaScript(names: Set<string>, evidence: Evidence, files: RepoFiles, manifests: Manifests): Promise<void> {
  const lockfiles: Array<[Manager, string]> = [
    ['npm', 'package-lock.json'],
    ['npm', 'npm-shrinkwrap.json'],
    ['yarn', 'yarn.lock'],
    ['pnpm', 'pnpm-lock.yaml'],
  ];
  const locked: Array<[Manager, string]> = [];
  for (const [manager, name] of lockfiles) {
    if (names.has(name) && (await files.present(name))) locked.push([manager, name]);
  }
  const pkg = names.has('package.json') ? await manifests.json('package.json') : ({ state: 'missing' } as const);
  if (isEvidence(pkg)) {
    const lockManagers = [...new Set(locked.map(([m]) => m))];
    // Without a lockfile the package.json "packageManager" field (Corepack) names the tool.
    const declared = pkg.state === 'ok' ? /^(npm|yarn|pnpm)@/.exec(asString(dig(pkg.value, 'packageManager')) ?? '') : null;
    const owners: Manager[] = lockManagers.length > 0 ? lockManagers : [(declared?.[1] as Manager | undefined) ?? 'npm'];
    for (const manager of owners) evidence.add(manager, 'package.json');
  }
  for (const [manager, name] of locked) evidence.add(manager, name);
}
