import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gitFor } from './git-client.js';

/**
 * Bare git repositories made from template folders, so that the demo and the tests clone real
 * repositories through `file://` without any network. The commit date and author are fixed, so
 * the same template always gives the same commit SHA.
 */
export interface LocalRemote {
  name: string;
  path: string;
  built: boolean;
}

/** A fixed author and date, so the same template always gives the same commit SHA. */
export function demoAuthorEnv(at = '2024-06-01T12:00:00Z'): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: 'envforge demo',
    GIT_AUTHOR_EMAIL: 'demo@envforge.invalid',
    GIT_AUTHOR_DATE: at,
    GIT_COMMITTER_NAME: 'envforge demo',
    GIT_COMMITTER_EMAIL: 'demo@envforge.invalid',
    GIT_COMMITTER_DATE: at,
  };
}

/** One bare repository per folder of `templatesDir`, at `<outDir>/<owner>/<folder>.git`. */
export async function buildLocalRemotes(templatesDir: string, outDir: string, owner: string): Promise<LocalRemote[]> {
  const names = (await readdir(templatesDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const out: LocalRemote[] = [];
  for (const name of names) {
    const path = join(outDir, owner, `${name}.git`);
    out.push({ name, path, built: await buildRemote(join(templatesDir, name), path) });
  }
  return out;
}

/** Builds (or rebuilds, when the template changed) one bare repository; false when up to date. */
export async function buildRemote(templateDir: string, bareDir: string): Promise<boolean> {
  const hash = await treeHash(templateDir);
  const stamp = join(bareDir, 'envforge-template');
  if (existsSync(stamp) && (await readFile(stamp, 'utf8')) === hash) return false;
  await rm(bareDir, { recursive: true, force: true });
  const work = await mkdtemp(join(tmpdir(), 'envforge-remote-'));
  try {
    await cp(templateDir, work, { recursive: true, verbatimSymlinks: true });
    const git = gitFor({ baseDir: work, env: demoAuthorEnv() });
    await git.init();
    await git.raw(['add', '--all']);
    await git.raw(['commit', '--quiet', '--no-gpg-sign', '-m', 'Initial commit']);
    await mkdir(join(bareDir, '..'), { recursive: true });
    await gitFor().raw(['clone', '--quiet', '--bare', work, bareDir]);
    await writeFile(stamp, hash);
    return true;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** A hash of a folder's paths and file contents: a template changed iff its hash did. */
export async function treeHash(dir: string): Promise<string> {
  const h = createHash('sha256');
  const walk = async (d: string) => {
    for (const e of (await readdir(d, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      h.update(relative(dir, p) + '\0');
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) h.update(await readFile(p));
    }
  };
  await walk(dir);
  return h.digest('hex');
}
