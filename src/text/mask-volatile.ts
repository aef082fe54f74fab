/**
 * Masks the parts of a text that vary between otherwise identical messages, over UTF-8 bytes, so the
 * WebAssembly build reproduces it byte for byte (`assembly/mask.ts`). Two errors with the same masked text
 * are the same *class* of error; two results with the same masked text are near-identical.
 *
 * Rules, applied left to right to the first `limit` bytes:
 * - runs of white space (space, tab, CR, LF, VT, FF) become one space; leading and trailing ones go;
 * - a quoted part (`"…"`, `'…'` or backticks, at most 200 bytes, no line break) becomes `<q>`;
 * - a word (a run of bytes that are not white space, quotes or `( ) [ ] { } , ; < > =`) labelled an id, right
 *   after the word `ID:` (any case) and white space, becomes `<id>` whatever it holds (`Chunk ID: f800eb`,
 *   the header Codex puts on a running command's output, reads `Chunk ID: <id>`);
 * - a word holding `/` or `\` is a path or URL and becomes `<path>`;
 * - inside other words, each run of ASCII letters, digits and `_` that holds a digit becomes `<id>` when it
 *   is 7 or more hex digits, else has each run of digits replaced by `<n>` (`line42` → `line<n>`,
 *   `10:01:22` → `<n>:<n>:<n>`, `9f86d081` → `<id>`);
 * - everything else is kept as it is.
 */
import { encodeUtf8, utf8Scratch } from '../fingerprint/canonical-hash.js';

/** Bytes of an error or result masked at most; the rest is ignored. */
export const MASK_LIMIT = 2048;
/** Longest quoted part masked, in bytes. */
export const MASK_QUOTE_MAX = 200;

const Q = [0x3c, 0x71, 0x3e]; // <q>
const PATH = [0x3c, 0x70, 0x61, 0x74, 0x68, 0x3e]; // <path>
const ID = [0x3c, 0x69, 0x64, 0x3e]; // <id>
const N = [0x3c, 0x6e, 0x3e]; // <n>

/** Byte classes: 1 space, 2 quote, 3 delimiter, 0 word byte. */
const CLASS = new Uint8Array(256);
for (const b of [0x20, 0x09, 0x0a, 0x0d, 0x0b, 0x0c]) CLASS[b] = 1;
for (const b of [0x22, 0x27, 0x60]) CLASS[b] = 2;
for (const c of '()[]{},;<>=') CLASS[c.charCodeAt(0)] = 3;

function isAlnum(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f;
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

function isHex(b: number): boolean {
  return isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

/** Whether `src[i, j)` is the word `ID:` (any case), the label of an id. */
function isIdLabel(src: Uint8Array, i: number, j: number): boolean {
  return j - i === 3 && ((src[i] as number) | 0x20) === 0x69 && ((src[i + 1] as number) | 0x20) === 0x64 && src[i + 2] === 0x3a;
}

let out = new Uint8Array(MASK_LIMIT * 6 + 8);

/**
 * Masks `src[0, min(len, limit))` and returns the masked bytes (a view of a shared buffer, valid until the
 * next call). With `stopPast`, stops as soon as more than `stopPast` bytes are written (the masked text
 * only grows as it is written): for a caller that only needs to know whether it is longer than that.
 */
export function maskBytes(src: Uint8Array, len: number, limit: number = MASK_LIMIT, stopPast = Infinity): Uint8Array {
  const n = len < limit ? len : limit;
  // masked output is at most six times the input (a lone "/" becomes "<path>")
  if (out.length < n * 6 + 8) out = new Uint8Array(n * 6 + 8);
  let o = 0;
  let space = false;
  const emit = (bytes: readonly number[]): void => {
    for (const b of bytes) out[o++] = b;
  };
  let i = 0;
  while (i < n && o <= stopPast) {
    const b = src[i] as number;
    const cls = CLASS[b] as number;
    if (cls === 1) {
      space = o > 0;
      i++;
      continue;
    }
    if (space) {
      out[o++] = 0x20;
      space = false;
    }
    if (cls === 2) {
      let j = i + 1;
      while (j < n && j - i - 1 <= MASK_QUOTE_MAX && src[j] !== b && src[j] !== 0x0a) j++;
      if (j < n && src[j] === b && j - i - 1 <= MASK_QUOTE_MAX) {
        emit(Q);
        i = j + 1;
      } else {
        out[o++] = b;
        i++;
      }
      continue;
    }
    if (cls === 3) {
      out[o++] = b;
      i++;
      continue;
    }
    let j = i;
    let slash = false;
    while (j < n && CLASS[src[j] as number] === 0) {
      const c = src[j] as number;
      if (c === 0x2f || c === 0x5c) slash = true;
      j++;
    }
    if (isIdLabel(src, i, j)) {
      for (let x = i; x < j; x++) out[o++] = src[x] as number;
      let w = j;
      while (w < n && CLASS[src[w] as number] === 1) w++;
      if (w > j && w < n && CLASS[src[w] as number] === 0) {
        // the labelled word, masked whole
        let t = w;
        while (t < n && CLASS[src[t] as number] === 0) t++;
        out[o++] = 0x20;
        emit(ID);
        j = t;
      }
      i = j;
      continue;
    }
    if (slash) {
      emit(PATH);
      i = j;
      continue;
    }
    let k = i;
    while (k < j) {
      const c = src[k] as number;
      if (!isAlnum(c)) {
        out[o++] = c;
        k++;
        continue;
      }
      let m = k;
      let digit = false;
      let hex = true;
      while (m < j && isAlnum(src[m] as number)) {
        const d = src[m] as number;
        if (isDigit(d)) digit = true;
        if (!isHex(d)) hex = false;
        m++;
      }
      if (!digit) {
        for (let x = k; x < m; x++) out[o++] = src[x] as number;
      } else if (hex && m - k >= 7) {
        emit(ID);
      } else {
        let x = k;
        while (x < m) {
          if (isDigit(src[x] as number)) {
            while (x < m && isDigit(src[x] as number)) x++;
            emit(N);
          } else {
            out[o++] = src[x++] as number;
          }
        }
      }
      k = m;
    }
    i = j;
  }
  return out.subarray(0, o);
}

// ignoreBOM: a text that begins with U+FEFF keeps it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Masks a string (see the module comment) and returns the masked text. */
export function maskVolatile(text: string, limit: number = MASK_LIMIT): string {
  const n = encodeUtf8(text);
  return decoder.decode(maskBytes(utf8Scratch(), n, limit));
}
