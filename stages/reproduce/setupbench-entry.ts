/**
 * The fields of a SetupBench dependency_resolution entry that envforge derives
 * (../shared/reference/setupbench.md): instance id, problem statement and task type.
 */
export const TASK_TYPE = 'dependency_resolution';

/** `deps-<repo name>-<first 5 chars of base_commit>`, as SetupBench names its instances. */
export function instanceId(repo: string, baseCommit: string): string {
  return `deps-${repo.split('/')[1] ?? repo}-${baseCommit.slice(0, 5)}`;
}

export function problemStatement(command: string): string {
  return `There is a dependency conflict in this project when running ${command}. Please resolve the dependency conflict so that the command can run successfully.`;
}
