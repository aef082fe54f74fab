/**
 * The fleet's randomness: a small seeded generator, identical on every machine for a seed.
 *
 * Streams are seeded by mixing the fleet seed with stream numbers (the session index, the plan block)
 * through the splitmix32 finaliser, so every session has a stream of its own: a session can be made on
 * its own (lazily, or out of order) and still be the one the whole fleet holds. Numbers come from
 * mulberry32 (Tommy Ettinger's 32-bit generator): one 32-bit word of state, period 2^32, plenty for
 * sessions of at most a few hundred draws.
 *
 * ```
 *   seed, stream ids --mix32--> state --mulberry32--> u32, u32, ...  --/2^32--> [0, 1)
 * ```
 */

/** The splitmix32 finaliser: a well-spread 32-bit word from any 32-bit word. */
export function mix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** The state word of stream `parts` under `seed` (a safe integer; both halves of it count). */
export function streamSeed(seed: number, ...parts: readonly number[]): number {
  let h = mix32((seed >>> 0) ^ mix32(Math.floor(seed / 4294967296) >>> 0));
  for (const p of parts) h = mix32(h ^ mix32(p >>> 0));
  return h;
}

/** FNV-1a over the UTF-16 units of `s`: stable content for a name (a file's line, a query's hits). */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return mix32(h);
}

/** A seeded stream of random numbers (mulberry32). */
export class Rng {
  private state: number;

  /** A stream starting from the 32-bit state `state` (see {@link streamSeed}). */
  constructor(state: number) {
    this.state = state >>> 0;
  }

  /** The next 32-bit unsigned word. */
  u32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** An integer in [lo, hi], both included (lo when hi < lo). */
  int(lo: number, hi: number): number {
    return hi <= lo ? lo : lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One key of `weights`, with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const keys = Object.keys(weights) as K[];
    let total = 0;
    for (const k of keys) total += weights[k];
    let r = this.next() * total;
    for (const k of keys) {
      r -= weights[k];
      if (r < 0) return k;
    }
    return keys[keys.length - 1] as K;
  }

  /** `n` distinct elements of `items` (all of them when n >= length), in random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    return this.shuffle([...items]).slice(0, Math.max(0, n));
  }

  /** Shuffles `items` in place (Fisher-Yates) and returns it. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const t = items[i] as T;
      items[i] = items[j] as T;
      items[j] = t;
    }
    return items;
  }
}
