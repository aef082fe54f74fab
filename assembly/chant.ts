// Chanting's per-character work: the period search (src/text/period-search.ts) and the sentence tracker
// (src/text/sentence-repeats.ts) of one text stream, over a region of linear memory. The TypeScript
// classes are the twins that define what this computes; the property tests hold the two to the same
// hits, character by character.
//
//   region: [slot header 16 | scalars | last stop | sentence ring | shown]  links  heads  runs  ring
//           following          (offsets: assembly/abi.ts CS_*, config CH_OFF_*)
//
//   Five departures from period-search.ts, none changing the periods followed or the hits:
//   - no gram hash is kept a position (period-search.ts's gramAt only sorts out chain entries before their
//     characters are compared: a gram whose characters are the current one's has its hash, so comparing
//     the characters alone finds the same ones; before format 12 its low 16 bits were kept);
//   - a chain link is the distance back to the previous position of its bucket, 0 for none (a link
//     longer than maxP ends the walk as none does): a link is at most maxP (a head further back is none),
//     so u8 when maxP < 256 (CH_LINK_WIDE 0), else u16;
//   - a bucket's head is its position's low 16 bits, read back as the position 1..65535 before the
//     current one with those bits (none when that is more than maxP back or before the stream). A head
//     within maxP reads back exactly (maxP < 65536). A stale head may read back as a recent position q
//     of another bucket: the walk then visits q and its chain, but every position within maxP with the
//     current gram is in the current bucket, which the true chain (all within maxP, each link exact) has
//     already visited before the walk leaves it, so those visits match nothing (same characters, same
//     full hash, same bucket);
//   - the periods followed are the set bits of the following words (u32), visited in increasing order,
//     and each one's run is kept at its period (runs[L - 1]), not in a list in the order they began: the
//     smallest period that hits is the same whatever the order;
//   - the gram table has 64 buckets, not 256 (a gram's bucket is its hash's top 6 bits, not 8): a walk
//     visits every position within maxP whose gram is the current one whichever bucket function sorts
//     them, in the same order, and only those can match.
//
//   chantPush(region, text, n, piece, limit): pushes UTF-16 units text[0, n) and stops
//     - right after a character that hit (a period: CO_PERIOD, CO_AT, CS_HIT_RUN; or a repeated
//       sentence: CO_SAID, CO_FIRST, CO_SHOWN units at CS_SHOWN), or
//     - before a character once the stream position reaches `limit` (never before the first),
//   and returns the units it pushed. Quiet prose costs the host one call per range of text.
import {
  CF_CHANT, CH_DROP, CH_GRAM, CH_LINK_WIDE, CH_LONG_CHUNK, CH_LONG_NEED, CH_MAXP, CH_MINLEN, CH_NEED, CH_OFF_FOLLOW, CH_OFF_HEADS,
  CH_OFF_PREV, CH_OFF_RING, CH_OFF_RUNS, CH_REPS, CH_SIZE, CH_STRIDE, CO_AT, CO_FIRST, CO_PERIOD, CO_SAID,
  CO_SHOWN, CS_CHUNKS, CS_FOLLOWED, CS_GRAM, CS_HASHES, CS_HIT_RUN, CS_LENGTHS, CS_POS, CS_S_FLAGS, CS_S_HASH, CS_S_LENGTH, CS_S_START,
  CS_S_STORED, CS_SHOWN, CS_STARTS, CS_UNTIL, C_FLAGS, C_SLOT_SIZE, S_CONFIG, SENTENCE_SHOWN, SENTENCE_WINDOW,
} from './abi';
import { configPtr, slotOk } from './slots';

/** Chain heads of the gram table (period-search.ts has 256: the same positions match, see the header). */
const BUCKETS: u32 = 64;
/** A gram's bucket: the top log2(BUCKETS) bits of its hash times the golden ratio. */
const BUCKET_SHIFT: u32 = 26;
const HASH_BASE: i32 = 0x01000193;
const FNV_OFFSET: i32 = <i32>0x811c9dc5;
const FNV_PRIME: i32 = 0x01000193;
/** The lowest a sentence start goes when rebased (as in sentence-repeats.ts). */
const START_FLOOR: i32 = -(1 << 30);
const BAD_REGION: u32 = 0xffffffff;

