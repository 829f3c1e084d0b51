import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Prng } from './prng.js';

/**
 * Deterministic checked-out repositories for the inspect benchmark: Python (pip requirements,
 * setup.cfg, PEP 621, Poetry) and JVM (Maven, Maven multi-module, Gradle Kotlin/Groovy DSL,
 * Gradle multi-project) projects with realistic trees — nested source, test and docs
 * directories, a `.git` directory and a `.venv`/`.gradle`/`node_modules` directory that the
 * walk must not enter, and a few large files. Same seed → same bytes.
 */

export const REPO_KINDS = [
  'pip-requirements',
  'pip-setup-cfg',
  'pip-pep621',
  'poetry',
  'maven',
  'maven-modules',
  'gradle-kts',
  'gradle-groovy',
  'gradle-multi',
] as const;
export type RepoKind = (typeof REPO_KINDS)[number];

export interface GeneratedRepo {
  name: string;
  kind: RepoKind;
  dir: string;
  /** Every file written, including those in skipped directories. */
  files: number;
  bytes: number;
  /** Files inside directories the walk never enters (.git, .venv, .gradle, node_modules). */
  skippedFiles: number;
  /** Files of 256 KiB or more. */
  largeFiles: number;
  /** The manager inspect must report for this repository. */
  expectManager: 'pip' | 'poetry' | 'maven' | 'gradle';
  expectMonorepo: boolean;
}

export interface GeneratedSet {
  root: string;
  repos: GeneratedRepo[];
  files: number;
  bytes: number;
  skippedFiles: number;
  largeFiles: number;
  /** sha256 over every path and content: equal across runs when generation is deterministic. */
  fingerprint: string;
  generateMs: number;
}

export interface GenerateOptions {
  count: number;
  seed: number;
  minFiles: number;
  maxFiles: number;
}

const WORDS = [
  'account', 'adapter', 'agent', 'batch', 'buffer', 'cache', 'channel', 'client', 'config', 'context',
  'cursor', 'dataset', 'decoder', 'engine', 'event', 'export', 'filter', 'graph', 'handler', 'index',
  'job', 'kernel', 'layer', 'loader', 'metric', 'model', 'node', 'parser', 'pipeline', 'plugin',
  'queue', 'reader', 'record', 'registry', 'report', 'router', 'schema', 'session', 'shard', 'signal',
  'source', 'stage', 'store', 'stream', 'task', 'token', 'tracker', 'vector', 'worker', 'writer',
];
const PY_DEPS = [
  'numpy', 'pandas', 'requests', 'click', 'pydantic', 'sqlalchemy', 'fastapi', 'uvicorn', 'httpx', 'attrs',
  'pyyaml', 'jinja2', 'rich', 'typer', 'scipy', 'matplotlib', 'pytest', 'pytest-cov', 'mypy', 'black',
  'ruff', 'tqdm', 'boto3', 'redis', 'celery', 'psycopg2-binary', 'lxml', 'orjson', 'tenacity', 'structlog',
];
const JAVA_DEPS: Array<[string, string, string]> = [
  ['org.slf4j', 'slf4j-api', '2.0.9'],
  ['com.google.guava', 'guava', '32.1.3-jre'],
  ['com.fasterxml.jackson.core', 'jackson-databind', '2.15.3'],
  ['org.apache.commons', 'commons-lang3', '3.13.0'],
  ['junit', 'junit', '4.13.2'],
  ['org.junit.jupiter', 'junit-jupiter', '5.10.1'],
  ['org.mockito', 'mockito-core', '5.7.0'],
  ['io.netty', 'netty-all', '4.1.100.Final'],
  ['org.postgresql', 'postgresql', '42.6.0'],
  ['com.squareup.okhttp3', 'okhttp', '4.12.0'],
];

/** Line pools built once per run, so that file bodies cost a pick per line, not per character. */
class LinePools {
  readonly python: string[] = [];
  readonly java: string[] = [];
  readonly prose: string[] = [];

