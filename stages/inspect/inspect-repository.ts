import { detectDocker } from './detect-docker.js';
import { detectJavaVersions } from './detect-java-versions.js';
import { detectManagers } from './detect-managers.js';
import { detectMonorepo } from './detect-monorepo.js';
import { detectPythonVersions } from './detect-python-versions.js';
import { findDocs } from './find-docs.js';
import { Manifests } from './parse-manifests.js';
import { resolveInspectOptions, type InspectOptions, type RepoFacts } from './repo-facts.js';
import { walkRepository } from './repo-walk.js';
import { Findings, RepoFiles } from './safe-files.js';

/**
 * Reads a checked-out repository and returns its facts. Never throws for anything inside the
 * repository (malformed, oversized, binary or unsafe files become `findings`); throws only when
 * `root` itself is not a readable directory or the options are invalid.
 *
 * Detectors run one after another, not concurrently, so that findings come out in the same
 * order on every run.
 */
export async function inspectRepository(root: string, options: InspectOptions): Promise<RepoFacts> {
  const opts = resolveInspectOptions(options);
  const findings = new Findings();
  const files = await RepoFiles.open(root, opts.max_file_bytes, findings);
  const manifests = new Manifests(files, findings);

  const walk = await walkRepository(files, {
    maxDepth: Math.max(opts.nested_depth, opts.docker_depth),
    maxEntries: opts.max_entries,
  });
  const rootNames = walk.entries.filter((e) => e.depth === 0).map((e) => e.name);

  const managers = await detectManagers(rootNames, files, manifests);
  const monorepo = await detectMonorepo(managers, rootNames, walk.entries, opts.nested_depth, files, manifests);
  const docker = await detectDocker(walk.entries, opts.docker_depth, files);
  const python = await detectPythonVersions(rootNames, manifests, findings);
  const java = await detectJavaVersions(rootNames, manifests);
  const docs = await findDocs(rootNames, files, opts.max_entries);

  return {
    ...managers,
    ...monorepo,
    ...docker,
    ...python,
    ...java,
    ...docs,
    findings: findings.list(),
    malformed_files: findings.malformedFiles(),
    entries_visited: walk.visited,
    walk_truncated: walk.truncated,
  };
}
