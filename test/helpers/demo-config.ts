import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildLocalRemotes } from '../../pipeline/git/local-remotes.js';

/**
 * A config for running the demo's stages on the committed samples in a temporary folder: the
 * SEART sample, local remotes built from data/samples/repos, and `extra` appended (more sections).
 */
export async function demoConfig(dir: string, extra = ''): Promise<string> {
  await buildLocalRemotes(resolve('data/samples/repos'), join(dir, 'remotes'), 'envforge-demo');
  const config = join(dir, 'demo.toml');
  writeFileSync(
    config,
    `dataset = "demo"\ndata_dir = ${JSON.stringify(join(dir, 'data'))}\n[run]\nlog_level = "silent"\n` +
      `[search]\nexport = ${JSON.stringify(resolve('data/samples/seart-ghs/results.csv'))}\nlicenses = ["MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause"]\n` +
      `[clone]\nurl_template = "file://${dir}/remotes/{owner}/{repo}.git"\nmin_free_gb = 0\ntimeout_seconds = 60\n` +
      extra,
  );
  return config;
}
