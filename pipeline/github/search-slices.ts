/**
 * Date slicing of a GitHub search. The search API (REST and GraphQL) returns at most 1,000
 * results per query, whatever `total_count`/`repositoryCount` says; a complete crawl therefore
 * splits the query by `created:` ranges until every range counts at most 1,000 hits. A
 * repository's creation time never changes, so the ranges partition the result set exactly.
 *
 * The planner is a pure function of the counts known so far: given the same counts (replayed
 * from a crawl's checkpoint) it yields the same ranges, so a resumed crawl asks for nothing it
 * already knows.
 */

export const SEARCH_CAP = 1000;

/** An inclusive range of whole seconds (ms since the epoch, multiples of 1000). */
export interface DateRange {
  lo: number;
  hi: number;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The qualifier value GitHub accepts: `2015-01-01T00:00:00Z..2015-06-30T23:59:59Z`. */
export function rangeText(r: DateRange): string {
  return `${iso(r.lo)}..${iso(r.hi)}`;
}

export function parseRangeText(text: string): DateRange {
  const [a, b] = text.split('..');
  return { lo: Date.parse(a!), hi: Date.parse(b!) };
}

/** The whole range of a crawl: from a date's first second to another date's last second. */
export function dayRange(fromDate: string, toDate: string): DateRange {
  return { lo: Date.parse(`${fromDate}T00:00:00Z`), hi: Date.parse(`${toDate}T23:59:59Z`) };
}

/** Split into `parts` contiguous ranges of (nearly) equal width, on whole seconds. */
export function splitRange(r: DateRange, parts: number): DateRange[] {
  const seconds = Math.floor((r.hi - r.lo) / 1000) + 1;
  const n = Math.max(1, Math.min(parts, seconds));
  const out: DateRange[] = [];
  let lo = r.lo;
  for (let i = 1; i <= n; i++) {
    const hi = i === n ? r.hi : r.lo + Math.floor((seconds * i) / n) * 1000 - 1000;
    out.push({ lo, hi });
    lo = hi + 1000;
  }
  return out;
}

/** How many parts to split a range with `count` hits into: about 500 per part, so most parts fit. */
export function partsFor(count: number): number {
  return Math.min(40, Math.max(2, Math.ceil((count / SEARCH_CAP) * 2)));
}

export interface Slice {
  family: number;
  range: DateRange;
  key: string;
  count: number;
  /** A one-second range that still counts more than the cap: only its first 1,000 are reachable. */
  overfull: boolean;
}

export const sliceKey = (family: number, r: DateRange) => `${family}|${rangeText(r)}`;

export interface Plan {
  /** Ranges whose count is needed before the plan can go on. */
  toCount: { family: number; range: DateRange; key: string }[];
  /** When nothing is left to count: the leaves, each at most SEARCH_CAP (or overfull), in date order per family. */
  slices: Slice[];
}

/**
 * Walk each family's range top-down: a range with a known count under the cap is a slice, one
 * above it is split (partsFor) and its parts are visited, one without a count is to be counted.
 */
export function planSlices(families: number, whole: DateRange, counts: ReadonlyMap<string, number>): Plan {
  const toCount: Plan['toCount'] = [];
  const slices: Slice[] = [];
  const visit = (family: number, range: DateRange) => {
    const key = sliceKey(family, range);
    const count = counts.get(key);
    if (count === undefined) {
      toCount.push({ family, range, key });
      return;
    }
    const oneSecond = range.hi - range.lo < 1000;
    if (count <= SEARCH_CAP || oneSecond) {
      if (count > 0) slices.push({ family, range, key, count, overfull: count > SEARCH_CAP });
      return;
    }
    for (const part of splitRange(range, partsFor(count))) visit(family, part);
  };
  for (let f = 0; f < families; f++) visit(f, whole);
  return { toCount, slices: toCount.length > 0 ? [] : slices };
}
