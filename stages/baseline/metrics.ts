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
