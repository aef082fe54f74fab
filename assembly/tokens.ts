// Token sets and bottom-k sketches: the twin of src/text/token-set.ts.
import { MAX_SKETCH_K, MAX_TOKEN_BYTES, STOP_SLOTS, STOP_TABLE } from './abi';
import { TAG_TOKEN } from './combine';

/** FNV-1a's 32-bit prime and offset basis: a token's bytes are folded in one by one as they are scanned. */
const FNV_PRIME: u32 = 0x01000193;
const FNV_BASIS: u32 = 0x811c9dc5;

/** MurmurHash3's 32-bit finaliser: spreads every input bit over the whole hash (bottom-k needs that). */
// @ts-ignore: decorator
@inline function fmix32(h: u32): u32 {
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}

/** A token's hash (see src/text/token-set.ts): its folded bytes and its length, finalised. */
// @ts-ignore: decorator
@inline function finishToken(h: u32, n: u32): u32 {
  return fmix32(h ^ (n * FNV_PRIME));
}

/**
 * Each byte as a token's hash takes it: ASCII letters lowered, digits and the bytes of non-ASCII characters
 * as they are; 0 for a byte that belongs to no token. Made on first use.
 */
const FOLD: usize = memory.data(256);
let foldReady = false;

function prepareFold(): void {
  for (let b: u32 = 0; b < 256; b++) {
    const lower = b | 0x20;
    const letter = lower - 0x61 < 26;
    store<u8>(FOLD + b, <u8>(letter ? lower : b >= 0x80 || b - 0x30 < 10 ? b : 0));
  }
  foldReady = true;
}

// @ts-ignore: decorator
@inline function fold(ptr: usize, i: u32): u32 {
  return <u32>load<u8>(FOLD + <usize>load<u8>(ptr + i));
}

function isStop(h: u32): bool {
  let i = h & (STOP_SLOTS - 1);
  while (true) {
    const v = load<u32>(STOP_TABLE + (i << 2));
    if (v == 0) return false;
    if (v == h) return true;
    i = (i + 1) & (STOP_SLOTS - 1);
  }
}

/** Table size (a power of two, at least 16) for a set of up to maxTokens hashes. */
export function tokenTableSlots(maxTokens: u32): u32 {
  let n: u32 = 16;
  while (n < maxTokens * 2) n <<= 1;
  return n;
}

let tokenCount: u32 = 0;
let sketchLen: u32 = 0;

/** Distinct tokens found by the last tokenize (capped at maxTokens). */
export function lastTokenCount(): u32 {
  return tokenCount;
}

/** Length of the sketch written by the last tokenize (min(count, k)). */
export function lastSketchLen(): u32 {
  return sketchLen;
}

/**
 * Tokenises UTF-8 text [ptr, ptr + len) and writes the k smallest distinct token hashes, ascending, to
 * `sketch`. `table` holds tokenTableSlots(maxTokens) u32 slots.
 */
