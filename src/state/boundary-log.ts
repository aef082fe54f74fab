/**
 * Chanting's text-to-call boundaries (detectors/chanting.ts) as a log of varint deltas in a block of signed
 * words: a boundary is a stream position and the call its text came from, both int32, and the newest
 * `max` are kept. Positions and calls rarely move by much from one boundary to the next, so each is kept
 * as its difference from the boundary before (about 2 bytes a boundary on real calls, against 8 in two
 * arrays of words: 1,024 B a session of 100 real calls became ~300 B).
 *
 * ```
 *   words from base:  head | tail | count | oldest pos | oldest call | newest pos | newest call | bytes ...
 *   bytes [head, tail):  one entry per boundary after the oldest:  v = zz(dpos) * 4 + c  [zz(dcall) if c = 3]
 *                        (varints, 7 bits a byte, low first; c = dcall when dcall is 0, 1 or 2)
 * ```
 *
 * zz is the zigzag map (0, -1, 1, -2 ... to 0, 1, 2, 3 ...), so any int32 difference reads back exactly.
 * The oldest boundary is dropped by reading its successor's delta into the oldest fields; the bytes are
 * moved back to the area's start only when an append would pass its end.
 */

/** Words before the bytes. */
export const LOG_HEADER = 7;
/** Bytes an entry takes at most (two varints of 5 bytes). */
export const ENTRY_MAX = 10;
/** Words of a log's first block. */
export const FIRST_LOG_WORDS = 16;

const HEAD = 0;
const TAIL = 1;
const COUNT = 2;
const OLD_POS = 3;
const OLD_CALL = 4;
const NEW_POS = 5;
const NEW_CALL = 6;

/** The newest boundary's position (the log holds one). */
export function newestPos(words: Int32Array, base: number): number {
  return words[base + NEW_POS] as number;
}

/** Bytes free for appends in a log of `size` words, once its bytes are moved to the area's start. */
export function logRoom(words: Int32Array, base: number, size: number): number {
  return (size - LOG_HEADER) * 4 - ((words[base + TAIL] as number) - (words[base + HEAD] as number));
}

/** Words a log holding the bytes of the log at `base` and `extra` bytes more takes. */
export function wordsFor(words: Int32Array, base: number, extra: number): number {
  return LOG_HEADER + Math.ceil(((words[base + TAIL] as number) - (words[base + HEAD] as number) + extra) / 4);
}

function byteAt(words: Int32Array, base: number, i: number): number {
  return ((words[base + LOG_HEADER + (i >> 2)] as number) >>> ((i & 3) << 3)) & 255;
}

function setByte(words: Int32Array, base: number, i: number, b: number): void {
  const k = base + LOG_HEADER + (i >> 2);
  const sh = (i & 3) << 3;
  words[k] = ((words[k] as number) & ~(255 << sh)) | (b << sh);
}

/** Writes varint `v` (0 <= v < 2^53) at byte `i`; returns the byte after it. */
function putVarint(words: Int32Array, base: number, i: number, v: number): number {
  while (v >= 128) {
    setByte(words, base, i++, (v % 128) | 128);
    v = Math.floor(v / 128);
  }
  setByte(words, base, i++, v);
  return i;
}

/** Zigzag: a signed difference as a count from 0. */
function zz(d: number): number {
  return d >= 0 ? 2 * d : -2 * d - 1;
}

function unzz(z: number): number {
  return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
}

/** The reader's place and what it read last (one object a module: reads are rare, on signals and snapshots). */
const read = { at: 0, v: 0 };

function getVarint(words: Int32Array, base: number, i: number): void {
  let v = 0;
  let scale = 1;
  for (;;) {
    const b = byteAt(words, base, i++);
    v += (b & 127) * scale;
    if (b < 128) break;
    scale *= 128;
  }
  read.at = i;
  read.v = v;
}

/** The differences the entry read last holds. */
const delta = { pos: 0, call: 0 };