/** The config of region `s` when it is a live chanting region, else 0. */
function chantConfig(s: u32): usize {
  if (!slotOk(s)) return 0;
  const cfg = configPtr(load<u32>(s + S_CONFIG));
  return (load<u32>(cfg + C_FLAGS) & CF_CHANT) != 0 ? cfg : 0;
}

/** Forgets the stream of region `s` (a fresh region too must be reset once). 0, or 1 when `s` is not a chanting region. */
export function chantReset(s: u32): u32 {
  const cfg = chantConfig(s);
  if (cfg == 0) return 1;
  memory.fill(<usize>s + CS_POS, 0, <usize>(load<u32>(cfg + C_SLOT_SIZE) - CS_POS));
  store<i32>(s + CS_UNTIL, load<i32>(cfg + CH_STRIDE));
  store<i32>(s + CS_S_HASH, FNV_OFFSET);
  memory.fill(<usize>s + load<u32>(cfg + CH_OFF_HEADS), 0xff, BUCKETS << 1);
  return 0;
}

/** A unit's part in a sentence (sentence-repeats.ts), as bits: it is added (not white space or a line feed), ends a sentence (`.`, `!`, `?`, the line feed), or is a letter or digit (ASCII ones, and every code from U+00C0). */
const ADDS: u32 = 1;
const ENDS: u32 = 2;
const WORD: u32 = 4;
/** Those bits for the units under 128, made on first use. */
const UNIT: usize = memory.data(128);
let unitReady = false;

function prepareUnits(): void {
  for (let ch: u32 = 0; ch < 128; ch++) {
    const blank = ch == 0x20 || (ch >= 0x09 && ch <= 0x0d);
    const end = ch == 0x2e || ch == 0x21 || ch == 0x3f || ch == 0x0a;
    const word = ch - 0x30 < 10 || (ch | 0x20) - 0x61 < 26;
    store<u8>(UNIT + ch, <u8>((blank ? 0 : ADDS) | (end ? ENDS : 0) | (word ? WORD : 0)));
  }
  unitReady = true;
}

/** The bits of unit `ch` (any code under 65536). */
// @ts-ignore: decorator
@inline function unitBits(ch: i32): u32 {
  return ch < 128 ? <u32>load<u8>(UNIT + <usize>ch) : ch >= 0xc0 ? ADDS | WORD : ADDS;
}

/**
 * Pushes the UTF-16 units at `text` (`n` of them) into region `s`'s stream, as from piece of text `piece`;
 * stops after a hit or before a character at position `limit` or beyond (see the header). Returns the
 * units pushed (0xffffffff when `s` is not a chanting region).
 */
