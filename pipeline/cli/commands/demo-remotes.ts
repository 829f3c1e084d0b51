import { buildLocalRemotes, type LocalRemote } from '../../git/local-remotes.js';
import type { Io } from '../context.js';

export interface DemoRemotesOptions {
  templates?: string;
  out?: string;
  owner?: string;
}

/** `envforge demo-remotes`: the demo's git repositories, built from data/samples/repos templates. */
export async function demoRemotesCommand(opts: DemoRemotesOptions, io: Io): Promise<LocalRemote[]> {
  const remotes = await buildLocalRemotes(opts.templates ?? 'data/samples/repos', opts.out ?? 'data/demo-remotes', opts.owner ?? 'envforge-demo');
  const built = remotes.filter((r) => r.built).length;
  io.out(`demo remotes: ${remotes.length} repositories (${built} built, ${remotes.length - built} up to date) in ${opts.out ?? 'data/demo-remotes'}`);
  return remotes;
}