/** Reads the entry at byte `i` as the differences it holds: into `delta`, returning the byte after it. */
function readEntry(words: Int32Array, base: number, i: number): number {
  getVarint(words, base, i);
  const v = read.v;
  const c = v % 4;
  delta.pos = unzz((v - c) / 4);
  if (c === 3) {
    getVarint(words, base, read.at);
    delta.call = unzz(read.v);
  } else delta.call = c;
  return read.at;
}

/** Empties the log at `base` (its block zeroed or not). */
export function logClear(words: Int32Array, base: number): void {
  words.fill(0, base, base + LOG_HEADER);
}

/**
 * Appends boundary (pos, call) (int32 both, as Int32Array stores them), dropping the oldest first when the
 * log holds `max`. The log must have room for an entry (`logRoom` >= ENTRY_MAX).
 */
export function logAppend(words: Int32Array, base: number, size: number, pos: number, call: number, max: number): void {
  pos |= 0;
  call |= 0;
  let count = words[base + COUNT] as number;
  if (count === 0) {
    words[base + HEAD] = 0;
    words[base + TAIL] = 0;
    words[base + OLD_POS] = pos;
    words[base + OLD_CALL] = call;
    words[base + NEW_POS] = pos;
    words[base + NEW_CALL] = call;
    words[base + COUNT] = 1;
    return;
  }
  if (count >= max) {
    if (count === 1) {
      words[base + COUNT] = 0;
      logAppend(words, base, size, pos, call, max);
      return;
    }
    // the second oldest becomes the oldest
    const next = readEntry(words, base, words[base + HEAD] as number);
    words[base + OLD_POS] = ((words[base + OLD_POS] as number) + delta.pos) | 0;
    words[base + OLD_CALL] = ((words[base + OLD_CALL] as number) + delta.call) | 0;
    words[base + HEAD] = next;
    count--;
  }
  let head = words[base + HEAD] as number;
  let tail = words[base + TAIL] as number;
  if (tail + ENTRY_MAX > (size - LOG_HEADER) * 4 && head > 0) {
    for (let i = head; i < tail; i++) setByte(words, base, i - head, byteAt(words, base, i));
    tail -= head;
    head = 0;
    words[base + HEAD] = 0;
  }
  const dpos = pos - (words[base + NEW_POS] as number);
  const dcall = call - (words[base + NEW_CALL] as number);
  if (dcall >= 0 && dcall <= 2) tail = putVarint(words, base, tail, zz(dpos) * 4 + dcall);
  else tail = putVarint(words, base, putVarint(words, base, tail, zz(dpos) * 4 + 3), zz(dcall));
  words[base + TAIL] = tail;
  words[base + NEW_POS] = pos;
  words[base + NEW_CALL] = call;
  words[base + COUNT] = count + 1;
}

/** Copies the log at `from` into the block `to` (at least `wordsFor(from, 0)` words), its bytes from the area's start. */
export function logCopy(from: Int32Array, fb: number, to: Int32Array, tb: number): void {
  const head = from[fb + HEAD] as number;
  const tail = from[fb + TAIL] as number;
  to.set(from.subarray(fb, fb + LOG_HEADER), tb);
  for (let i = head; i < tail; i++) setByte(to, tb, i - head, byteAt(from, fb, i));
  to[tb + HEAD] = 0;
  to[tb + TAIL] = tail - head;
}

/** The log's boundaries, oldest first: `pos[j]`, `call[j]` for j < count (arrays of at least count entries). */
export function logRead(words: Int32Array, base: number, pos: Int32Array, call: Int32Array): number {
  const count = words[base + COUNT] as number;
  if (count === 0) return 0;
  let p = words[base + OLD_POS] as number;
  let c = words[base + OLD_CALL] as number;
  pos[0] = p;
  call[0] = c;
  let i = words[base + HEAD] as number;
  for (let j = 1; j < count; j++) {
    i = readEntry(words, base, i);
    p = (p + delta.pos) | 0;
    c = (c + delta.call) | 0;
    pos[j] = p;
    call[j] = c;
  }
  return count;
}