export function chantPush(s: u32, text: u32, n: u32, piece: f64, limit: i32): u32 {
  const cfg = chantConfig(s);
  if (cfg == 0) return BAD_REGION;
  const base = <usize>s;
  const maxP = load<i32>(cfg + CH_MAXP);
  const G = load<i32>(cfg + CH_GRAM);
  const stride = load<i32>(cfg + CH_STRIDE);
  const need = load<i32>(cfg + CH_NEED);
  const longNeed = load<i32>(cfg + CH_LONG_NEED);
  const minLength = load<i32>(cfg + CH_MINLEN);
  const longChunk = load<i32>(cfg + CH_LONG_CHUNK);
  const reps = load<i32>(cfg + CH_REPS);
  const size = load<i32>(cfg + CH_SIZE);
  const mask = size - 1;
  const drop = load<i32>(cfg + CH_DROP);
  const ring = base + load<u32>(cfg + CH_OFF_RING);
  const links = base + load<u32>(cfg + CH_OFF_PREV);
  const wideLinks = load<u32>(cfg + CH_LINK_WIDE) != 0;
  const heads = base + load<u32>(cfg + CH_OFF_HEADS);
  // runs[L - 1]: the run of period L while it is followed
  const runs = base + load<u32>(cfg + CH_OFF_RUNS) - 4;
  const following = base + load<u32>(cfg + CH_OFF_FOLLOW);
  const flagWords = (maxP >>> 5) + 1;

  let pos = load<i32>(base + CS_POS);
  let gram = load<i32>(base + CS_GRAM);
  let until = load<i32>(base + CS_UNTIL);
  let hitRun = load<i32>(base + CS_HIT_RUN);
  let followed = load<i32>(base + CS_FOLLOWED);
  let sHash = load<i32>(base + CS_S_HASH);
  let sLen = load<i32>(base + CS_S_LENGTH);
  let sStart = load<i32>(base + CS_S_START);
  const sFlags = load<u32>(base + CS_S_FLAGS);
  let pending = (sFlags & 1) != 0;
  let words = (sFlags & 2) != 0;
  let stored = load<u64>(base + CS_S_STORED);
  store<i32>(base + CO_PERIOD, 0);
  store<u32>(base + CO_SAID, 0);

  if (!unitReady) prepareUnits();
  // units pushed at most: the first always, then while the position is under the limit
  const room = <i64>limit - <i64>pos;
  const most: u32 = room >= <i64>n ? n : room >= 1 ? <u32>room : n > 0 ? 1 : 0;
  let k: u32 = 0;
  while (k < most) {
    const ch = <i32>load<u16>(<usize>text + (<usize>k << 1));
    k++;
    const i = pos;
    pos++;
    store<u16>(ring + (<usize>(i & mask) << 1), <u16>ch);
    let hit: i32 = 0;
    // follow the periods already followed, smallest first: the first that hits is the smallest
    if (followed != 0) {
      let w: i32 = 0;
      // `followed` is the count of set bits (chantCheck holds a loaded region to it): the words past the
      // last one holding a followed period are not read
      let left = followed;
      for (let word: i32 = 0; left > 0 && word < flagWords; word++) {
        let bits = load<u32>(following + (<usize>word << 2));
        left -= <i32>popcnt<u32>(bits);
        while (bits != 0) {
          const L = (word << 5) + <i32>ctz<u32>(bits);
          bits &= bits - 1;
          if (<i32>load<u16>(ring + (<usize>((i - L) & mask) << 1)) != ch) {
            unfollow(following, L);
            continue;
          }
          const r = load<i32>(runs + (<usize>L << 2)) + 1;
          store<i32>(runs + (<usize>L << 2), r);
          w++;
          if (hit == 0 && r >= (L >= longChunk ? longNeed : need) * L && r + L >= minLength) {
            hit = L;
            hitRun = r;
          }
        }
      }
      followed = w;
    }
    // the gram ending here, into the table; at an anchor, start following new periods
    const leaving = i >= G ? <i32>load<u16>(ring + (<usize>((i - G) & mask) << 1)) : 0;
    gram = (gram - leaving * drop) * HASH_BASE + ch;
    if (i >= G - 1) {
      const h = gram;
      const b = <u32>(h * <i32>0x9e3779b1) >>> BUCKET_SHIFT;
      // the head's distance back from its low 16 bits (see the header): none unless 1..maxP and within the stream
      const d = (i - <i32>load<u16>(heads + (<usize>b << 1))) & 0xffff;
      let q = d != 0 && d <= maxP && d <= i ? i - d : -1;
      store<u16>(heads + (<usize>b << 1), <u16>i);
      // the link as a distance back, 0 for none: a step longer than maxP ends the walk below either way
      const link = q >= 0 ? i - q : 0;
      if (wideLinks) store<u16>(links + (<usize>(i & mask) << 1), <u16>link);
      else store<u8>(links + <usize>(i & mask), <u8>link);
      if (--until <= 0) {
        until = stride;
        while (q >= 0 && i - q <= maxP) {
          const L = i - q;
          if (!isFollowed(following, L) && sameGram(ring, mask, G, q, i)) {
            const r = runBack(ring, mask, size, G, i, L);
            follow(following, L);
            store<i32>(runs + (<usize>L << 2), r);
            followed++;
            if ((hit == 0 || L < hit) && r >= (L >= longChunk ? longNeed : need) * L && r + L >= minLength) {
              hit = L;
              hitRun = r;
            }
          }
          const back = wideLinks ? <i32>load<u16>(links + (<usize>(q & mask) << 1)) : <i32>load<u8>(links + <usize>(q & mask));
          q = back == 0 ? -1 : q - back;
        }
      }
    }
    // the sentence tracker, without branches on the character's class but one at a sentence end: a
    // pending space and the character are written to `shown` whether they count or not (past the
    // sentence's length, or into its spare last unit, they are never read)
    const bits = unitBits(ch);
    const add = (bits & ADDS) != 0;
    const space = add && pending;
    sHash = space ? (sHash ^ 0x20) * FNV_PRIME : sHash;
    store<u16>(base + CS_SHOWN + (<usize>min(sLen, <i32>SENTENCE_SHOWN) << 1), 0x20);
    sLen += <i32>space;
    const c = <u32>(ch - 0x41) < 26 ? ch + 32 : ch;
    store<u16>(base + CS_SHOWN + (<usize>min(sLen, <i32>SENTENCE_SHOWN) << 1), <u16>c);
    sStart = add && sLen == 0 ? i : sStart;
    sHash = add ? (sHash ^ c) * FNV_PRIME : sHash;
    sLen += <i32>add;
    words = words || (bits & WORD) != 0;
    pending = !add && (pending || sLen > 0); // a line feed ends the sentence: cleared below
    let said: u32 = 0;
    if ((bits & ENDS) != 0) {
      said = finishSentence(base, sHash, sLen, sStart, words, stored, piece, longChunk, reps);
      if (sLen > 0) stored++;
      sHash = FNV_OFFSET;
      sLen = 0;
      pending = false;
      words = false;
    }
    if (hit != 0 || said != 0) {
      if (hit != 0) {
        store<i32>(base + CO_PERIOD, hit);
        store<i32>(base + CO_AT, i);
      }
      break;
    }
  }
  store<i32>(base + CS_POS, pos);
  store<i32>(base + CS_GRAM, gram);
  store<i32>(base + CS_UNTIL, until);
  store<i32>(base + CS_HIT_RUN, hitRun);
  store<i32>(base + CS_FOLLOWED, followed);
  store<i32>(base + CS_S_HASH, sHash);
  store<i32>(base + CS_S_LENGTH, sLen);
  store<i32>(base + CS_S_START, sStart);
  store<u32>(base + CS_S_FLAGS, (pending ? 1 : 0) | (words ? 2 : 0));
  store<u64>(base + CS_S_STORED, stored);
  return k;
}

