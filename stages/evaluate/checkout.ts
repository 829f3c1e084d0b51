import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCheckout } from '../../pipeline/git/clone-cache.js';
import type { StageContext } from '../../pipeline/stage.js';
import { cloneUrl, clonesRoot } from '../clone/index.js';
import type { Family } from './task.js';

/**
 * The checkout an evaluation or a rollout works on: the clone stage's checkout when the row names
 * one (`clone_path`, relative to the clone cache), else a pinned checkout through the same clone
 * cache (`clone.url_template`; a missing revision resolves the default-branch head). Containers
 * always get a copy; the cache is never touched.
 */
export interface ResolvedCheckout {
  dir: string;
  sha: string;
}

export async function resolveCheckout(ctx: StageContext, repository: string, revision: string | null, clonePath: string | null): Promise<ResolvedCheckout> {
  const root = clonesRoot(ctx.cacheDir);
  if (clonePath && existsSync(join(root, clonePath))) {
    const sha = revision ?? clonePath.split('/').pop()!.replace(/-full$/, '');
    return { dir: join(root, clonePath), sha };
  }
  const [owner, repo] = repository.split('/') as [string, string];
  const clone = ctx.config.config.clone;
  const c = await ensureCheckout({
    url: cloneUrl(clone.url_template, repository),
    owner,
    repo,
    revision,
    depth: clone.depth === 0 ? 1 : clone.depth,
    blobFilter: false,
    root,
    timeoutMs: clone.timeout_seconds * 1000,
    signal: ctx.signal,
  });
  return { dir: join(root, c.path), sha: c.sha };
}

/** EnvBench's family from the root build files: Maven or Gradle → jvm, else python. */
export function detectFamily(dir: string): Family {
  const jvm = ['pom.xml', 'build.gradle', 'build.gradle.kts', 'gradlew', 'mvnw'].some((f) => existsSync(join(dir, f)));
  return jvm ? 'jvm' : 'python';
}
