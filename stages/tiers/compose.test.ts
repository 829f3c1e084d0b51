import { describe, expect, it } from 'vitest';
import { tiersSection } from '../../pipeline/config/schema.js';
import { injectedError, lineEdit } from '../../test/helpers/validate-fixture.js';
import { compose, deriveTiers, levelOf } from './compose.js';

const ORIGINAL = ['# r', '```bash', ...Array.from({ length: 24 }, (_, i) => `step-${i + 1} --flag`), '```', ''].join('\n');
// Line of step k is k + 2.
const err = (type: string, step: number) => injectedError(type, lineEdit(ORIGINAL, step + 2, step + 2, [`step-${step} --flg`]));
const settings = (over: Record<string, unknown> = {}) => tiersSection.parse(over);

describe('tiers', () => {
  it('builds derived READMEs by applying exactly the recorded edits to the original', () => {
    const a = err('E2', 1);
    const b = err('E4', 5);
    const r = compose(ORIGINAL, [b, a]);
    expect(r.ok).toBe(true);
    const lines = (r as { text: string }).text.split('\n');
    expect(lines[2]).toBe('step-1 --flg');
    expect(lines[6]).toBe('step-5 --flg');
    // Every other line is the original's, byte for byte.
    const orig = ORIGINAL.split('\n');
    expect(lines.filter((l, i) => l !== orig[i])).toEqual(['step-1 --flg', 'step-5 --flg']);
  });

  it('splits an instance per error type and names it _only_E<k>', () => {
    const { instances } = deriveTiers('o_r', [{ instance: 'o_r_error_readme_1', original: ORIGINAL, errors: [err('E2', 1), err('E4', 2)] }], settings());
    expect(instances.map((d) => [d.instance, d.kind, d.level, d.errors.map((e) => e.error_type)])).toEqual([
      ['o_r_error_readme_1', 'base', 'level2', ['E2', 'E4']],
      ['o_r_error_readme_1_only_E2', 'split', 'level1', ['E2']],
      ['o_r_error_readme_1_only_E4', 'split', 'level1', ['E4']],
    ]);
    // The split keeps the E2 edit and reverts the E4 one.
    const only = instances[1]!.text.split('\n');
    expect(only[2]).toBe('step-1 --flg');
    expect(only[3]).toBe('step-2 --flag');
  });

  it('never merges overlapping edits: the overlapping instance is skipped and a merge it would need is refused', () => {
    const sources = [
      { instance: 'o_r_error_readme_1', original: ORIGINAL, errors: [err('E2', 1), err('E4', 2)] },
      { instance: 'o_r_error_readme_2', original: ORIGINAL, errors: [err('E2', 2), err('E6', 3)] }, // step 2 again
      { instance: 'o_r_error_readme_3', original: ORIGINAL, errors: [err('E1', 4), err('E7', 5)] },
    ];
    const { instances, refusals } = deriveTiers('o_r', sources, settings({ split: false }));
    const merges = instances.filter((d) => d.kind === 'merge');
    expect(merges.map((m) => [m.instance, m.sources, m.level])).toEqual([['error_gen_o_r_error_readme_merge_k2', ['o_r_error_readme_1', 'o_r_error_readme_3'], 'level4']]);
    expect(refusals).toEqual([
      { instance: 'error_gen_o_r_error_readme_merge_k3', reason: 'overlapping_edits', text: expect.stringContaining('o_r_error_readme_2 overlaps o_r_error_readme_1') },
    ]);
    // A direct composition of overlapping edits is refused as well.
    expect(compose(ORIGINAL, [err('E2', 2), err('E4', 2)]).ok).toBe(false);
  });

  it('merges into levels 1..10+, level10 holding 10 or more errors, within the level targets', () => {
    const sources = Array.from({ length: 6 }, (_, i) => ({ instance: `o_r_error_readme_${i + 1}`, original: ORIGINAL, errors: [err('E2', 2 * i + 1), err('E4', 2 * i + 2)] }));
    const { instances } = deriveTiers('o_r', sources, settings({ split: false }));
    const count = (level: string) => instances.filter((d) => d.level === level).length;
    expect(instances.filter((d) => d.kind === 'base')).toHaveLength(6);
    expect([count('level2'), count('level4'), count('level6'), count('level8'), count('level10')]).toEqual([6, 1, 1, 1, 2]);
    expect(instances.find((d) => d.instance.endsWith('merge_k6'))!.errors).toHaveLength(12);
    expect(levelOf(14)).toBe('level10');

    const capped = deriveTiers('o_r', sources, settings({ split: false, max_merge: 3, level_targets: { level2: 4 } }));
    expect(capped.instances.filter((d) => d.level === 'level2')).toHaveLength(4);
    expect(capped.refusals.map((r) => r.reason)).toEqual(['level_target_reached', 'level_target_reached']);
    expect(capped.instances.map((d) => d.instance).filter((n) => n.includes('merge'))).toEqual(['error_gen_o_r_error_readme_merge_k2', 'error_gen_o_r_error_readme_merge_k3']);
  });
});