export function tokenize(ptr: usize, len: u32, maxTokens: u32, k: u32, sketch: usize, table: usize): void {
  // a counted token takes 3 bytes and a separator: short text needs (and clears) a smaller table
  const most = (len >> 2) + 1;
  const slots = tokenTableSlots(most < maxTokens ? most : maxTokens);
  memory.fill(table, 0, <usize>slots << 2);
  let zeroSeen = false;
  tokenCount = 0;
  sketchLen = 0;
  if (!foldReady) prepareFold();
  let i: u32 = 0;
  while (i < len && tokenCount < maxTokens) {
    while (i < len && fold(ptr, i) == 0) i++;
    const start = i;
    let h = FNV_BASIS ^ <u32>TAG_TOKEN;
    // the token's first MAX_TOKEN_BYTES bytes are hashed, the rest passed over
    const hashed = len - i > MAX_TOKEN_BYTES ? i + MAX_TOKEN_BYTES : len;
    // the bytes hashed, or-ed: 0x80 set when one is not ASCII
    let seen: u32 = 0;
    while (i < hashed) {
      const t = fold(ptr, i);
      if (t == 0) break;
      h = (h ^ t) * FNV_PRIME;
      seen |= t;
      i++;
    }
    const n = i - start;
    while (i < len && fold(ptr, i) != 0) i++;
    // a token of fewer than three characters is left out (counted up to three: continuation bytes are not).
    // Bytes are at least characters, and a token longer than the bytes hashed has MAX_TOKEN_BYTES of them:
    // two bytes or fewer are two characters or fewer; three or more, all ASCII, are three or more
    if (n <= 2) continue;
    if ((seen & 0x80) != 0) {
      let chars: u32 = 0;
      for (let x = start; x < i && chars < 3; x++) chars += <u32>((<u32>load<u8>(ptr + x) & 0xc0) != 0x80);
      if (chars <= 2) continue;
    }
    h = finishToken(h, n);
    // insert into the distinct set, unless it is a stop word's hash (looked up only when the set does not
    // hold it: a stop word's never goes in; 0, the empty slot's mark, is none)
    if (h == 0) {
      if (zeroSeen) continue;
      zeroSeen = true;
    } else {
      let s = h & (slots - 1);
      let fresh = true;
      while (true) {
        const v = load<u32>(table + (<usize>s << 2));
        if (v == 0) break;
        if (v == h) {
          fresh = false;
          break;
        }
        s = (s + 1) & (slots - 1);
      }
      if (!fresh || isStop(h)) continue;
      store<u32>(table + (<usize>s << 2), h);
    }
    tokenCount++;
    // keep the k smallest, ascending: the first k as they come, sorted once there are k (or at the end);
    // after that, a smaller one by insertion into the sorted k
    if (sketchLen < k) {
      store<u32>(sketch + (<usize>sketchLen << 2), h);
      sketchLen++;
      if (sketchLen == k) sortDistinct(sketch, k);
    } else if (h < load<u32>(sketch + (<usize>(k - 1) << 2))) {
      let j = k - 1;
      while (j > 0 && load<u32>(sketch + (<usize>(j - 1) << 2)) > h) {
        store<u32>(sketch + (<usize>j << 2), load<u32>(sketch + (<usize>(j - 1) << 2)));
        j--;
      }
      store<u32>(sketch + (<usize>j << 2), h);
    }
  }
  if (sketchLen < k) sortDistinct(sketch, sketchLen);
}

/** A copy of the values sortDistinct ranks (k is at most MAX_SKETCH_K). */
const RANKED: usize = memory.data(MAX_SKETCH_K << 2, 16);

/**
 * Sorts the `n` (at most MAX_SKETCH_K) distinct values at `a` ascending: each goes to its rank, the count
 * of values below it, counted four at a time. Its cost does not hang on the order the values came in, as
 * an insertion's does (a branch mispredicted at about every value).
 */
function sortDistinct(a: usize, n: u32): void {
  if (n < 2) return;
  if (n > MAX_SKETCH_K) {
    // (no sketch is this long: options cap k at MAX_SKETCH_K) an insertion sort
    for (let i: u32 = 1; i < n; i++) {
      const x = load<u32>(a + (<usize>i << 2));
      let j = i;
      while (j > 0 && load<u32>(a + (<usize>(j - 1) << 2)) > x) {
        store<u32>(a + (<usize>j << 2), load<u32>(a + (<usize>(j - 1) << 2)));
        j--;
      }
      store<u32>(a + (<usize>j << 2), x);
    }
    return;
  }
  memory.copy(RANKED, a, <usize>n << 2);
  const whole = n & ~3;
  for (let i: u32 = 0; i < n; i++) {
    const x = load<u32>(RANKED + (<usize>i << 2));
    const v = i32x4.splat(x);
    let rank: u32 = 0;
    for (let q: u32 = 0; q < whole; q += 4) rank += <u32>popcnt<u32>(<u32>i32x4.bitmask(i32x4.lt_u(v128.load(RANKED + (<usize>q << 2)), v)));
    for (let q = whole; q < n; q++) rank += <u32>(load<u32>(RANKED + (<usize>q << 2)) < x);
    store<u32>(a + (<usize>rank << 2), x);
  }
}

/** Exact Jaccard of two sorted arrays; 0 when both are empty. */
export function jaccardExact(a: usize, na: u32, b: usize, nb: u32): f64 {
  if (na == 0 && nb == 0) return 0;
  let i: u32 = 0;
  let j: u32 = 0;
  let inter: u32 = 0;
  while (i < na && j < nb) {
    const x = load<u32>(a + (<usize>i << 2));
    const y = load<u32>(b + (<usize>j << 2));
    if (x < y) i++;
    else if (x > y) j++;
    else {
      inter++;
      i++;
      j++;
    }
  }
  return <f64>inter / <f64>(na + nb - inter);
}

/** |A ∩ B| for two ascending sets of distinct values (a merge walk). */
export function intersectionCount(a: usize, la: u32, b: usize, lb: u32): u32 {
  let i: u32 = 0;
  let j: u32 = 0;
  let c: u32 = 0;
  while (i < la && j < lb) {
    const x = load<u32>(a + (<usize>i << 2));
    const y = load<u32>(b + (<usize>j << 2));
    i += <u32>(x <= y);
    j += <u32>(y <= x);
    c += <u32>(x == y);
  }
  return c;
}