/** Whether period L is followed (its bit in the following words). */
// @ts-ignore: decorator
@inline function isFollowed(following: usize, L: i32): bool {
  return (load<u32>(following + (<usize>(L >>> 5) << 2)) & (<u32>1 << (<u32>L & 31))) != 0;
}

// @ts-ignore: decorator
@inline function follow(following: usize, L: i32): void {
  const at = following + (<usize>(L >>> 5) << 2);
  store<u32>(at, load<u32>(at) | (<u32>1 << (<u32>L & 31)));
}

// @ts-ignore: decorator
@inline function unfollow(following: usize, L: i32): void {
  const at = following + (<usize>(L >>> 5) << 2);
  store<u32>(at, load<u32>(at) & ~(<u32>1 << (<u32>L & 31)));
}

/** Whether the G units ending at q equal those ending at i. */
// @ts-ignore: decorator
@inline function sameGram(ring: usize, mask: i32, G: i32, q: i32, i: i32): bool {
  for (let k: i32 = 0; k < G; k++) {
    if (load<u16>(ring + (<usize>((q - k) & mask) << 1)) != load<u16>(ring + (<usize>((i - k) & mask) << 1))) return false;
  }
  return true;
}

/** The run of period L ending at i (at least G). */
function runBack(ring: usize, mask: i32, size: i32, G: i32, i: i32, L: i32): i32 {
  let r = G;
  while (i - r - L >= 0 && r + L < size && load<u16>(ring + (<usize>((i - r) & mask) << 1)) == load<u16>(ring + (<usize>((i - r - L) & mask) << 1))) r++;
  return r;
}

/**
 * A sentence ends (SentenceRepeats.finish): counts it among the last SENTENCE_WINDOW, stores it, and
 * returns how many times it was said when that makes it repeated (CO_SAID, CO_FIRST, CO_SHOWN written),
 * else 0. The caller clears the sentence and counts it stored.
 */
