import type { TiersSettings } from '../../pipeline/config/schema.js';
import { applyEdits, type Edit } from '../inject/edits.js';
import type { GoldError, InjectedError } from '../inject/gold.js';

/**
 * EnConda-Bench's difficulty tiers, built from the recorded edits only: a derived README is the
 * ORIGINAL with a chosen set of edits applied by line range (inject/edits.ts applyEdits), never
 * a search for text in another README. Two edits whose original line ranges overlap are never
 * combined (applyEdits refuses them too).
 *
 * - base: a reviewed instance with the errors that survived validation and review;
 * - split `<instance>_only_E<k>`: the base with every edit but those of type k reverted
 *   (only when the base has more than one type);
 * - merge `error_gen_<owner>_<repo>_error_readme_merge_k<N>`: the edits of N base instances of
 *   the same repository (and the same original README) combined; level = number of errors,
 *   level10 = 10 or more.
 */

export interface TierSource {
  instance: string;
  original: string;
  /** The kept errors of the instance, with their edits. */
  errors: InjectedError[];
}

export interface DerivedInstance {
  instance: string;
  kind: 'base' | 'split' | 'merge';
  level: string;
  text: string;
  errors: InjectedError[];
  /** Which base instance (and its error number) each error comes from. */
  origins: { instance: string; error: number }[];
  sources: string[];
}

export interface Refusal {
  instance: string;
  reason: 'overlapping_edits' | 'level_target_reached' | 'edit_not_applicable';
  text: string;
}

export function levelOf(errors: number): string {
  return `level${Math.min(errors, 10)}`;
}

export function overlap(a: Edit, b: Edit): boolean {
  return a.line_start <= b.line_end && b.line_start <= a.line_end;
}

export function goldErrors(errors: readonly InjectedError[]): GoldError[] {
  return errors.map((e) => ({
    error_type: e.error_type,
    error_description: e.error_description,
    correction_candidates: [...e.correction_candidates],
    golden_answer: e.golden_answer,
  }));
}

/** Build a derived README from the original and some errors' edits; a refusal when they do not apply. */
export function compose(original: string, errors: readonly InjectedError[]): { ok: true; text: string } | { ok: false; problem: string } {
  return applyEdits(
    original,
    errors.map((e) => e.edit),
  );
}

/** Every tier instance of one repository's reviewed instances. */
export function deriveTiers(repoName: string, sources: readonly TierSource[], s: TiersSettings): { instances: DerivedInstance[]; refusals: Refusal[] } {
  const instances: DerivedInstance[] = [];
  const refusals: Refusal[] = [];
  const ordered = [...sources].filter((x) => x.errors.length > 0).sort((a, b) => naturalCompare(a.instance, b.instance));
  const add = (d: Omit<DerivedInstance, 'text' | 'level'>, original: string) => {
    const r = compose(original, d.errors);
    if (!r.ok) {
      refusals.push({ instance: d.instance, reason: /overlapping/.test(r.problem) ? 'overlapping_edits' : 'edit_not_applicable', text: r.problem });
      return;
    }
    instances.push({ ...d, text: r.text, level: levelOf(d.errors.length) });
  };

  for (const src of ordered) {
    const origins = src.errors.map((_, i) => ({ instance: src.instance, error: i + 1 }));
    add({ instance: src.instance, kind: 'base', errors: src.errors, origins, sources: [src.instance] }, src.original);
    const types = [...new Set(src.errors.map((e) => e.error_type))];
    if (s.split && types.length > 1) {
      for (const t of types.sort()) {
        const keep = src.errors.map((e, i) => ({ e, i })).filter(({ e }) => e.error_type === t);
        add(
          {
            instance: `${src.instance}_only_${t}`,
            kind: 'split',
            errors: keep.map(({ e }) => e),
            origins: keep.map(({ i }) => ({ instance: src.instance, error: i + 1 })),
            sources: [src.instance],
          },
          src.original,
        );
      }
    }
  }

  // Merges: per original README, the first N base instances (in name order) whose edits overlap
  // none already chosen; an instance that overlaps is skipped, and named in the refusal when
  // too few remain for N.
  const byOriginal = new Map<string, TierSource[]>();
  for (const src of ordered) byOriginal.set(src.original, [...(byOriginal.get(src.original) ?? []), src]);
  const multi = byOriginal.size > 1;
  let docNo = 0;
  for (const group of byOriginal.values()) {
    docNo++;
    for (let n = 2; n <= Math.min(s.max_merge, group.length); n++) {
      const chosen: TierSource[] = [];
      const skipped: string[] = [];
      for (const src of group) {
        if (chosen.length === n) break;
        const clash = chosen.find((c) => c.errors.some((a) => src.errors.some((b) => overlap(a.edit, b.edit))));
        if (clash) skipped.push(`${src.instance} overlaps ${clash.instance}`);
        else chosen.push(src);
      }
      const name = `error_gen_${repoName}_error_readme_merge_k${n}${multi ? `_doc${docNo}` : ''}`;
      if (chosen.length < n) {
        refusals.push({ instance: name, reason: 'overlapping_edits', text: `only ${chosen.length} of ${n} instances can be combined: ${skipped.join('; ')}` });
        continue;
      }
      const errors = chosen.flatMap((c) => c.errors);
      const origins = chosen.flatMap((c) => c.errors.map((_, i) => ({ instance: c.instance, error: i + 1 })));
      add({ instance: name, kind: 'merge', errors, origins, sources: chosen.map((c) => c.instance) }, chosen[0]!.original);
    }
  }

  // Level targets: at most level_targets[level] instances of a level for this repository.
  const count = new Map<string, number>();
  const kept: DerivedInstance[] = [];
  for (const d of instances) {
    const cap = s.level_targets[d.level];
    const n = count.get(d.level) ?? 0;
    if (cap !== undefined && n >= cap) {
      refusals.push({ instance: d.instance, reason: 'level_target_reached', text: `${d.level} already has ${cap} instances of this repository (tiers.level_targets.${d.level})` });
      continue;
    }
    count.set(d.level, n + 1);
    kept.push(d);
  }
  return { instances: kept, refusals };
}

function naturalCompare(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
