/**
 * Token sets for the semantic detector, over UTF-8 bytes so the WebAssembly build can match them exactly.
 *
 * A token is a maximal run of ASCII letters, ASCII digits and non-ASCII characters; ASCII letters are
 * lowercased (other letters are kept as written). Tokens of two characters or fewer and English stop
 * words are dropped. Each token becomes its 64-bit xxh64 (seed `Tag.TOKEN`); a set keeps the first
 * `maxTokens` distinct ones, sorted ascending by (hi, lo) in a Uint32Array of word pairs.
 */
import { Tag } from '../fingerprint/combine.js';
import { u64 } from '../fingerprint/u64.js';
import { xxh64 } from '../fingerprint/xxh64.js';
import { STOP_WORDS } from './stop-words.js';

const tokenBuf = new Uint8Array(4096);
const ascii = new TextEncoder();

/** Byte class: 0 separator, 1 token byte, 2 ASCII upper-case letter (lowercased). */
const CLASS = new Uint8Array(256);
for (let b = 0; b < 256; b++) {
  if (b >= 0x61 && b <= 0x7a) CLASS[b] = 1;
  else if (b >= 0x30 && b <= 0x39) CLASS[b] = 1;
  else if (b >= 0x41 && b <= 0x5a) CLASS[b] = 2;
  else if (b >= 0x80) CLASS[b] = 1;
}

/** An exact set of 64-bit values: high words listed under their low word. */
class WordPairSet {
  private readonly map = new Map<number, number[]>();

  has(hi: number, lo: number): boolean {
    const his = this.map.get(lo);
    return his !== undefined && his.includes(hi);
  }

  add(hi: number, lo: number): void {
    const his = this.map.get(lo);
    if (his === undefined) this.map.set(lo, [hi]);
    else his.push(hi);
  }
}

/** 64-bit hashes of the stop words. */
const STOP = new WordPairSet();
for (const w of STOP_WORDS) {
  const b = ascii.encode(w);
  const lo = xxh64(b, 0, b.length, 0, Tag.TOKEN);
  STOP.add(u64.hi, lo);
}

/**
 * Tokenises `bytes[0, len)` and returns the token set as sorted (hi, lo) pairs.
 * At most `maxTokens` distinct tokens are kept: the first ones in text order.
 */
export function tokenSet(bytes: Uint8Array, len: number, maxTokens: number): Uint32Array {
  const seen = new WordPairSet();
  const his: number[] = [];
  const los: number[] = [];
  let i = 0;
  while (i < len && his.length < maxTokens) {
    while (i < len && CLASS[bytes[i] as number] === 0) i++;
    let n = 0;
    let chars = 0;
    while (i < len) {
      const b = bytes[i] as number;
      const c = CLASS[b] as number;
      if (c === 0) break;
      if (n < tokenBuf.length) tokenBuf[n++] = c === 2 ? b + 32 : b;
      if ((b & 0xc0) !== 0x80) chars++;
      i++;
    }
    if (chars <= 2) continue;
    const lo = xxh64(tokenBuf, 0, n, 0, Tag.TOKEN);
    const hi = u64.hi;
    if (STOP.has(hi, lo) || seen.has(hi, lo)) continue;
    seen.add(hi, lo);
    his.push(hi);
    los.push(lo);
  }
  const order = his.map((_, j) => j).sort((a, b) => (his[a] as number) - (his[b] as number) || (los[a] as number) - (los[b] as number));
  const out = new Uint32Array(order.length * 2);
  order.forEach((j, at) => {
    out[2 * at] = his[j] as number;
    out[2 * at + 1] = los[j] as number;
  });
  return out;
}

/** Exact Jaccard similarity of two sorted token sets; 0 when both are empty. */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  const na = a.length >> 1;
  const nb = b.length >> 1;
  if (na === 0 && nb === 0) return 0;
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < na && j < nb) {
    const ah = a[2 * i] as number;
    const bh = b[2 * j] as number;
    if (ah < bh) i++;
    else if (ah > bh) j++;
    else {
      const al = a[2 * i + 1] as number;
      const bl = b[2 * j + 1] as number;
      if (al < bl) i++;
      else if (al > bl) j++;
      else {
        inter++;
        i++;
        j++;
      }
    }
  }
  return inter / (na + nb - inter);
}
