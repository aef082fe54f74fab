import { describe, expect, it } from 'vitest';
import { shardOf } from '../src/pool/loop-pool.js';

/** How many of `ids` each of `shards` shards holds. */
function counts(ids: readonly string[], shards: number): number[] {
  const n = new Array<number>(shards).fill(0);
  for (const id of ids) n[shardOf(id, shards)]! += 1;
  return n;
}

/** Every ordering of `chars`. */
function anagrams(chars: string): string[] {
  if (chars.length <= 1) return [chars];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i++) for (const rest of anagrams(chars.slice(0, i) + chars.slice(i + 1))) out.push(chars[i] + rest);
  return out;
}

describe('shardOf', () => {
  it('should spread ids made of the same characters over both shards of two', () => {
    // FNV-1a alone gave every one the same shard: its low bit is the parity of the characters' low bits
    const ids = anagrams('run-42ab').map((s) => `session-${s}`);
    const [a, b] = counts(ids, 2) as [number, number];
    expect(Math.min(a, b)).toBeGreaterThan(ids.length * 0.4);
  });

  it('should split numbered sessions and each tenth of them evenly over 2 and 3 shards', () => {
    for (const shards of [2, 3]) {
      const all = Array.from({ length: 10_000 }, (_, s) => `session-${s}`);
      for (const part of [all, all.filter((_, s) => s % 10 === 9), all.filter((_, s) => s % 8 === 3)]) {
        const n = counts(part, shards);
        for (const c of n) expect(Math.abs(c - part.length / shards)).toBeLessThan(part.length * 0.05);
      }
    }
  });

  it('should give a session the same shard every time, and a shard below the count', () => {
    for (const id of ['', 'a', 'session-1', 'é€𝄞']) for (const shards of [1, 2, 5]) {
      const s = shardOf(id, shards);
      expect(s).toBe(shardOf(id, shards));
      expect(s >= 0 && s < shards).toBe(true);
    }
  });
});
