import type { DatasetViews } from './dataset-views.js';

/**
 * One line per model of the rollout stage: instances attempted, trajectories, pass@1 (the mean
 * over instances of the fraction of samples that passed), pass@k (k = samples per instance, the
 * unbiased estimator 1 - C(n-c, k)/C(n, k) per instance, averaged), mean tokens and turns per
 * trajectory, and cost (the trajectories' sum; cache hits are free).
 */
export interface RolloutModelLine {
  model: string;
  instances: number;
  trajectories: number;
  k: number;
  pass_at_1: number;
  pass_at_k: number;
  tokens_per_trajectory: number;
  turns_per_trajectory: number;
  cost_usd: number;
  errors: number;
}

export async function rolloutModels(views: DatasetViews): Promise<RolloutModelLine[]> {
  if (!views.has('rollout') || !views.ran('rollout')) return [];
  const rows = await views.duck.all(
    `SELECT model, instance_id, status, coalesce(passed, false) AS passed, coalesce(tokens_in, 0) + coalesce(tokens_out, 0) AS tokens, coalesce(turns, 0) AS turns, coalesce(cost_usd, 0) AS cost FROM rollout WHERE model IS NOT NULL ORDER BY model, instance_id`,
  );
  const byModel = new Map<string, { inst: Map<string, { n: number; c: number }>; n: number; tokens: number; turns: number; cost: number; errors: number }>();
  for (const r of rows) {
    const m = String(r.model);
    let e = byModel.get(m);
    if (!e) byModel.set(m, (e = { inst: new Map(), n: 0, tokens: 0, turns: 0, cost: 0, errors: 0 }));
    if (r.status === 'error') {
      e.errors++;
      continue;
    }
    const i = e.inst.get(String(r.instance_id)) ?? { n: 0, c: 0 };
    i.n++;
    if (r.passed === true) i.c++;
    e.inst.set(String(r.instance_id), i);
    e.n++;
    e.tokens += Number(r.tokens);
    e.turns += Number(r.turns);
    e.cost += Number(r.cost);
  }
  return [...byModel.entries()].map(([model, e]) => {
    const inst = [...e.inst.values()];
    const k = Math.max(1, ...inst.map((i) => i.n));
    const mean = (f: (i: { n: number; c: number }) => number) => (inst.length ? inst.reduce((s, i) => s + f(i), 0) / inst.length : 0);
    return {
      model,
      instances: inst.length,
      trajectories: e.n,
      k,
      pass_at_1: mean((i) => i.c / i.n),
      pass_at_k: mean((i) => passAtK(i.n, i.c, Math.min(k, i.n))),
      tokens_per_trajectory: e.n ? e.tokens / e.n : 0,
      turns_per_trajectory: e.n ? e.turns / e.n : 0,
      cost_usd: e.cost,
      errors: e.errors,
    };
  });
}

/** The unbiased pass@k estimator (Chen et al. 2021) for n samples of which c passed. */
export function passAtK(n: number, c: number, k: number): number {
  if (n - c < k) return 1;
  let p = 1;
  for (let i = n - c + 1; i <= n; i++) p *= 1 - k / i;
  return 1 - p;
}
