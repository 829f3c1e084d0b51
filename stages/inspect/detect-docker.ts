import type { WalkEntry } from './repo-walk.js';
import type { RepoFiles } from './safe-files.js';

/**
 * Docker configuration anywhere down to `docker_depth`. EnvBench drops repositories that ship a
 * container setup because an agent could copy it instead of working the setup out. Every such
 * file counts wherever it sits (examples and tests included): it is a setup recipe all the same,
 * and `docker_depth` is the knob for how far to look. Names match case-insensitively, as
 * `dockerfile` and `Dockerfile` both work with `docker build -f`.
 */

const DOCKER_FILE_PATTERNS: readonly RegExp[] = [
  /^dockerfile$/i,
  /^dockerfile\..+$/i,
  /^.+\.dockerfile$/i,
  /^containerfile(\..+)?$/i,
  /^docker-compose.*\.ya?ml$/i,
  /^compose(\..+)?\.ya?ml$/i,
  /^\.devcontainer\.json$/i,
];

export interface DockerFacts {
  has_docker: boolean;
  docker_files: string[];
}

export function isDockerFileName(name: string): boolean {
  return DOCKER_FILE_PATTERNS.some((pattern) => pattern.test(name));
}

export async function detectDocker(walk: readonly WalkEntry[], dockerDepth: number, files: RepoFiles): Promise<DockerFacts> {
  const found: string[] = [];
  for (const entry of walk) {
    if (entry.depth > dockerDepth || entry.type === 'other') continue;
    if (entry.name === '.devcontainer') {
      if (entry.type === 'dir' || (await files.present(entry.path, 'dir'))) found.push(`${entry.path}/`);
      continue;
    }
    if (!isDockerFileName(entry.name)) continue;
    // A directory called "Dockerfile" or "compose.yml" is not a build recipe.
    if (entry.type === 'dir') continue;
    if (entry.type === 'symlink' && !(await files.present(entry.path))) continue;
    found.push(entry.path);
  }
  found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { has_docker: found.length > 0, docker_files: found };
}
