import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { SetupError } from '../../pipeline/errors.js';
import type { Item, Source } from '../../pipeline/stage.js';
import type { GoldJson } from '../evaluate/enconda-scores.js';
import type { Benchmark, Family } from '../evaluate/task.js';

/**
 * The rollout stage's input: benchmark instances in their PUBLISHED formats, so rollouts run on
 * what `envforge export` wrote (`instances = ["data/demo/export"]`) as well as on the released
 * benchmarks: EnvBench split JSONL `{repository, revision}` (family from the file name
 * python/jvm), SetupBench's dependency_resolution JSONL, EnConda-Bench's `instances.jsonl` of
 * gold JSONs with each README in `error_gen_<owner>_<repo>/<instance>/README.*` beside it.
 * An export folder is read as those three.
 */

export interface RolloutInstance extends Item {
  benchmark: Benchmark;
  instance_id: string;
  repository: string;
  revision: string | null;
  family: Family | null;
  success_command: string | null;
  ecosystem: string | null;
  problem_statement: string | null;
  readme_text: string | null;
  readme_name: string | null;
  repo_name: string | null;
  gold: GoldJson | null;
  source_file: string;
}

export const rolloutInstancesSource: Source<RolloutInstance> = {
  name: 'rollout_instances',
  description: 'benchmark instances in their published formats ([rollout] instances: files or export folders)',
  async read(ctx) {
    const paths = ctx.config.config.rollout.instances;
    if (paths.length === 0) throw new SetupError(`${ctx.config.file}: rollout needs [rollout] instances = ["data/<dataset>/export"] (run \`envforge export\` first) or benchmark JSONL files`);
    const out: RolloutInstance[] = [];
    for (const p of paths) {
      const abs = resolve(p);
      if (!existsSync(abs)) throw new SetupError(`rollout.instances: ${p} does not exist${p.includes('export') ? ' (run `envforge export` first)' : ''}`);
      const files = statSync(abs).isDirectory() ? await exportFiles(abs) : [abs];
      for (const f of files) out.push(...(await readInstances(f, p)));
    }
    return out;
  },
};

async function exportFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  const envbench = join(dir, 'envbench');
  if (existsSync(envbench)) for (const f of (await readdir(envbench)).sort()) if (f.endsWith('.jsonl')) files.push(join(envbench, f));
  for (const f of [join(dir, 'enconda', 'instances.jsonl'), join(dir, 'setupbench', 'dependency_resolution.jsonl')]) if (existsSync(f)) files.push(f);
  return files;
}

export async function readInstances(file: string, shown: string): Promise<RolloutInstance[]> {
  const out: RolloutInstance[] = [];
  const lines = (await readFile(file, 'utf8')).split('\n');
  const fam = basename(file).replace(/\.jsonl$/, '');
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new SetupError(`rollout.instances: line ${i + 1} of ${shown} is not JSON`);
    }
    const base = { revision: null, family: null, success_command: null, ecosystem: null, problem_statement: null, readme_text: null, readme_name: null, repo_name: null, gold: null, source_file: basename(file) };
    if (typeof r.success_command === 'string' && typeof r.repo === 'string') {
      out.push({
        ...base,
        benchmark: 'setupbench',
        instance_id: String(r.instance_id ?? `deps-${r.repo}`),
        repository: r.repo,
        revision: typeof r.base_commit === 'string' ? r.base_commit : null,
        success_command: r.success_command,
        ecosystem: typeof r.ecosystem === 'string' ? r.ecosystem : null,
        problem_statement: typeof r.problem_statement === 'string' ? r.problem_statement : null,
      });
    } else if (Array.isArray(r.errors) && typeof r.readme === 'string' && typeof r.repo_name === 'string') {
      // GitHub owners cannot contain "_": the first one separates owner and repository.
      const cut = r.repo_name.indexOf('_');
      const repository = cut > 0 ? `${r.repo_name.slice(0, cut)}/${r.repo_name.slice(cut + 1)}` : r.repo_name;
      const folder = join(dirname(file), `error_gen_${r.repo_name}`, r.readme);
      const readme = existsSync(folder) ? (await readdir(folder)).find((f) => f.startsWith('README.') && !f.endsWith('.json')) : undefined;
      if (!readme) throw new SetupError(`rollout.instances: no README for ${r.readme} in ${shown} (expected error_gen_${r.repo_name}/${r.readme}/README.* beside it)`);
      out.push({
        ...base,
        benchmark: 'enconda',
        instance_id: r.readme,
        repository,
        revision: typeof r.revision === 'string' ? r.revision : null,
        readme_text: await readFile(join(folder, readme), 'utf8'),
        readme_name: r.readme,
        repo_name: r.repo_name,
        gold: r as unknown as GoldJson,
      });
    } else if (typeof r.repository === 'string') {
      out.push({
        ...base,
        benchmark: 'envbench',
        instance_id: typeof r.instance_id === 'string' ? r.instance_id : `${r.repository}@${typeof r.revision === 'string' ? r.revision : 'head'}`,
        repository: r.repository,
        revision: typeof r.revision === 'string' ? r.revision : null,
        family: r.family === 'python' || r.family === 'jvm' ? r.family : fam === 'python' || fam === 'jvm' ? fam : null,
      });
    } else {
      throw new SetupError(`rollout.instances: line ${i + 1} of ${shown} is no EnvBench, SetupBench or EnConda instance`);
    }
  }
  return out;
}
