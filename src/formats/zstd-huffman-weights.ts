/**
 * The Huffman weights of a compressed block's literals, walked before a decoder sees them (RFC 8878,
 * 4.2.1.2): when a literals section carries its own Huffman tree whose weights are FSE-compressed, the
 * weights' bitstream is decoded here as a decoder would, up to the 255 weights a tree may have, and the block
 * refused when it would give more. fzstd 0.1.1 (the decoder used below Node.js 22.15) decodes these weights in
 * a loop that ends only when the bitstream is spent: a corrupt table whose states read no bits, or whose
 * states leave the table, never spends it, and a 186-byte entry held `loopwatch scan` forever. What is walked
 * here is exactly what that loop reads (the frame's bytes, nothing past its end, bits read backward from the
 * stream's last byte), so a block passed here is one whose weights fzstd decodes in at most 255 steps; a
 * valid block passes on every decoder (RFC: at most 255 weights).
 */
/** The most weights a Huffman tree description may give (RFC 8878: the last weight is implied). */
const MAX_WEIGHTS = 255;
/** The FSE table of Huffman weights has at most 2^6 states. */
const MAX_WEIGHTS_LOG = 6;


/** A decoding table of FSE: per state, its symbol, the bits it reads and the state those bits add to. */
interface FseTable {
  readonly log: number;
  readonly symbol: Uint8Array;
  readonly bits: Uint8Array;
  readonly base: Uint16Array;
}

/** The byte of `b` at `at`, 0 past its end (what a typed array gives a decoder reading past it). */
function byteAt(b: Uint8Array, at: number): number {
  return at < b.length ? b[at]! : 0;
}

/** The index of the highest set bit of `v` (> 0). */
function highBit(v: number): number {
  return 31 - Math.clz32(v);
}

/** `n` bits of `b` starting at bit `pos` (counted from the first byte's lowest bit; `n` <= 16). */
function bitsAt(b: Uint8Array, pos: number, n: number): number {
  const at = pos >>> 3;
  const word = byteAt(b, at) | (byteAt(b, at + 1) << 8) | (byteAt(b, at + 2) << 16);
  return (word >>> (pos & 7)) & ((1 << n) - 1);
}

/**
 * The FSE table described at byte `at` of `b` (RFC 8878, 4.1.1), accuracy at most 2^`maxLog`, and the byte
 * where its description ends; null when the description is not a whole table.
 */
function readFseTable(b: Uint8Array, at: number, maxLog: number): { table: FseTable; end: number } | null {
  const log = (byteAt(b, at) & 15) + 5;
  if (log > maxLog) return null;
  const size = 1 << log;
  const counts: number[] = [];
  let pos = at * 8 + 4;
  let left = size;
  while (left > 0 && counts.length < 256) {
    // a value of up to `left + 1`, in `width` or `width + 1` bits: the smaller values take the shorter form
    const width = highBit(left + 1);
    const wide = bitsAt(b, pos, width + 1);
    const short = wide & ((1 << width) - 1);
    const shortMax = (1 << (width + 1)) - 1 - left - 1;
    let value: number;
    if (short < shortMax) {
      pos += width;
      value = short;
    } else {
      pos += width + 1;
      value = wide > (1 << width) - 1 ? wide - shortMax : wide;
    }
    const count = value - 1;
    counts.push(count);
    left -= count === -1 ? 1 : count;
    if (count === 0) {
      // two-bit repeat flags: that many more symbols of count 0, going on while a flag is 3
      for (let repeat = 3; repeat === 3;) {
        repeat = bitsAt(b, pos, 2);
        pos += 2;
        for (let i = 0; i < repeat; i++) counts.push(0);
      }
    }
  }
  if (left !== 0 || counts.length > 256) return null;
  const table = spreadTable(counts, log);
  return table === null ? null : { table, end: (pos + 7) >>> 3 };
}

/**
 * The decoding table of `counts` (-1: a "less than one" symbol, kept at the table's top), 2^`log` states;
 * null when the counts do not spread over the table whole.
 */
function spreadTable(counts: readonly number[], log: number): FseTable | null {
  const size = 1 << log;
  const symbol = new Uint8Array(size);
  const next = new Uint16Array(counts.length);
  let high = size;
  counts.forEach((c, s) => {
    if (c === -1) {
      symbol[--high] = s;
      next[s] = 1;
    } else next[s] = c;
  });
  const step = (size >>> 1) + (size >>> 3) + 3;
  let place = 0;
  counts.forEach((c, s) => {
    for (let i = 0; i < c; i++) {
      symbol[place] = s;
      do place = (place + step) & (size - 1); while (place >= high);
    }
  });
  if (place !== 0) return null;
  const bits = new Uint8Array(size);
  const base = new Uint16Array(size);
  for (let state = 0; state < size; state++) {
    const n = next[symbol[state]!]!++;
    bits[state] = log - highBit(n);
    base[state] = (n << bits[state]!) - size;
  }
  return { log, symbol, bits, base };
}

/**
 * Whether the FSE-compressed Huffman weights whose tree description's header byte is at `at` of `b` (the
 * frame's bytes) decode: decoded with the two interleaved states of RFC 8878 4.2.1.2, reading backward from
 * the stream's last byte to where its table's description ends, they must be at most 255 (a table whose
 * states read no bits never ends).
 */
function fseWeightsDecode(b: Uint8Array, at: number): boolean {
  const read = readFseTable(b, at + 1, MAX_WEIGHTS_LOG);
  if (read === null) return false;
  const { table, end } = read;
  const last = at + byteAt(b, at);
  const lastByte = byteAt(b, last);
  if (lastByte === 0) return false;
  const stop = end * 8;
  let pos = last * 8 + highBit(lastByte);
  let state1 = 0;
  let state2 = 0;
  let bits1 = table.log;
  let bits2 = table.log;
  for (let weights = 0; ; weights += 2) {
    if (weights >= MAX_WEIGHTS) return false;
    pos -= bits1;
    if (pos < stop) return true;
    state1 += bitsAt(b, pos, bits1);
    pos -= bits2;
    if (pos < stop) return true;
    state2 += bitsAt(b, pos, bits2);
    if (state1 >= table.symbol.length || state2 >= table.symbol.length) return false;
    bits1 = table.bits[state1]!;
    state1 = table.base[state1]!;
    bits2 = table.bits[state2]!;
    state2 = table.base[state2]!;
  }
}

/**
 * Whether the literals section of the compressed block whose content starts at `at` of `b` (the frame's
 * bytes, ending where the frame ends) has a Huffman tree a decoder can read: true when it carries none of
 * its own or its weights are not FSE-compressed, else whether they decode to at most 255 weights (see the
 * file's comment).
 */
export function literalsTreeDecodes(b: Uint8Array, at: number): boolean {
  const head = byteAt(b, at);
  if ((head & 3) !== 2) return true; // raw, RLE or treeless literals: no tree of their own
  const treeAt = at + [3, 3, 4, 5][(head >>> 2) & 3]!;
  return byteAt(b, treeAt) >= 128 || fseWeightsDecode(b, treeAt);
}
