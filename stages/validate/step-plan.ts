import { extractDoc } from '../readme/extract.js';
import type { ShellStep } from '../readme/doc-model.js';

/**
 * What the executor runs of one README version: the shell steps of its code blocks, in document
 * order, each classified before anything runs. Inline code in prose is documentation, not a step
 * the executor follows (an error injected there can never fail a run: `did_not_fail`).
 *
 * - `run`: executed literally by the driver (sandboxes/scripts/readme-steps.sh).
 * - `provided`: `git clone` of the repository itself — the sandbox already holds the checkout at
 *   the pinned revision, so the driver only moves to the folder the clone would have made.
 * - `never`: can never run in a sandbox (interactive prompts, sudo/GUI, services and servers,
 *   container engines, SDK installers that download from non-registry hosts) — recorded as such.
 */

export type StepKind = 'run' | 'provided' | 'never';

export interface PlannedStep {
  /** 1-based position in the plan (the driver's step number). */
  n: number;
  line: number;
  end_line: number;
  text: string;
  kind: StepKind;
  /** Why a step is `provided` or `never`. */
  why?: string;
  /** What the driver executes (the text itself, or the substitute of a `provided` step). */
  command: string;
}

const NEVER: [RegExp, string][] = [
  [/^sudo\b/, 'sudo needs a password prompt'],
  [/^(systemctl|service|launchctl)\b/, 'starts a system service'],
  [/^(docker|docker-compose|podman|kubectl|minikube|vagrant)\b/, 'needs a container engine or cluster'],
  [/\b(uvicorn|gunicorn|flask run|runserver|npm start|yarn start|jupyter (notebook|lab)|streamlit run|http\.server)\b/, 'starts a long-running server'],
  [/^(read|passwd|ssh|ssh-keygen|gh auth|huggingface-cli login|wandb login|docker login|npm login)\b/, 'interactive prompt'],
  [/^(xdg-open|open|start)\s/, 'opens a GUI'],
  [/^(brew|choco|winget|scoop)\b/, 'package manager of another operating system'],
  [/^(conda|mamba|micromamba)\s+activate\b/, 'needs `conda init` in an interactive shell'],
  [/^source\s+~\/\.(bashrc|zshrc|profile)\b/, 'interactive shell start-up file'],
];

export function classifyStep(text: string, repository: string): { kind: StepKind; why?: string; command: string } {
  const t = text.trim();
  const clone = /^git\s+clone\s+(?:-[^\s]+\s+)*(\S+)(?:\s+(\S+))?\s*$/.exec(t);
  if (clone) {
    const [owner = '', repo = ''] = repository.split('/');
    const url = clone[1]!.replace(/\.git$/, '').toLowerCase();
    if (url.endsWith(`${owner}/${repo}`.toLowerCase()) || url.endsWith(`:${owner}/${repo}`.toLowerCase())) {
      const dir = clone[2] ?? repo;
      // The checkout is /src/<repo>; a clone into another folder name gets a link of that name.
      const command = dir === repo ? 'cd /src' : `cd /src && ln -sfn /src/${shellQuote(repo)} ${shellQuote(dir)}`;
      return { kind: 'provided', why: 'the sandbox holds the checkout at the pinned revision', command };
    }
  }
  for (const [re, why] of NEVER) if (re.test(t)) return { kind: 'never', why, command: t };
  return { kind: 'run', command: t };
}

/** The executable plan of a README version: block steps of `docPath` in order. */
export function planSteps(docPath: string, text: string, repository: string): PlannedStep[] {
  const steps: ShellStep[] = extractDoc(docPath, text).steps.filter((s) => s.source === 'block');
  return steps.map((s, i) => ({ n: i + 1, line: s.line, end_line: s.end_line, text: s.text, ...classifyStep(s.text, repository) }));
}

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@+-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}
