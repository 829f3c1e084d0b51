/**
 * A small seeded PRNG (mulberry32) so that every generated repository, file and history is
 * byte-for-byte the same on every run. Math.random is never used by the benchmark.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Log-uniform integer in [min, max]: many small values, a few large ones (like file sizes). */
  logInt(min: number, max: number): number {
    return Math.round(Math.exp(Math.log(min) + this.next() * (Math.log(max) - Math.log(min))));
  }

  /** `n` pseudo-random bytes; `compressible` in [0,1] is the share of bytes drawn from a 16-symbol alphabet. */
  bytes(n: number, compressible = 0): Buffer {
    const buf = Buffer.allocUnsafe(n);
    for (let i = 0; i < n; i += 4) {
      const word = (this.next() * 4294967296) >>> 0;
      for (let k = 0; k < 4 && i + k < n; k += 1) {
        const b = (word >>> (k * 8)) & 0xff;
        buf[i + k] = compressible > 0 && ((i >> 6) % 100) / 100 < compressible ? b & 0x0f : b;
      }
    }
    return buf;
  }

  /** A new generator seeded from this one (independent streams per repository). */
  fork(): Prng {
    return new Prng((this.next() * 4294967296) >>> 0);
  }
}
