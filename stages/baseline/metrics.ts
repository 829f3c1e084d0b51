/**
 * EnvBench's metrics read from what the sandbox wrote: pyright's JSON for Python (issues =
 * diagnostics of rule reportMissingImports), the build log for the JVM (Gradle: lines with
 * FAILURE; Maven: lines with [ERROR]).
 */
export interface PythonMetric {
  issues: number;
  missingModules: string[];
  diagnostics: number;
}

export function pyrightMissingImports(json: string): PythonMetric {
  const doc = JSON.parse(json) as { generalDiagnostics?: { rule?: string; message?: string }[] };
  if (!Array.isArray(doc.generalDiagnostics)) throw new Error('pyright output has no generalDiagnostics array');
  const missing = doc.generalDiagnostics.filter((d) => d.rule === 'reportMissingImports');
  const modules = new Set<string>();
  for (const d of missing) {
    const m = /Import "([^"]+)" could not be resolved/.exec(d.message ?? '');
    if (m) modules.add(m[1]!);
  }
  return { issues: missing.length, missingModules: [...modules].sort(), diagnostics: doc.generalDiagnostics.length };
}

export type BuildTool = 'gradlew' | 'gradle' | 'mvnw' | 'maven' | 'none';

export function jvmBuildIssues(log: string, tool: BuildTool): number {
  const needle = tool === 'gradle' || tool === 'gradlew' ? 'FAILURE' : '[ERROR]';
  return log.split('\n').filter((l) => l.includes(needle)).length;
}

/** `KEY=value` lines, as the driver writes its state and metric files. */
export function keyValues(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!.replace(/^'(.*)'$/, '$1');
  }
  return out;
}

/** What the driver (sandboxes/scripts/run-baseline.sh) left in /envforge/out, read once for baseline and evaluate. */
export interface DriverOutput {
  /** The setup's exit code; undefined when the driver wrote no state (it never finished). */
  setupExit: number | undefined;
  metricExit: number | null;
  /** The metric ran: Python's pyright JSON or the JVM build log exists. */
  metricRan: boolean;
  issues: number | null;
  missingModules: string[] | null;
  buildTool: BuildTool | null;
  /** pyright's JSON document (Python), as EnvBench's result records it. */
  pyright: Record<string, unknown> | null;
  /** The JVM build log (EnvBench's diagnostic_log). */
  diagnosticLog: string | null;
  /** Set when pyright's JSON is not usable (an infra failure, not a result). */
  metricProblem: string | null;
}

export function readDriverOutput(files: Map<string, Buffer>, family: string): DriverOutput {
  const state = keyValues(files.get('state')?.toString('utf8') ?? '');
  const metric = keyValues(files.get('metric')?.toString('utf8') ?? '');
  const out: DriverOutput = {
    setupExit: state.SETUP_EXIT === undefined ? undefined : Number(state.SETUP_EXIT),
    metricExit: metric.METRIC_EXIT !== undefined ? Number(metric.METRIC_EXIT) : null,
    metricRan: false,
    issues: null,
    missingModules: null,
    buildTool: null,
    pyright: null,
    diagnosticLog: null,
    metricProblem: null,
  };
  if (out.setupExit !== 0) return out;
  if (family === 'python') {
    const json = files.get('pyright.json')?.toString('utf8') ?? '';
    try {
      const m = pyrightMissingImports(json);
      Object.assign(out, { metricRan: true, issues: m.issues, missingModules: m.missingModules, pyright: JSON.parse(json) as Record<string, unknown> });
    } catch (err) {
      out.metricProblem = `pyright gave no usable JSON: ${(err as Error).message}`;
    }
  } else {
    const tool = (metric.BUILD_TOOL ?? 'none') as BuildTool;
    const log = files.get('build.log')?.toString('utf8') ?? '';
    Object.assign(out, { metricRan: metric.METRIC_EXIT !== undefined, buildTool: tool, diagnosticLog: log, issues: jvmBuildIssues(log, tool) });
  }
  return out;
}
