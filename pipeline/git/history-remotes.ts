import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitFor } from './git-client.js';
import { demoAuthorEnv, treeHash } from './local-remotes.js';

/**
 * Bare git repositories WITH HISTORY made from template folders, for the dependency-conflict
 * demo (locate needs commits before and after an issue). A template is
 * `<templates>/<owner>/<repo>/<NN>-<YYYY-MM-DD>-<slug>/`: one folder per commit, each the full
 * tree at that commit, committed in name order at noon UTC of its date with the slug as message.
 * Author and dates are fixed, so a template always gives the same SHAs.
 */
export interface HistoryRemote {
  repository: string;
  path: string;
  commits: number;
  built: boolean;
}

const COMMIT_DIR = /^(\d+)-(\d{4}-\d{2}-\d{2})-(.+)$/;

export async function buildHistoryRemotes(templatesDir: string, outDir: string): Promise<HistoryRemote[]> {
  const out: HistoryRemote[] = [];
  for (const owner of await dirs(templatesDir)) {
    for (const repo of await dirs(join(templatesDir, owner))) {
      const src = join(templatesDir, owner, repo);
      const bare = join(outDir, owner, `${repo}.git`);
      const commits = (await dirs(src)).filter((d) => COMMIT_DIR.test(d));
      if (commits.length === 0) throw new Error(`${src}: no commit folders (expected NN-YYYY-MM-DD-slug/)`);
      out.push({ repository: `${owner}/${repo}`, path: bare, commits: commits.length, built: await buildHistoryRemote(src, commits, bare) });
    }
  }
  return out;
}

async function dirs(d: string): Promise<string[]> {
  return (await readdir(d, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
}

async function buildHistoryRemote(src: string, commits: string[], bare: string): Promise<boolean> {
  const hash = await treeHash(src);
  const stamp = join(bare, 'envforge-template');
  if (existsSync(stamp) && (await readFile(stamp, 'utf8')) === hash) return false;
  await rm(bare, { recursive: true, force: true });
  const work = await mkdtemp(join(tmpdir(), 'envforge-history-'));
  try {
    await gitFor({ baseDir: work }).init();
    for (const c of commits) {
      const [, , date, slug] = COMMIT_DIR.exec(c)!;
      const at = `${date}T12:00:00Z`;
      const git = gitFor({
        baseDir: work,
        env: demoAuthorEnv(at),
      });
      // Each folder is the whole tree: clear the previous one (but .git) and copy it in.
      for (const e of await readdir(work)) if (e !== '.git') await rm(join(work, e), { recursive: true, force: true });
      await cp(join(src, c), work, { recursive: true, verbatimSymlinks: true });
      await git.raw(['add', '--all']);
      await git.raw(['commit', '--quiet', '--no-gpg-sign', '--allow-empty', '-m', slug!.replace(/-/g, ' ')]);
    }
    await mkdir(join(bare, '..'), { recursive: true });
    await gitFor().raw(['clone', '--quiet', '--bare', work, bare]);
    await writeFile(stamp, hash);
    return true;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