/** Jaccard from bottom-k sketches (lengths la, lb) of sets of na and nb tokens (see token-set.ts). */
export function jaccardSketch(a: usize, la: u32, na: u32, b: usize, lb: u32, nb: u32, k: u32): f64 {
  if (na == 0 && nb == 0) return 0;
  // both sets fit in their sketches: the sketches are the sets, and Jaccard is exact
  if (na <= k && nb <= k) {
    const c = intersectionCount(a, la, b, lb);
    return <f64>c / <f64>(na + nb - c);
  }
  // otherwise the k smallest hashes of the union, and the share of them found in both (a branchless merge
  // while both sketches last; after that, every hash taken is in one sketch only)
  let i: u32 = 0;
  let j: u32 = 0;
  let taken: u32 = 0;
  let both: u32 = 0;
  while (taken < k && i < la && j < lb) {
    const x = load<u32>(a + (<usize>i << 2));
    const y = load<u32>(b + (<usize>j << 2));
    i += <u32>(x <= y);
    j += <u32>(y <= x);
    both += <u32>(x == y);
    taken++;
  }
  if (taken < k) {
    const rest = taken + (la - i) + (lb - j);
    taken = rest < k ? rest : k;
  }
  return taken == 0 ? 0 : <f64>both / <f64>taken;
}

/**
 * Whether jaccardSketch(a, la, na, b, lb, nb, k) >= threshold, the same answer, but cheaper: the lists
 * (ascending, distinct values) are merged four values at a time with SIMD, and the merge stops as soon as
 * the threshold is settled either way. The estimate only grows with the count of common values, so it
 * reaches the threshold exactly when that count reaches the least one that does, `need`
 * (leastCommonExact for two whole sets; `needFull`, leastCommonFull(k, threshold), once a set outgrows its
 * sketch and a sketch is full).
 *
 * Two whole sets: the answer is |A ∩ B| >= need. Otherwise, with a sketch of k values or more, the union
 * of the sketches holds at least k values, so jaccardSketch takes k of them (its merge runs k steps, or a
 * list ends first and the values left make it up to k) and only common values among the k smallest of the
 * union count: the estimate is (those) / k. The c-th common value (in ascending order), at a[p] == b[q], is
 * the (p + 1) + (q + 1) - c-th smallest value of the union, and that rank grows from one common value to
 * the next, so the counted ones are the first few: the answer is whether the need-th common value exists
 * and has p + q + 2 - need <= k. That is what the scalar merge of jaccardSketch counts, without counting
 * steps (which a block merge cannot do). This covers two full sketches, and a full one against the
 * sketch of a set that fits (one set of more than k tokens, the other of k or fewer). Sketches both
 * shorter than k of sets not both within k (not made by tokenize) take the whole computation.
 */
export function sketchReaches(a: usize, la: u32, na: u32, b: usize, lb: u32, nb: u32, k: u32, threshold: f64, needFull: u32): bool {
  const needExact = na <= k && nb <= k ? leastCommonExact(na, nb, threshold) : 0;
  return sketchReachesNeed(a, la, na, b, lb, nb, k, threshold, needExact, needFull);
}

/**
 * sketchReaches with the need of two whole sets given: `needExact` must be leastCommonExact(na, nb,
 * threshold) when na <= k and nb <= k (it is not read otherwise). detectSemantic computes it once per set
 * size, as the current call's size and the threshold stay the same over its window.
 */
