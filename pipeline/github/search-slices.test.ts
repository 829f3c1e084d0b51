import { describe, expect, it } from 'vitest';
import { dayRange, parseRangeText, partsFor, planSlices, rangeText, SEARCH_CAP, sliceKey, splitRange, type DateRange } from './search-slices.js';

describe('date slicing of a search', () => {
  it('splits a range into contiguous whole-second parts that cover it exactly', () => {
    const whole = dayRange('2008-01-01', '2025-06-30');
    for (const n of [2, 3, 7, 40]) {
      const parts = splitRange(whole, n);
      expect(parts).toHaveLength(n);
      expect(parts[0]!.lo).toBe(whole.lo);
      expect(parts.at(-1)!.hi).toBe(whole.hi);
      for (let i = 1; i < parts.length; i++) expect(parts[i]!.lo).toBe(parts[i - 1]!.hi + 1000);
      for (const p of parts) {
        expect(p.lo % 1000).toBe(0);
        expect(p.hi).toBeGreaterThanOrEqual(p.lo);
      }
    }
  });

  it('never splits below one second', () => {
    const r: DateRange = { lo: Date.parse('2024-01-01T00:00:00Z'), hi: Date.parse('2024-01-01T00:00:02Z') };
    expect(splitRange(r, 10)).toEqual([
      { lo: r.lo, hi: r.lo },
      { lo: r.lo + 1000, hi: r.lo + 1000 },
      { lo: r.lo + 2000, hi: r.lo + 2000 },
    ]);
  });

  it('writes ranges as GitHub qualifiers and reads them back', () => {
    const r = dayRange('2015-01-01', '2015-06-30');
    expect(rangeText(r)).toBe('2015-01-01T00:00:00Z..2015-06-30T23:59:59Z');
    expect(parseRangeText(rangeText(r))).toEqual(r);
  });

  it('asks for counts top-down and yields slices at most the cap, only once every count is known', () => {
    const whole = dayRange('2010-01-01', '2024-12-31');
    const counts = new Map<string, number>();
    let plan = planSlices(2, whole, counts);
    expect(plan.toCount.map((c) => c.key)).toEqual([sliceKey(0, whole), sliceKey(1, whole)]);
    expect(plan.slices).toEqual([]);
    counts.set(sliceKey(0, whole), 2500);
    counts.set(sliceKey(1, whole), 400);
    plan = planSlices(2, whole, counts);
    const parts = splitRange(whole, partsFor(2500));
    expect(plan.toCount.map((c) => c.key)).toEqual(parts.map((p) => sliceKey(0, p)));
    // Uneven counts: one part is still above the cap and is split again.
    parts.forEach((p, i) => counts.set(sliceKey(0, p), i === parts.length - 1 ? 1500 : 1000 / parts.length));
    plan = planSlices(2, whole, counts);
    expect(plan.toCount).toHaveLength(partsFor(1500));
    for (const c of plan.toCount) counts.set(c.key, 1500 / partsFor(1500));
    plan = planSlices(2, whole, counts);
    expect(plan.toCount).toEqual([]);
    expect(plan.slices.every((s) => s.count <= SEARCH_CAP && !s.overfull)).toBe(true);
    expect(plan.slices.filter((s) => s.family === 1).map((s) => s.count)).toEqual([400]);
    // The slices of a family partition its range.
    const f0 = plan.slices.filter((s) => s.family === 0);
    expect(f0[0]!.range.lo).toBe(whole.lo);
    expect(f0.at(-1)!.range.hi).toBe(whole.hi);
    for (let i = 1; i < f0.length; i++) expect(f0[i]!.range.lo).toBe(f0[i - 1]!.range.hi + 1000);
  });

  it('leaves empty ranges out and keeps an unsplittable second as an overfull slice', () => {
    const sec: DateRange = { lo: Date.parse('2024-01-01T00:00:00Z'), hi: Date.parse('2024-01-01T00:00:00Z') };
    expect(planSlices(1, sec, new Map([[sliceKey(0, sec), 1200]])).slices).toMatchObject([{ count: 1200, overfull: true }]);
    expect(planSlices(1, sec, new Map([[sliceKey(0, sec), 0]])).slices).toEqual([]);
  });
});
