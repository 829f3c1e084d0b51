import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jvmBuildIssues, keyValues, pyrightMissingImports } from './metrics.js';

const fixture = (path: string) => readFileSync(new URL(`../../test/fixtures/${path}`, import.meta.url), 'utf8');

const diag = (rule: string | undefined, message: string) => ({
  file: '/repo/pkg/mod.py',
  severity: 'error',
  message,
  range: { start: { line: 0, character: 7 }, end: { line: 0, character: 12 } },
  ...(rule === undefined ? {} : { rule }),
});

const pyrightJson = (diagnostics: unknown[]) =>
  JSON.stringify({
    version: '1.1.389',
    time: '1700000000000',
    generalDiagnostics: diagnostics,
    summary: { filesAnalyzed: 1, errorCount: diagnostics.length, warningCount: 0, informationCount: 0, timeInSec: 0.5 },
  });

describe('pyrightMissingImports', () => {
  it('counts only reportMissingImports in real pyright output, and names the modules once each', () => {
    // numpy twice (two files), numpy.linalg, scipy, doesnotexist.sub; plus a
    // reportMissingModuleSource warning (yaml), an unknown import symbol and a type error.
    const m = pyrightMissingImports(fixture('pyright/missing-imports.json'));
    expect(m.issues).toBe(5);
    expect(m.missingModules).toEqual(['doesnotexist.sub', 'numpy', 'numpy.linalg', 'scipy']);
    expect(m.diagnostics).toBe(8);
  });

  it('reads a clean run as 0 issues', () => {
    expect(pyrightMissingImports(fixture('pyright/clean.json'))).toEqual({ issues: 0, missingModules: [], diagnostics: 0 });
  });

  it('counts every missing-import diagnostic but lists each module once, sorted', () => {
    const m = pyrightMissingImports(
      pyrightJson([
        diag('reportMissingImports', 'Import "numpy" could not be resolved'),
        diag('reportMissingImports', 'Import "pandas" could not be resolved'),
        diag('reportMissingImports', 'Import "numpy" could not be resolved'),
        diag('reportMissingImports', 'Import "attr" could not be resolved'),
      ]),
    );
    expect(m).toEqual({ issues: 4, missingModules: ['attr', 'numpy', 'pandas'], diagnostics: 4 });
  });

  it('ignores other rules, including missing module source and diagnostics without a rule', () => {
    const m = pyrightMissingImports(
      pyrightJson([
        diag('reportMissingModuleSource', 'Import "yaml" could not be resolved from source'),
        diag('reportAttributeAccessIssue', 'Import "numpy" could not be resolved'),
        diag(undefined, 'Import "torch" could not be resolved'),
        diag('reportMissingImports', 'Import "torch" could not be resolved'),
      ]),
    );
    expect(m).toEqual({ issues: 1, missingModules: ['torch'], diagnostics: 4 });
  });

  it('counts a missing import whose message names no module, without inventing a name', () => {
    const m = pyrightMissingImports(pyrightJson([diag('reportMissingImports', 'Stub file not found for "x"')]));
    expect(m.issues).toBe(1);
    expect(m.missingModules).toEqual([]);
  });

  it('throws on output that is not JSON (pyright crashed or printed text)', () => {
    expect(() => pyrightMissingImports('')).toThrow();
    expect(() => pyrightMissingImports('No configuration file found.\nError: something went wrong')).toThrow();
    expect(() => pyrightMissingImports('{"generalDiagnostics": [')).toThrow();
  });

  it('throws on JSON without a generalDiagnostics array', () => {
    expect(() => pyrightMissingImports('{}')).toThrow(/generalDiagnostics/);
    expect(() => pyrightMissingImports('{"generalDiagnostics": {}}')).toThrow(/generalDiagnostics/);
  });
});

describe('jvmBuildIssues on real build logs', () => {
  it.each([
    // Maven: lines with [ERROR]; [INFO] BUILD FAILURE and [WARNING] lines do not count.
    ['maven-offline-plugin.log', 'maven', 7],
    ['maven-offline-dependency.log', 'maven', 7],
    ['maven-compile-error.log', 'maven', 17],
    ['maven-success.log', 'maven', 0],
    ['maven-compile-error.log', 'mvnw', 17],
    // Gradle: lines with FAILURE; ":compileJava FAILED" and "BUILD FAILED in 3s" do not count.
    ['gradle-offline-dependency.log', 'gradle', 1],
    ['gradle-compile-error.log', 'gradle', 1],
    ['gradle-success.log', 'gradle', 0],
    ['gradle-compile-error.log', 'gradlew', 1],
  ] as const)('%s as %s → %i', (file, tool, count) => {
    expect(jvmBuildIssues(fixture(`build-logs/${file}`), tool)).toBe(count);
  });

  it('counts by the tool that ran: a Maven log read as Gradle counts its FAILURE lines instead', () => {
    const log = fixture('build-logs/maven-compile-error.log');
    expect(log).toContain('[INFO] BUILD FAILURE');
    expect(jvmBuildIssues(log, 'gradle')).toBe(1);
  });

  it('counts the compile error lines a Maven log names', () => {
    const log = fixture('build-logs/maven-compile-error.log');
    const errorLines = log.split('\n').filter((l) => l.includes('[ERROR]'));
    expect(errorLines.filter((l) => /\/repo\/src\/main\/java\/com\/example\/App\.java:\[5,\d+\] cannot find symbol/.test(l))).toHaveLength(4);
    expect(errorLines.some((l) => l.startsWith('[INFO]'))).toBe(false);
  });

  it('gives 0 for an empty log', () => {
    expect(jvmBuildIssues('', 'maven')).toBe(0);
    expect(jvmBuildIssues('', 'gradle')).toBe(0);
  });

  it('counts lines, not occurrences, and handles CRLF line ends', () => {
    expect(jvmBuildIssues('[ERROR] a [ERROR] b\r\n[INFO] c\r\n[ERROR] d\r\n', 'maven')).toBe(2);
    expect(jvmBuildIssues('FAILURE: Build failed with an exception.\r\nFAILURE: Build completed with 2 failures.\r\n', 'gradle')).toBe(2);
  });
});

describe('keyValues', () => {
  it('reads the state file the driver writes with printf %q', () => {
    const state = "SETUP_EXIT=0\nPATH=/repo/.venv/bin:/usr/local/bin:/usr/bin:/bin\nVIRTUAL_ENV=''\nJAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64\nPYTHON=/usr/bin/python\n";
    expect(keyValues(state)).toEqual({
      SETUP_EXIT: '0',
      PATH: '/repo/.venv/bin:/usr/local/bin:/usr/bin:/bin',
      VIRTUAL_ENV: '',
      JAVA_HOME: '/usr/lib/jvm/java-17-openjdk-amd64',
      PYTHON: '/usr/bin/python',
    });
  });

  it('reads the metric file', () => {
    expect(keyValues('METRIC_EXIT=1\nBUILD_TOOL=maven\n')).toEqual({ METRIC_EXIT: '1', BUILD_TOOL: 'maven' });
  });

  it('skips lines that are not KEY=value and keeps = inside values', () => {
    expect(keyValues('envforge: setup exited with 1\n  SETUP_EXIT=1  \nlower=no\nOPTS=-Da=b\n\n')).toEqual({ SETUP_EXIT: '1', OPTS: '-Da=b' });
  });

  it('gives {} for an empty or missing file', () => {
    expect(keyValues('')).toEqual({});
  });
});