export function sketchReachesNeed(a: usize, la: u32, na: u32, b: usize, lb: u32, nb: u32, k: u32, threshold: f64, needExact: u32, needFull: u32): bool {
  if (na == 0 && nb == 0) return 0 >= threshold;
  const full = !(na <= k && nb <= k);
  let need: u32;
  if (!full) need = needExact;
  // (k == 0: the estimate is 0 / 0, left to the old shapes: two empty sketches on needFull, else jaccardSketch)
  else if ((la == k && lb == k) || (k != 0 && (la >= k || lb >= k))) need = needFull;
  else return jaccardSketch(a, la, na, b, lb, nb, k) >= threshold;
  if (need == U32.MAX_VALUE) return false;
  // no common value needed: reached (the merge below decides at the need-th common value)
  if (need == 0) return true;
  if (need > (la < lb ? la : lb)) return false;
  // Block merge (Schlegel et al.; Lemire et al.): compare a[i..i+4) with b[j..j+4) and its three rotations
  // (16 pairs, 4 equality tests), then move past the block whose largest value is smaller (both when
  // equal). Every common value is found in exactly one pair of blocks, and in ascending order: the blocks
  // behind i and j hold every common value counted so far, the rest lie at p >= i and q >= j.
  let i: u32 = 0;
  let j: u32 = 0;
  let both: u32 = 0;
  while (i + 4 <= la && j + 4 <= lb) {
    const va = v128.load(a + (<usize>i << 2));
    const vb = v128.load(b + (<usize>j << 2));
    const eq01 = v128.or(i32x4.eq(va, vb), i32x4.eq(va, i32x4.shuffle(vb, vb, 1, 2, 3, 0)));
    const eq23 = v128.or(i32x4.eq(va, i32x4.shuffle(vb, vb, 2, 3, 0, 1)), i32x4.eq(va, i32x4.shuffle(vb, vb, 3, 0, 1, 2)));
    // lanes of a's block found in b's block (each value of a matches at most one of b: b's are distinct)
    const m = <u32>i32x4.bitmask(v128.or(eq01, eq23));
    const c = <u32>popcnt<u32>(m);
    if (both + c >= need) {
      if (!full) return true;
      // the need-th common value is in this pair of blocks: the (need - both)-th set lane of m, at a[p],
      // found in b's block at b[q]
      let rest = m;
      for (let r = need - both; r > 1; r--) rest &= rest - 1;
      const p = i + <u32>ctz<u32>(rest);
      const q = j + <u32>ctz<u32>(<u32>i32x4.bitmask(i32x4.eq(vb, i32x4.splat(load<u32>(a + (<usize>p << 2))))));
      return p + q + 2 - need <= k;
    }
    both += c;
    // the blocks' largest values as scalar loads, not lanes taken out of va and vb: the next blocks'
    // addresses wait on these, and a load is the shorter wait (measured: ~20% less per comparison)
    const xa = load<u32>(a + (<usize>i << 2), 12);
    const yb = load<u32>(b + (<usize>j << 2), 12);
    i += <u32>(xa <= yb) << 2;
    j += <u32>(yb <= xa) << 2;
    if (!stillPossible(la - i, lb - j, both, need, full, i + j, k)) return false;
  }
  // the rest (fewer than four values left in a list): a scalar merge, from where the blocks stopped
  while (i < la && j < lb) {
    const x = load<u32>(a + (<usize>i << 2));
    const y = load<u32>(b + (<usize>j << 2));
    if (x == y) {
      both++;
      if (both == need) return !full || i + j + 2 - need <= k;
    }
    i += <u32>(x <= y);
    j += <u32>(y <= x);
    if (!stillPossible(la - i, lb - j, both, need, full, i + j, k)) return false;
  }
  return false;
}

/**
 * Whether the need-th common value can still be found, when `both` < `need` were found before a[i] and
 * b[j] (leftA = la - i, leftB = lb - j, at = i + j). The r = need - both still missing lie at distinct p >= i
 * and q >= j, one per value of the shorter rest; where the union's k smallest count (`full`: sets larger
 * than k), the need-th, at p >= i + r - 1 and q >= j + r - 1, must also have p + q + 2 - need <= k, so
 * i + j + 2 r - need <= k.
 */
// @ts-ignore: decorator
@inline function stillPossible(leftA: u32, leftB: u32, both: u32, need: u32, full: bool, at: u32, k: u32): bool {
  const r = need - both;
  if ((leftA < leftB ? leftA : leftB) < r) return false;
  return !full || at + 2 * r <= k + need;
}

/** The fewest common tokens c with c / (na + nb - c) >= threshold (as f64), or U32.MAX_VALUE when none. */
export function leastCommonExact(na: u32, nb: u32, threshold: f64): u32 {
  const m = na < nb ? na : nb;
  const n = na + nb;
  // c / (n - c) >= t  <=>  c >= t n / (1 + t): start just below that and settle by the f64 test itself
  const guess = Math.ceil((threshold * <f64>n) / (1 + threshold)) - 1;
  let c: u32 = guess <= 0 ? 0 : guess >= <f64>m ? m : <u32>guess;
  while (c > 0 && <f64>(c - 1) / <f64>(n - c + 1) >= threshold) c--;
  while (c <= m && !(<f64>c / <f64>(n - c) >= threshold)) c++;
  return c <= m ? c : U32.MAX_VALUE;
}

/** The fewest common sketch values c with c / k >= threshold (as f64), or U32.MAX_VALUE when none. */
export function leastCommonFull(k: u32, threshold: f64): u32 {
  for (let c: u32 = 0; c <= k; c++) if (<f64>c / <f64>k >= threshold) return c;
  return U32.MAX_VALUE;
}
