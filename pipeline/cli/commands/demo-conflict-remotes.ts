import { buildHistoryRemotes, type HistoryRemote } from '../../git/history-remotes.js';
import type { Io } from '../context.js';

export interface DemoConflictRemotesOptions {
  templates?: string;
  out?: string;
}

/** `envforge demo-conflict-remotes`: the conflict demo's git repositories (with history), from data/samples/conflict-repos. */
export async function demoConflictRemotesCommand(opts: DemoConflictRemotesOptions, io: Io): Promise<HistoryRemote[]> {
  const out = opts.out ?? 'data/demo-remotes';
  const remotes = await buildHistoryRemotes(opts.templates ?? 'data/samples/conflict-repos', out);
  const built = remotes.filter((r) => r.built).length;
  io.out(`demo conflict remotes: ${remotes.length} repositories with history (${built} built, ${remotes.length - built} up to date) in ${out}`);
  return remotes;
}
