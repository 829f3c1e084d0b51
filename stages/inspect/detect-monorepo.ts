import type { ManagerFacts } from './detect-managers.js';
import { findGradleIncludes } from './gradle-script.js';
import { asArray, asString, asTable, dig, type Manifests } from './parse-manifests.js';
import type { WalkEntry } from './repo-walk.js';
import type { RepoFiles } from './safe-files.js';

/**
 * Monorepo signals. Each signal is `<kind>:<detail>`; the kind says which language family it
 * concerns, so the content filter can ignore, say, npm workspaces when selecting Python repos
 * (another ecosystem's layout does not change what a Python setup script has to do).
 */

export type SignalFamily = 'python' | 'jvm' | 'js';

export const MONOREPO_SIGNAL_FAMILY = {
  'multiple-python-managers': 'python',
  'multiple-jvm-managers': 'jvm',
  'maven-modules': 'jvm',
  'gradle-include': 'jvm',
  'npm-workspaces': 'js',
  'pnpm-workspace': 'js',
  'nested-python-build-files': 'python',
  'nested-jvm-build-files': 'jvm',
  'nested-js-build-files': 'js',
} as const satisfies Record<string, SignalFamily>;

export type SignalKind = keyof typeof MONOREPO_SIGNAL_FAMILY;

export function monorepoSignalFamily(signal: string): SignalFamily | undefined {
  const kind = signal.split(':', 1)[0]!;
  return (MONOREPO_SIGNAL_FAMILY as Record<string, SignalFamily>)[kind];
}

/**
 * Files that make a directory its own project. Requirements files and setup.cfg are left out:
 * `docs/requirements.txt` or a CI requirements file is routine in single-project repos.
 * Gemfiles are left out as no benchmark family builds Ruby.
 */
export const NESTED_BUILD_FILES: Record<string, SignalFamily> = {
  'pyproject.toml': 'python',
  'setup.py': 'python',
  'pom.xml': 'jvm',
  'build.gradle': 'jvm',
  'build.gradle.kts': 'jvm',
  'package.json': 'js',
};

/**
 * Build files under these directories are recorded but do not make a monorepo: test fixtures,
 * examples, samples, docs and project templates are inputs or illustrations that the root's
 * setup never builds, and buildSrc is part of the root Gradle build itself.
 */
const AUXILIARY_DIR =
  /^(tests?|testing|__tests__|test[-_]?data|test[-_]?resources|it|fixtures?|__fixtures__|examples?|samples?|demos?|docs?|documentation|templates?|buildSrc)$/i;

/**
 * Build outputs hold copies of manifests (target/classes/META-INF/maven/.../pom.xml,
 * build/lib/setup.py, dist/package.json) that say nothing about the source layout.
 */
const BUILD_OUTPUT_DIR = /^(build|target|dist|out|bin|\.eggs|.*\.egg-info)$/;

export interface MonorepoFacts {
  is_monorepo: boolean;
  monorepo_signals: string[];
  nested_build_files: string[];
  nested_build_files_ignored: string[];
}

const MAX_LISTED = 5;

export async function detectMonorepo(
  managers: ManagerFacts,
  rootNames: readonly string[],
  walk: readonly WalkEntry[],
  nestedDepth: number,
  files: RepoFiles,
  manifests: Manifests,
): Promise<MonorepoFacts> {
  const names = new Set(rootNames);
  const signals: string[] = [];
  const signal = (kind: SignalKind, detail: string[]): void => {
    signals.push(`${kind}:${listed(detail)}`);
  };

  if (managers.python_managers.length > 1) signal('multiple-python-managers', managers.python_managers);
  if (managers.jvm_managers.length > 1) signal('multiple-jvm-managers', managers.jvm_managers);

  if (names.has('pom.xml')) {
    const pom = await manifests.xml('pom.xml');
    if (pom.state === 'ok') {
      const project = dig(pom.value, 'project');
      const modules = [
        ...asArray(dig(project, 'modules', 'module')),
        // Modules enabled by a profile are still part of the reactor the repository ships.
        ...asArray(dig(project, 'profiles', 'profile')).flatMap((p) => asArray(dig(p, 'modules', 'module'))),
      ];
      const unique = [...new Set(modules.map(asString).filter((m): m is string => !!m))];
      if (unique.length > 0) signal('maven-modules', unique);
    }
  }

  for (const name of ['settings.gradle', 'settings.gradle.kts']) {
    if (!names.has(name)) continue;
    const settings = await manifests.text(name);
    if (settings.state !== 'ok') continue;
    const { projects, dynamic } = findGradleIncludes(settings.value);
    if (dynamic) projects.push('(dynamic)');
    if (projects.length > 0) signal('gradle-include', projects);
  }

  if (names.has('package.json')) {
    const pkg = await manifests.json('package.json');
    if (pkg.state === 'ok') {
      const workspaces = dig(pkg.value, 'workspaces');
      // Yarn classic also accepts { packages: [...] }.
      const globs = asArray(asTable(workspaces) ? dig(workspaces, 'packages') : workspaces)
        .map(asString)
        .filter((g): g is string => !!g);
      if (globs.length > 0) signal('npm-workspaces', globs);
    }
  }

  if (names.has('pnpm-workspace.yaml') && (await files.present('pnpm-workspace.yaml'))) {
    // The file's presence is the signal; its globs are detail when readable.
    const ws = await manifests.yaml('pnpm-workspace.yaml');
    const globs = ws.state === 'ok' ? asArray(dig(ws.value, 'packages')).map(asString).filter((g): g is string => !!g) : [];
    signal('pnpm-workspace', globs.length > 0 ? globs : ['(no packages listed)']);
  }

  const nested = await findNestedBuildFiles(walk, nestedDepth, files);
  for (const family of ['python', 'jvm', 'js'] as const) {
    const paths = nested.counted.filter((p) => NESTED_BUILD_FILES[basename(p)] === family);
    if (paths.length > 0) signal(`nested-${family}-build-files`, paths);
  }

  return {
    is_monorepo: signals.length > 0,
    monorepo_signals: signals,
    nested_build_files: nested.counted,
    nested_build_files_ignored: nested.ignored,
  };
}

async function findNestedBuildFiles(
  walk: readonly WalkEntry[],
  nestedDepth: number,
  files: RepoFiles,
): Promise<{ counted: string[]; ignored: string[] }> {
  const counted: string[] = [];
  const ignored: string[] = [];
  for (const entry of walk) {
    if (entry.depth < 1 || entry.depth > nestedDepth || !(entry.name in NESTED_BUILD_FILES)) continue;
    if (entry.type === 'dir' || entry.type === 'other') continue;
    const dirs = entry.path.split('/').slice(0, -1);
    if (dirs.some((d) => BUILD_OUTPUT_DIR.test(d))) continue;
    if (entry.type === 'symlink' && !(await files.present(entry.path))) continue;
    (dirs.some((d) => AUXILIARY_DIR.test(d)) ? ignored : counted).push(entry.path);
  }
  return { counted: counted.sort(byPath), ignored: ignored.sort(byPath) };
}

function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

function listed(items: string[]): string {
  if (items.length <= MAX_LISTED) return items.join(',');
  return `${items.slice(0, MAX_LISTED).join(',')},+${items.length - MAX_LISTED} more`;
}
