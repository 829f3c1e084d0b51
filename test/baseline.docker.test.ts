import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type Docker from 'dockerode';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../pipeline/log/logger.js';
import { checkCells } from '../pipeline/runner/cells.js';
import { sandboxFor } from '../pipeline/sandbox/sandbox.js';
import type { Outcome, StageContext } from '../pipeline/stage.js';
import { baselineStage } from '../stages/baseline/index.js';
import { clonesRoot } from '../stages/clone/index.js';
import { envforgeContainers, requireBaseImage, requireDocker } from './helpers/docker.js';
import { fixtureConfig } from './helpers/fixture-graph.js';
import { git } from './helpers/git-fixtures.js';
import { tempDirs } from './helpers/temp-dir.js';

/**
 * The baseline stage end to end on a real engine: EnvBench's deterministic setup script and
 * metric run in the python and jvm sandbox images on generated checkouts in the clone cache.
 * PyPI and Maven Central are unreachable, so the Python cases use what Debian installed in the
 * image (requests, packaging) and the JVM cases fail where a build needs Central.
 */
const dirs = tempDirs();
const dataset = `baseline-${randomBytes(4).toString('hex')}`;
let docker: Docker;
let dataDir: string;

const SANDBOX = '[sandbox]\nca_bundle = "/etc/ssl/certs/ca-certificates.crt"\n';

function context(timeoutSeconds: number): StageContext {
  return {
    config: fixtureConfig(dataDir, `${SANDBOX}[baseline]\ntimeout_seconds = ${timeoutSeconds}\n`),
    dataset,
    cacheDir: join(dataDir, 'cache'),
    log: silentLogger,
    signal: new AbortController().signal,
  };
}

let ctx: StageContext;

/** A committed checkout at `<cache>/clones/<owner>/<repo>/<sha>` and the inspect row that points at it. */
function checkout(repository: string, family: 'python' | 'jvm', manager: string, files: Record<string, string>) {
  const work = dirs.make('envforge-checkout-');
  git(work, 'init', '--quiet', '--initial-branch=main');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), content);
  }
  git(work, 'add', '--all');
  git(work, 'commit', '--quiet', '--no-gpg-sign', '--allow-empty', '-m', 'fixture');
  const sha = git(work, 'rev-parse', 'HEAD');
  const clonePath = `${repository}/${sha}`;
  const dest = join(clonesRoot(ctx.cacheDir), clonePath);
  mkdirSync(dirname(dest), { recursive: true });
  renameSync(work, dest);
  return { repository, family, manager, revision: sha, clone_path: clonePath };
}

async function run(row: Record<string, unknown>, c = ctx): Promise<Outcome & { cells: Record<string, unknown> }> {
  const out = await baselineStage.run(row, c);
  expect(Array.isArray(out)).toBe(false);
  const o = out as Outcome;
  // Every row the stage returns must fit its declared columns (else the runner drops it).
  expect(checkCells(o.cells ?? {}, baselineStage.columns)).toBeUndefined();
  return o as Outcome & { cells: Record<string, unknown> };
}

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>demo</artifactId>
  <version>1.0.0</version>
  <properties>
    <maven.compiler.source>11</maven.compiler.source>
    <maven.compiler.target>11</maven.compiler.target>
  </properties>
  <dependencies>
    <dependency>
      <groupId>com.google.guava</groupId>
      <artifactId>guava</artifactId>
      <version>33.0.0-jre</version>
    </dependency>
  </dependencies>