  constructor(rng: Prng) {
    for (let i = 0; i < 1500; i += 1) {
      const a = rng.pick(WORDS);
      const b = rng.pick(WORDS);
      const n = rng.int(0, 999);
      this.python.push(
        rng.pick([
          `def ${a}_${b}_${n}(${b}, limit=${n}):`,
          `    """Return the ${a} of the ${b} (at most ${n} items)."""`,
          `    ${a} = ${b}.get("${a}", ${n})`,
          `    for ${a} in ${b}_items[:${n}]:`,
          `        result.append(${a}.${b}())`,
          `    if ${a} is None or len(${b}) > ${n}:`,
          `        raise ValueError(f"bad ${a}: {${b}!r}")`,
          `    return ${a}, ${b}`,
          `class ${cap(a)}${cap(b)}${n}(Base${cap(b)}):`,
          `    ${a}_${b}: int = ${n}`,
          `from .${a} import ${cap(b)}${cap(a)}`,
          `import ${a}_${b}`,
          ``,
          `# ${a} ${b}: keep in sync with the ${b} registry (${n})`,
        ]),
      );
      this.java.push(
        rng.pick([
          `    private final ${cap(a)}${cap(b)} ${a}${cap(b)}${n};`,
          `    public ${cap(a)} get${cap(a)}${n}(${cap(b)} ${b}) {`,
          `        if (${b} == null || ${b}.size() > ${n}) {`,
          `            throw new IllegalArgumentException("bad ${a}: " + ${b});`,
          `        }`,
          `        return this.${a}${cap(b)}${n}.apply(${b});`,
          `    }`,
          `    /** Returns the ${a} of this ${b}, at most ${n}. */`,
          `    @Override`,
          `        for (${cap(a)} ${a} : ${b}.${a}s()) { result.add(${a}.to${cap(b)}()); }`,
          ``,
          `    // ${a} ${b} (${n})`,
        ]),
      );
      this.prose.push(
        rng.pick([
          `The ${a} ${b} keeps up to ${n} entries before it flushes.`,
          `## ${cap(a)} and ${b}`,
          `- \`${a}.${b}\`: how many ${b}s a ${a} may hold (default ${n}).`,
          `See the ${b} guide for the ${a} options.`,
          ``,
          `    ${a} = ${cap(b)}(limit=${n})`,
          `.. note:: The ${a} is rebuilt whenever the ${b} changes.`,
        ]),
      );
    }
  }
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function body(rng: Prng, pool: readonly string[], bytes: number, header = ''): string {
  const lines: string[] = header ? [header] : [];
  let size = header.length;
  while (size < bytes) {
    const line = rng.pick(pool);
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n') + '\n';
}

/** Collects one repository's files, then writes them in path order. */
class RepoWriter {
  private readonly files = new Map<string, string | Buffer>();

  constructor(readonly dir: string) {}

  add(path: string, content: string | Buffer): void {
    this.files.set(path, content);
  }

  get count(): number {
    return this.files.size;
  }

  flush(hash: ReturnType<typeof createHash>): { files: number; bytes: number; skipped: number; large: number } {
    let bytes = 0;
    let skipped = 0;
    let large = 0;
    const made = new Set<string>();
    for (const path of [...this.files.keys()].sort()) {
      const content = this.files.get(path)!;
      const abs = join(this.dir, path);
      const parent = dirname(abs);
      if (!made.has(parent)) {
        mkdirSync(parent, { recursive: true });
        made.add(parent);
      }
      writeFileSync(abs, content);
      const size = typeof content === 'string' ? Buffer.byteLength(content) : content.length;
      bytes += size;
      if (size >= 256 * 1024) large += 1;
      if (/(^|\/)(\.git|\.venv|\.gradle|node_modules)\//.test(path)) skipped += 1;
      hash.update(`${path}\0${size}\0`);
      hash.update(content);
    }
    return { files: this.files.size, bytes, skipped, large };
  }
}

/** A random directory tree below `base`: up to `maxDepth` extra levels, a few children each. */
function dirTree(rng: Prng, base: string, maxDepth: number, breadth: number): string[] {
  const dirs = [base];
  const grow = (dir: string, depth: number): void => {
    if (depth >= maxDepth) return;
    const children = rng.int(depth === 0 ? 2 : 0, breadth);
    for (let i = 0; i < children; i += 1) {
      const child = `${dir}/${rng.pick(WORDS)}${i === 0 ? '' : i}`;
      if (dirs.includes(child)) continue;
      dirs.push(child);
      grow(child, depth + 1);
    }
  };
  grow(base, 0);
  return dirs;
}

function pyVersion(rng: Prng): string {
  return rng.pick(['>=3.8', '>=3.9', '>=3.10', '>=3.8,<3.13', '~=3.11']);
}

function requirements(rng: Prng, n: number): string {
  const deps = new Set<string>();
  while (deps.size < n) deps.add(rng.pick(PY_DEPS));
  return [...deps].map((d) => `${d}${rng.pick(['', '>=1.0', `==${rng.int(1, 4)}.${rng.int(0, 20)}.${rng.int(0, 9)}`, '<3'])}`).join('\n') + '\n';
}

function pomXml(rng: Prng, artifact: string, opts: { modules?: string[]; parent?: string; java: string }): string {
  const deps = new Set<number>();
  const n = rng.int(3, 8);
  while (deps.size < n) deps.add(rng.int(0, JAVA_DEPS.length - 1));
  const depXml = [...deps]
    .map((i) => {
      const [g, a, v] = JAVA_DEPS[i]!;
      return `    <dependency>\n      <groupId>${g}</groupId>\n      <artifactId>${a}</artifactId>\n      <version>${v}</version>\n    </dependency>`;
    })
    .join('\n');
  const parent = opts.parent
    ? `  <parent>\n    <groupId>org.example</groupId>\n    <artifactId>${opts.parent}</artifactId>\n    <version>1.0.0-SNAPSHOT</version>\n  </parent>\n`
    : '';
  const modules = opts.modules ? `  <modules>\n${opts.modules.map((m) => `    <module>${m}</module>`).join('\n')}\n  </modules>\n` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
${parent}  <groupId>org.example</groupId>
  <artifactId>${artifact}</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <packaging>${opts.modules ? 'pom' : 'jar'}</packaging>
${modules}  <properties>
    <maven.compiler.release>${opts.java}</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
${depXml}
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.11.0</version>
      </plugin>
    </plugins>
  </build>
</project>
`;
}

function gradleBuild(rng: Prng, kts: boolean, java: string): string {
  const deps = new Set<number>();
  const n = rng.int(3, 8);
  while (deps.size < n) deps.add(rng.int(0, JAVA_DEPS.length - 1));
  const lines = [...deps].map((i) => {
    const [g, a, v] = JAVA_DEPS[i]!;
    const conf = a.includes('junit') || a.includes('mockito') ? 'testImplementation' : 'implementation';
    return kts ? `    ${conf}("${g}:${a}:${v}")` : `    ${conf} '${g}:${a}:${v}'`;
  });
  return kts
    ? `plugins {\n    java\n    application\n}\n\nrepositories {\n    mavenCentral()\n}\n\njava {\n    toolchain {\n        languageVersion.set(JavaLanguageVersion.of(${java}))\n    }\n}\n\ndependencies {\n${lines.join('\n')}\n}\n\ntasks.test {\n    useJUnitPlatform()\n}\n`
    : `plugins {\n    id 'java'\n    id 'application'\n}\n\nrepositories {\n    mavenCentral()\n}\n\nsourceCompatibility = '${java}'\ntargetCompatibility = '${java}'\n\ndependencies {\n${lines.join('\n')}\n}\n\ntest {\n    useJUnitPlatform()\n}\n`;
}

/** Fills `writer` with about `target` files for one repository of `kind`. */
function buildRepo(rng: Prng, pools: LinePools, writer: RepoWriter, kind: RepoKind, name: string, target: number): void {
  const python = kind.startsWith('pip') || kind === 'poetry';
  const pkg = name.replace(/-/g, '_');
  const java = rng.pick(['8', '11', '17', '21']);

  // --- common top-level files
  writer.add('README.md', body(rng, pools.prose, rng.int(1500, 9000), `# ${name}\n\n## Installation\n`));
  writer.add('LICENSE', 'Apache License\nVersion 2.0, January 2004\n'.repeat(rng.int(20, 60)));
  if (rng.chance(0.6)) writer.add('CONTRIBUTING.md', body(rng, pools.prose, rng.int(800, 4000), '# Contributing'));
  writer.add('.gitignore', python ? '__pycache__/\n*.pyc\n.venv/\ndist/\n' : 'target/\nbuild/\n.gradle/\n*.class\n');
  writer.add('.github/workflows/ci.yml', `name: CI\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n`);
  if (rng.chance(0.35)) writer.add('Dockerfile', python ? 'FROM python:3.11-slim\nCOPY . /app\nRUN pip install /app\n' : `FROM eclipse-temurin:${java}-jdk\nCOPY . /app\n`);
  if (rng.chance(0.2)) writer.add('.devcontainer/devcontainer.json', '{ "image": "mcr.microsoft.com/devcontainers/base:ubuntu" }\n');

  // --- build files
  let modules: string[] = [];
  switch (kind) {
    case 'pip-requirements':
      writer.add('requirements.txt', requirements(rng, rng.int(8, 25)));
      writer.add('requirements-dev.txt', `-r requirements.txt\n${requirements(rng, 5)}`);
      writer.add('setup.py', `from setuptools import setup, find_packages\n\nsetup(\n    name="${name}",\n    version="0.4.1",\n    packages=find_packages(exclude=["tests"]),\n    python_requires="${pyVersion(rng)}",\n)\n`);
      writer.add('tox.ini', '[tox]\nenvlist = py39,py310,py311\n\n[testenv]\ndeps = -rrequirements-dev.txt\ncommands = pytest\n');
      break;
    case 'pip-setup-cfg':
      writer.add('setup.cfg', `[metadata]\nname = ${name}\nversion = 1.2.0\n\n[options]\npackages = find:\npython_requires = ${pyVersion(rng)}\ninstall_requires =\n${requirements(rng, rng.int(5, 15)).trim().split('\n').map((l) => `    ${l}`).join('\n')}\n\n[flake8]\nmax-line-length = 100\n`);
      writer.add('setup.py', 'from setuptools import setup\n\nsetup()\n');
      writer.add('pyproject.toml', '[build-system]\nrequires = ["setuptools>=61", "wheel"]\nbuild-backend = "setuptools.build_meta"\n');
      if (rng.chance(0.5)) writer.add('.python-version', '3.11\n');
      break;
    case 'pip-pep621':
      writer.add('pyproject.toml', `[build-system]\nrequires = ["setuptools>=64"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "${name}"\nversion = "0.9.0"\nrequires-python = "${pyVersion(rng)}"\ndependencies = [\n${requirements(rng, rng.int(5, 15)).trim().split('\n').map((l) => `  "${l}",`).join('\n')}\n]\n\n[project.optional-dependencies]\ntest = ["pytest", "pytest-cov"]\n\n[tool.ruff]\nline-length = 100\n`);
      writer.add('docs/requirements.txt', 'sphinx\nfuro\n');
      break;
    case 'poetry':
      writer.add('pyproject.toml', `[tool.poetry]\nname = "${name}"\nversion = "0.3.0"\ndescription = ""\nauthors = ["Bench <bench@example.invalid>"]\n\n[tool.poetry.dependencies]\npython = "^3.${rng.int(8, 11)}"\n${requirements(rng, rng.int(5, 15)).trim().split('\n').map((l) => `${l.split(/[<>=]/)[0]} = "*"`).join('\n')}\n\n[tool.poetry.group.dev.dependencies]\npytest = "^7.4"\n\n[build-system]\nrequires = ["poetry-core"]\nbuild-backend = "poetry.core.masonry.api"\n`);
      // Lockfiles are large and only counted by name.
      writer.add('poetry.lock', body(rng, pools.prose, rng.int(200, 1400) * 1024, '# This file is automatically @generated by Poetry.'));
      break;
    case 'maven':
      writer.add('pom.xml', pomXml(rng, name, { java }));
      writer.add('.mvn/wrapper/maven-wrapper.properties', 'distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.5/apache-maven-3.9.5-bin.zip\n');
      writer.add('mvnw', '#!/bin/sh\n# Maven wrapper\nexec java -jar .mvn/wrapper/maven-wrapper.jar "$@"\n');
      break;
    case 'maven-modules':
      modules = ['core', 'api', rng.pick(['web', 'cli', 'service']), ...(rng.chance(0.5) ? ['integration'] : [])];
      writer.add('pom.xml', pomXml(rng, name, { java, modules }));
      for (const m of modules) writer.add(`${m}/pom.xml`, pomXml(rng, `${name}-${m}`, { java, parent: name }));
      writer.add('.mvn/wrapper/maven-wrapper.properties', 'distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.5/apache-maven-3.9.5-bin.zip\n');
      writer.add('mvnw', '#!/bin/sh\nexec java -jar .mvn/wrapper/maven-wrapper.jar "$@"\n');
      break;
    case 'gradle-kts':
    case 'gradle-groovy':
    case 'gradle-multi': {
      const kts = kind === 'gradle-kts' || (kind === 'gradle-multi' && rng.chance(0.5));
      const ext = kts ? '.kts' : '';
      modules = kind === 'gradle-multi' ? ['core', 'app', rng.pick(['lib', 'server', 'client'])] : [];
      const include = modules.length ? (kts ? `include(${modules.map((m) => `"${m}"`).join(', ')})\n` : `include ${modules.map((m) => `'${m}'`).join(', ')}\n`) : '';
      writer.add(`settings.gradle${ext}`, `rootProject.name = "${name}"\n${include}`);
      writer.add(`build.gradle${ext}`, gradleBuild(rng, kts, java));
      for (const m of modules) writer.add(`${m}/build.gradle${ext}`, gradleBuild(rng, kts, java));
      writer.add('gradle/wrapper/gradle-wrapper.properties', `distributionBase=GRADLE_USER_HOME\ndistributionPath=wrapper/dists\ndistributionUrl=https\\://services.gradle.org/distributions/gradle-${rng.pick(['7.6.3', '8.4', '8.5', '8.7'])}-bin.zip\nzipStoreBase=GRADLE_USER_HOME\nzipStorePath=wrapper/dists\n`);
      writer.add('gradle/wrapper/gradle-wrapper.jar', rng.bytes(rng.int(43, 63) * 1024));
      writer.add('gradlew', '#!/bin/sh\n# Gradle start up script for UN*X\nexec java -classpath gradle/wrapper/gradle-wrapper.jar org.gradle.wrapper.GradleWrapperMain "$@"\n');
      writer.add('gradlew.bat', '@rem Gradle startup script for Windows\n');
      writer.add('gradle.properties', 'org.gradle.jvmargs=-Xmx2g\norg.gradle.parallel=true\n');
      break;
    }
  }

  // --- source, test and docs trees
  const sourceDirs: string[] = [];
  const testDirs: string[] = [];
  if (python) {
    sourceDirs.push(...dirTree(rng, rng.chance(0.4) ? `src/${pkg}` : pkg, 4, 4));
    testDirs.push(...dirTree(rng, 'tests', 2, 3));
  } else {
    const roots = modules.length ? modules : ['.'];
    for (const m of roots) {
      const prefix = m === '.' ? '' : `${m}/`;
      sourceDirs.push(...dirTree(rng, `${prefix}src/main/java/org/example/${pkg}`, 3, 4));
      testDirs.push(...dirTree(rng, `${prefix}src/test/java/org/example/${pkg}`, 2, 3));
      writer.add(`${prefix}src/main/resources/application.properties`, `app.name=${name}\napp.threads=${rng.int(1, 16)}\n`);
    }
  }
  const docDirs = ['docs', 'docs/guide', 'docs/reference', 'docs/_static'];
  writer.add('docs/installation.md', body(rng, pools.prose, rng.int(1000, 5000), '# Installation'));
  if (python) for (const d of sourceDirs) writer.add(`${d}/__init__.py`, rng.chance(0.3) ? '' : `"""${d}."""\n`);

  // Large files: a binary image in docs, sometimes a test data set over max_file_bytes.
  writer.add('docs/_static/architecture.png', rng.bytes(rng.int(256, 512) * 1024, 0.3));
  if (rng.chance(0.3)) writer.add(python ? 'tests/data/sample.parquet' : 'src/test/resources/sample.bin', rng.bytes(rng.int(1100, 2000) * 1024));

  const treeTarget = target - writer.count;
  for (let i = 0; writer.count < target && i < treeTarget * 3; i += 1) {
    const r = rng.next();
    const size = rng.logInt(100, 12_000);
    const stem = `${rng.pick(WORDS)}_${rng.pick(WORDS)}`;
    if (r < 0.58) {
      const d = rng.pick(sourceDirs);
      if (python) writer.add(`${d}/${stem}.py`, body(rng, pools.python, size, `"""${stem}."""`));
      else writer.add(`${d}/${cap(stem.replace('_', ''))}${i}.java`, body(rng, pools.java, size, `package org.example.${pkg};\n\npublic class ${cap(stem.replace('_', ''))}${i} {`));
    } else if (r < 0.85) {
      const d = rng.pick(testDirs);
      if (python) writer.add(`${d}/test_${stem}.py`, body(rng, pools.python, size, `import pytest\n`));
      else writer.add(`${d}/${cap(stem.replace('_', ''))}${i}Test.java`, body(rng, pools.java, size, `package org.example.${pkg};\n\nclass ${cap(stem.replace('_', ''))}${i}Test {`));
    } else if (r < 0.95) {
      writer.add(`${rng.pick(docDirs)}/${stem}.${rng.pick(['md', 'rst'])}`, body(rng, pools.prose, size, `# ${stem}`));
    } else {
      writer.add(`${rng.pick(['scripts', 'examples', 'tools', 'config'])}/${stem}.${rng.pick(python ? ['py', 'sh', 'yaml'] : ['sh', 'yaml', 'json'])}`, body(rng, pools.prose, Math.min(size, 4000)));
    }
  }

  // --- directories the walk must never enter, on top of the project's own files
  const skipped = Math.round(target * (0.15 + rng.next() * 0.25));
  let made = 0;
  // .git: loose objects, refs and a pack.
  writer.add('.git/HEAD', 'ref: refs/heads/main\n');
  writer.add('.git/config', '[core]\n\trepositoryformatversion = 0\n\tbare = false\n');
  writer.add('.git/refs/heads/main', `${rng.bytes(20).toString('hex')}\n`);
  writer.add(`.git/objects/pack/pack-${rng.bytes(20).toString('hex')}.pack`, rng.bytes(rng.int(256, 1536) * 1024));
  writer.add('.git/index', rng.bytes(target * 72));
  const looseObjects = Math.round(skipped * 0.4);
  for (; made < looseObjects; made += 1) {
    const id = rng.bytes(20).toString('hex');
    writer.add(`.git/objects/${id.slice(0, 2)}/${id.slice(2)}`, rng.bytes(rng.logInt(60, 3000)));
  }
  // A virtualenv, a Gradle cache or a docs toolchain's node_modules.
  const third = python ? (rng.chance(0.7) ? '.venv/lib/python3.11/site-packages' : 'node_modules') : kind.startsWith('gradle') ? '.gradle/caches/modules-2/files-2.1' : 'node_modules';
  for (; made < skipped; made += 1) {
    const lib = `${rng.pick(WORDS)}${rng.int(0, 30)}`;
    const ext = third.startsWith('.venv') ? 'py' : third.startsWith('.gradle') ? 'jar' : 'js';
    writer.add(`${third}/${lib}/${rng.pick(['', 'lib/', 'dist/', 'core/'])}${rng.pick(WORDS)}.${ext}`, body(rng, pools.python, rng.logInt(100, 6000)));
  }
}

export async function generateRepos(root: string, opts: GenerateOptions): Promise<GeneratedSet> {
  const started = performance.now();
  const rng = new Prng(opts.seed);
  const pools = new LinePools(rng.fork());
  const hash = createHash('sha256');
  const repos: GeneratedRepo[] = [];
  for (let i = 0; i < opts.count; i += 1) {
    const repoRng = rng.fork();
    const kind = REPO_KINDS[i % REPO_KINDS.length]!;
    const name = `${kind}-${String(i).padStart(2, '0')}`;
    const dir = join(root, name);
    const writer = new RepoWriter(dir);
    const target = repoRng.logInt(opts.minFiles, opts.maxFiles);
    buildRepo(repoRng, pools, writer, kind, name, target);
    const written = writer.flush(hash);
    repos.push({
      name,
      kind,
      dir,
      files: written.files,
      bytes: written.bytes,
      skippedFiles: written.skipped,
      largeFiles: written.large,
      expectManager: kind.startsWith('pip') ? 'pip' : kind === 'poetry' ? 'poetry' : kind.startsWith('maven') ? 'maven' : 'gradle',
      expectMonorepo: kind === 'maven-modules' || kind === 'gradle-multi',
    });
  }
  const sum = (f: (r: GeneratedRepo) => number): number => repos.reduce((acc, r) => acc + f(r), 0);
  return {
    root,
    repos,
    files: sum((r) => r.files),
    bytes: sum((r) => r.bytes),
    skippedFiles: sum((r) => r.skippedFiles),
    largeFiles: sum((r) => r.largeFiles),
    fingerprint: hash.digest('hex').slice(0, 16),
    generateMs: performance.now() - started,
  };
}
