/**
 * Token sets for the semantic detector, over UTF-8 bytes so the WebAssembly build matches them exactly.
 *
 * A token is a maximal run of ASCII letters, ASCII digits and non-ASCII bytes; ASCII letters are
 * lowercased (other letters are kept as written). Tokens of two characters or fewer and English stop
 * words are dropped. Each token becomes a 32-bit hash (`tokenHash`: FNV-1a over its lowercased bytes, from
 * a basis keyed by `Tag.TOKEN`, then MurmurHash3's finaliser over that and its length; a token longer than
 * `MAX_TOKEN_BYTES` is hashed on its first bytes). The hash is folded in while the token is scanned, so
 * neither twin copies a token out. A set keeps the first `maxTokens` distinct hashes, sorted ascending.
 *
 * Jaccard similarity:
 * - `jaccardExact(a, b)`: |A ∩ B| / |A ∪ B| over whole sets (0 when both are empty);
 * - `jaccardSketch(a, na, b, nb, k)` over bottom-k sketches (the k smallest hashes of each set, `na`/`nb`
 *   the full set sizes): exact when `na <= k` and `nb <= k`; otherwise the bottom-k estimate: of the k
 *   smallest hashes of the two sketches together, the share found in both. Its standard error is about
 *   sqrt(J (1 - J) / k).
 */
import { Tag } from '../fingerprint/combine.js';
import { STOP_WORDS } from './stop-words.js';

/** Bytes of a token hashed at most. */
export const MAX_TOKEN_BYTES = 256;

const FNV_PRIME = 0x01000193;
/** The hash of no bytes yet: FNV-1a's offset basis, keyed by the token tag. */
const TOKEN_BASIS = (0x811c9dc5 ^ Tag.TOKEN) >>> 0;

/** Folds one (lowercased) byte into a token's running hash. */
const fold = (h: number, b: number): number => Math.imul(h ^ b, FNV_PRIME) >>> 0;

/** A token's 32-bit hash from its running hash and length: MurmurHash3's finaliser. */
function finish(h: number, n: number): number {
  h = (h ^ Math.imul(n, FNV_PRIME)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The hash of one token given as its bytes (already lowercased), as the tokeniser computes it. */
export function tokenHash(bytes: Uint8Array): number {
  let h = TOKEN_BASIS;
  const n = Math.min(bytes.length, MAX_TOKEN_BYTES);
  for (let i = 0; i < n; i++) h = fold(h, bytes[i] as number);
  return finish(h, n);
}

const ascii = new TextEncoder();

/** Byte class: 0 separator, 1 token byte, 2 ASCII upper-case letter (lowercased). */
const CLASS = new Uint8Array(256);
for (let b = 0; b < 256; b++) {
  if ((b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) || b >= 0x80) CLASS[b] = 1;
  else if (b >= 0x41 && b <= 0x5a) CLASS[b] = 2;
}

/** The 32-bit token hashes of the stop words. */
export const STOP_HASHES: ReadonlySet<number> = new Set(
  STOP_WORDS.map((w) => tokenHash(ascii.encode(w))),
);

/** A tokenised action: its distinct token hashes, sorted, and how many there are. */
export interface TokenSet {
  /** Distinct token hashes, ascending. */
  readonly hashes: Uint32Array;
  /** Number of distinct tokens (capped at `maxTokens`). */
  readonly count: number;
}

/** Tokenises `bytes[0, len)`; keeps the first `maxTokens` distinct token hashes. */
export function tokenSet(bytes: Uint8Array, len: number, maxTokens: number): TokenSet {
  const seen = new Set<number>();
  let i = 0;
  while (i < len && seen.size < maxTokens) {
    while (i < len && CLASS[bytes[i] as number] === 0) i++;
    let h = TOKEN_BASIS;
    let n = 0;
    let chars = 0;
    while (i < len) {
      const b = bytes[i] as number;
      const c = CLASS[b] as number;
      if (c === 0) break;
      if (n < MAX_TOKEN_BYTES) {
        h = fold(h, c === 2 ? b + 32 : b);
        n++;
      }
      if ((b & 0xc0) !== 0x80) chars++;
      i++;
    }
    if (chars <= 2) continue;
    h = finish(h, n);
    if (!STOP_HASHES.has(h)) seen.add(h);
  }
  const hashes = Uint32Array.from(seen).sort();
  return { hashes, count: hashes.length };
}

/** Exact Jaccard similarity of two sorted sets; 0 when both are empty. */
export function jaccardExact(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 && b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x < y) i++;
    else if (x > y) j++;
    else {
      inter++;
      i++;
      j++;
    }
  }
  return inter / (a.length + b.length - inter);
}

/**
 * Jaccard similarity from bottom-k sketches `a` and `b` (sorted, at most `k` each) of sets of `na` and `nb`
 * distinct tokens; exact when both sets fit in their sketches (see the module comment).
 */
export function jaccardSketch(a: Uint32Array, na: number, b: Uint32Array, nb: number, k: number): number {
  if (na <= k && nb <= k) return jaccardExact(a, b);
  let i = 0;
  let j = 0;
  let taken = 0;
  let both = 0;
  while (taken < k && (i < a.length || j < b.length)) {
    const x = i < a.length ? (a[i] as number) : 0x100000000;
    const y = j < b.length ? (b[j] as number) : 0x100000000;
    if (x < y) i++;
    else if (x > y) j++;
    else {
      both++;
      i++;
      j++;
    }
    taken++;
  }
  return taken === 0 ? 0 : both / taken;
}