function finishSentence(base: usize, h: i32, n: i32, start: i32, words: bool, stored: u64, piece: f64, minChars: i32, reps: i32): u32 {
  const counted = words && n >= minChars;
  let said: u32 = 0;
  if (counted) {
    let count: i32 = 1;
    let first = start;
    let across = false;
    const kept = stored < <u64>SENTENCE_WINDOW ? <u32>stored : SENTENCE_WINDOW;
    for (let k: u32 = 0; k < kept; k++) {
      const slot = <usize>((stored - 1 - <u64>k) % <u64>SENTENCE_WINDOW);
      if (load<i32>(base + CS_HASHES + (slot << 2)) != h || load<i32>(base + CS_LENGTHS + (slot << 2)) != n) continue;
      count++;
      first = load<i32>(base + CS_STARTS + (slot << 2));
      if (load<f64>(base + CS_CHUNKS + (slot << 3)) != piece) across = true;
    }
    if (count >= reps + (across ? 1 : 0)) {
      said = <u32>count;
      store<u32>(base + CO_SAID, said);
      store<i32>(base + CO_FIRST, first);
      store<u32>(base + CO_SHOWN, <u32>min(n, <i32>SENTENCE_SHOWN));
    }
  }
  if (n > 0) {
    const slot = <usize>(stored % <u64>SENTENCE_WINDOW);
    store<i32>(base + CS_HASHES + (slot << 2), counted ? h : 0);
    store<i32>(base + CS_LENGTHS + (slot << 2), counted ? n : -1);
    store<i32>(base + CS_STARTS + (slot << 2), start);
    store<f64>(base + CS_CHUNKS + (slot << 3), piece);
  }
  return said;
}

/**
 * Moves region `s`'s positions back by a multiple of the ring size once they pass three ring sizes
 * (PeriodSearch.rebase, then SentenceRepeats.rebase); returns the shift (0: none, or not a chanting region).
 */
export function chantRebase(s: u32): i32 {
  const cfg = chantConfig(s);
  if (cfg == 0) return 0;
  const base = <usize>s;
  const size = load<i32>(cfg + CH_SIZE);
  const pos = load<i32>(base + CS_POS);
  if (<i64>pos < 3 * <i64>size) return 0;
  const shift = ((pos - 2 * size) / size) * size;
  // links are distances: they stay; heads are positions' low 16 bits, moved back with them (a stale one
  // stays stale: what it reads back as is harmless, see the header)
  const heads = base + load<u32>(cfg + CH_OFF_HEADS);
  for (let k: u32 = 0; k < BUCKETS; k++) {
    const at = heads + (<usize>k << 1);
    store<u16>(at, <u16>(<i32>load<u16>(at) - shift));
  }
  store<i32>(base + CS_POS, pos - shift);
  for (let k: u32 = 0; k < SENTENCE_WINDOW; k++) {
    const at = base + CS_STARTS + (<usize>k << 2);
    store<i32>(at, max(load<i32>(at) - shift, START_FLOOR));
  }
  store<i32>(base + CS_S_START, max(load<i32>(base + CS_S_START) - shift, START_FLOOR));
  return shift;
}

/**
 * Whether region `s`'s state is one a stream can be in (after a snapshot is loaded into it): 0 when it is,
 * else a code (1 not a chanting region, 2 scalars out of range, 3 a followed period out of range or twice).
 */
export function chantCheck(s: u32): u32 {
  const cfg = chantConfig(s);
  if (cfg == 0) return 1;
  const base = <usize>s;
  const maxP = load<i32>(cfg + CH_MAXP);
  const until = load<i32>(base + CS_UNTIL);
  const followed = load<i32>(base + CS_FOLLOWED);
  if (load<i32>(base + CS_POS) < 0 || until < 1 || until > load<i32>(cfg + CH_STRIDE) || followed < 0 || followed > maxP || load<i32>(base + CS_S_LENGTH) < 0) return 2;
  const following = base + load<u32>(cfg + CH_OFF_FOLLOW);
  const words = (maxP >>> 5) + 1;
  // bits 1..maxP only, as many as the periods followed
  let flagged: i32 = 0;
  for (let k: i32 = 0; k < words; k++) {
    const v = load<u32>(following + (<usize>k << 2));
    const beyond = k == words - 1 ? ~(<u32>0xffffffff >>> (31 - (<u32>maxP & 31))) : 0;
    if ((k == 0 && (v & 1) != 0) || (v & beyond) != 0) return 3;
    flagged += <i32>popcnt<u32>(v);
  }
  return flagged != followed ? 3 : 0;
}