</project>
`;
const APP = 'package com.example;\n\npublic class App {\n    public static void main(String[] args) {\n        System.out.println("hi");\n    }\n}\n';
const BUILD_GRADLE = "apply plugin: 'java'\n\nsourceCompatibility = 11\n\nrepositories {\n    mavenCentral()\n}\n\ndependencies {\n    implementation 'com.google.guava:guava:33.0.0-jre'\n}\n";

beforeAll(async () => {
  docker = await requireDocker();
  await requireBaseImage(docker);
  dataDir = dirs.make('envforge-baseline-');
  ctx = context(300);
  // First build of both images: ~1.5 and ~1 minutes; later runs find them by tag.
  const sandbox = sandboxFor(ctx, 'baseline');
  const t0 = Date.now();
  const [python, jvm] = await Promise.all([sandbox.image('python'), sandbox.image('jvm')]);
  console.log(`images: ${python.tag} (${python.built ? 'built' : 'cached'}), ${jvm.tag} (${jvm.built ? 'built' : 'cached'}) in ${Date.now() - t0} ms`);
}, 600_000);

afterEach(async () => {
  // Whatever happened in the test, its containers are gone.
  expect(await envforgeContainers(docker, `dev.envforge.dataset=${dataset}`)).toEqual([]);
});

afterAll(() => dirs.cleanup());

describe('baseline on Python checkouts', () => {
  it('rejects a checkout the script configures: requirements satisfied, every import resolved', async () => {
    const row = checkout('acme/configured', 'python', 'pip', {
      'requirements.txt': 'requests>=2.0\npackaging\n',
      'app/__init__.py': '',
      'app/main.py': 'import requests\nfrom packaging.version import Version\n\nprint(requests.__version__, Version("1.0"))\n',
    });
    const o = await run(row);
    expect(o.status).toBe('rejected');
    expect(o.reason).toBe('trivially_configurable');
    expect(o.cells).toMatchObject({
      repository: 'acme/configured',
      family: 'python',
      manager: 'pip',
      revision: row.revision,
      exit_code: 0,
      metric_exit_code: 0,
      issues_count: 0,
      missing_modules: [],
      timed_out: false,
      oom_killed: false,
    });
    expect(o.cells.image).toMatch(/^envforge\/python:[0-9a-f]{12}$/);
    expect(o.cells.image_id).toMatch(/^sha256:/);
    expect(o.cells.failure_class).toBeUndefined();
    expect(String(o.cells.log)).toContain('Requirement already satisfied');
    expect(String(o.cells.log)).toContain('envforge: setup exited with 0');
  }, 120_000);

  it('accepts a checkout with an undeclared import as a metric failure naming the module', async () => {
    const o = await run(
      checkout('acme/undeclared', 'python', 'pip', {
        'requirements.txt': 'requests\n',
        'main.py': 'import requests\nimport numpy\n\nprint(numpy.zeros(3), requests.get)\n',
      }),
    );
    expect(o.status).toBe('accepted');
    expect(o.cells).toMatchObject({ failure_class: 'metric', exit_code: 0, issues_count: 1, missing_modules: ['numpy'] });
    expect(o.cells.metric_exit_code).not.toBe(0);
  }, 120_000);

  it('accepts a checkout whose setup.py is broken as a setup failure', async () => {
    const o = await run(
      checkout('acme/broken-setup', 'python', 'pip', {
        'setup.py': 'raise RuntimeError("this setup.py is broken")\n',
        'pkg/__init__.py': '',
      }),
    );
    expect(o.status).toBe('accepted');
    expect(o.cells.failure_class).toBe('setup');
    expect(o.cells.exit_code).not.toBe(0);
    expect(typeof o.cells.exit_code).toBe('number');
    expect(String(o.cells.log)).toContain('this setup.py is broken');
    // The metric never ran.
    expect(o.cells.issues_count).toBeUndefined();
  }, 120_000);

  it('accepts a checkout with no dependency file as a setup failure with EnvBench exit 444', async () => {
    const o = await run(checkout('acme/no-deps', 'python', 'pip', { 'main.py': 'print("hello")\n', 'README.md': '# hi\n' }));
    expect(o.status).toBe('accepted');
    expect(o.cells).toMatchObject({ failure_class: 'setup', exit_code: 444 });
    expect(String(o.cells.log)).toContain('no dependency file in the repository root');
  }, 120_000);

  it('ends a run at baseline.timeout_seconds as an infra error with exit code -127', async () => {
    const short = context(2);
    const row = checkout('acme/sleepy', 'python', 'pip', { 'setup.py': 'import time\ntime.sleep(600)\n' });
    const t0 = Date.now();
    const o = await run(row, short);
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(o.status).toBe('error');
    expect(o.reason).toBe('timeout');
    expect(o.reason_text).toContain('baseline.timeout_seconds');
    expect(o.cells).toMatchObject({ failure_class: 'infra', exit_code: -127, timed_out: true });
  }, 60_000);
});

describe('baseline on JVM checkouts (Maven Central unreachable)', () => {
  it('accepts a Maven project whose build cannot resolve from Central as a metric failure', async () => {
    const o = await run(checkout('acme/maven-app', 'jvm', 'maven', { 'pom.xml': POM, 'src/main/java/com/example/App.java': APP }));
    expect(o.status).toBe('accepted');
    expect(o.cells).toMatchObject({ failure_class: 'metric', build_tool: 'maven', exit_code: 0, metric_exit_code: 1 });
    expect(o.cells.issues_count).toBeGreaterThan(0);
    expect(o.cells.image).toMatch(/^envforge\/jvm:[0-9a-f]{12}$/);
    expect(String(o.cells.log)).toContain('build tool maven, Java 11 requested');
    expect(String(o.cells.log)).toContain('BUILD FAILURE');
  }, 180_000);

  it('accepts a Gradle project whose dependencies cannot resolve from Central as a metric failure', async () => {
    const o = await run(
      checkout('acme/gradle-app', 'jvm', 'gradle', { 'build.gradle': BUILD_GRADLE, 'src/main/java/com/example/App.java': APP }),
    );
    expect(o.status).toBe('accepted');
    expect(o.cells).toMatchObject({ failure_class: 'metric', build_tool: 'gradle', exit_code: 0, metric_exit_code: 1, issues_count: 1 });
    expect(String(o.cells.log)).toContain('FAILURE: Build failed with an exception.');
  }, 180_000);

  it('accepts a JVM checkout with no build file as a setup failure', async () => {
    const o = await run(checkout('acme/no-build', 'jvm', 'maven', { 'README.md': '# nothing to build\n' }));
    expect(o.status).toBe('accepted');
    expect(o.cells).toMatchObject({ failure_class: 'setup', exit_code: 1 });
  }, 120_000);
});

describe('baseline errors before any container', () => {
  it('gives an error row for a family without an image', async () => {
    const o = await run({ repository: 'acme/rusty', family: 'rust', manager: 'cargo', revision: 'abc', clone_path: 'acme/rusty/abc' });
    expect(o.status).toBe('error');
    expect(o.reason).toBe('no_image');
  });

  it('gives a checkout_missing error row, before any container, when the checkout is not in the clone cache', async () => {
    const o = await run({ repository: 'acme/gone', family: 'python', manager: 'pip', revision: 'f'.repeat(40), clone_path: `acme/gone/${'f'.repeat(40)}` });
    expect(o.status).toBe('error');
    expect(o.reason).toBe('checkout_missing');
    expect(o.reason_text).toContain(`acme/gone/${'f'.repeat(40)}`);
    expect(o.reason_text).toContain('--only acme/gone');
  }, 60_000);
});
