import type { Message } from './agent-call.js';
import type { RolloutInstance } from './instances-source.js';

/** What the agent is asked, per benchmark: EnvBench, EnConda-Bench, SetupBench. */

const SYSTEM =
  'You are an expert engineer who sets up development environments. You work in a Debian Linux container as root, ' +
  'through the run_shell tool (one bash command per call; the repository is checked out in /repo; the working directory ' +
  'and exported variables persist between calls; commands get no interactive input). Work step by step and check results. ' +
  'When you are done, reply without calling a tool.';

const ERROR_TYPES =
  'E1 Dependency Installation Error, E2 Command Usage or Syntax Error, E4 File Path or Missing File Error, ' +
  'E6 Logical Order Error, E7 Version Compatibility Error, E8 Other Miscellaneous Errors';

export function rolloutPrompt(i: RolloutInstance): Message[] {
  if (i.benchmark === 'setupbench') {
    const task = i.problem_statement ?? `There is a dependency conflict in this project when running ${i.success_command}.`;
    return [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: `${task}\n\nRepository: ${i.repository} at ${i.revision ?? 'its default branch'} (in /repo).\nMake \`${i.success_command}\` succeed (exit code 0) in /repo.` },
    ];
  }
  if (i.benchmark === 'enconda') {
    return [
      { role: 'system', content: SYSTEM },
      {
        role: 'user',
        content:
          `Set up the repository ${i.repository} (in /repo) following its README below. The README may contain errors: ` +
          `find them, work around them, and report them.\n\nWhen finished, answer with only a JSON object: ` +
          `{"repo_name": "${i.repo_name ?? ''}", "readme_name": "${i.readme_name ?? ''}", "errors": [{"error_type": "E1", "error_description": "...", "fix_answer": "..."}], ` +
          `"shell_script": "<a complete bash script that sets the repository up from a fresh checkout>"}\n` +
          `error_type is one of: ${ERROR_TYPES}.\n\nThe README:\n\n${i.readme_text ?? ''}`,
      },
    ];
  }
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content:
        `Set up the repository ${i.repository} at revision ${i.revision ?? 'HEAD'} (checked out in /repo): install its dependencies ` +
        'so that its code works in this environment. For Python, every import of the code must resolve with the interpreter ' +
        'active in the shell at the end (activate a virtualenv if you create one). For Java/Kotlin, the project must compile ' +
        '(Gradle: `gradle build -x test`; Maven: `mvn compile`). Do not run the test suite.',
    },
  ];
}
