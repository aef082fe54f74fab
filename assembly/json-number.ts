// A JSON number read from its text by Clinger's fast path (one correctly rounded multiplication or division
// of exact doubles): exact for at most 15 significant digits and a decimal exponent within [-22, 22]. Shared
// by the args hash (json.ts) and similar args' summary (args-summary.ts), each deciding what a number outside
// the fast path becomes.

/** {@link readNumber}'s answers: a number on the fast path, text that is not a JSON number, a number outside the path. */
export const NUM_OK: u32 = 0;
export const NUM_BAD: u32 = 1;
export const NUM_FAR: u32 = 2;

const POW10: StaticArray<f64> = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
  1e20, 1e21, 1e22,
];

/** Where the number read last ends (the whole number, on the fast path or not; not set for NUM_BAD). */
export let numEnd: usize = 0;
/** Whether the number read last has a minus sign. */
export let numNeg = false;
/** Whether every significand digit of the number read last is 0 (its magnitude is then 0). */
export let numZero = false;
/** The magnitude of the number read last (NUM_OK only). */
export let numMagnitude: f64 = 0;

let mant: u64 = 0;
let digits: i32 = 0;
let pending: i32 = 0;
let started = false;
let tooMany = false;

// @ts-ignore: decorator
@inline function isDigit(b: u32): bool {
  return b - 0x30 < 10;
}

// @ts-ignore: decorator
@inline function push(d: u64): void {
  if (digits >= 15) tooMany = true;
  else mant = mant * 10 + d;
  digits++;
}

/** One significand digit: zeros after the first non-zero digit wait until a non-zero digit follows. */
function digit(d: u32): void {
  if (d == 0) {
    if (started) pending++;
    return;
  }
  for (; pending > 0; pending--) push(0);
  push(<u64>d);
  started = true;
}

/** Reads the JSON number at `p` (text up to `e`): NUM_OK, NUM_BAD or NUM_FAR; see the exported fields. */
export function readNumber(p: usize, e: usize): u32 {
  numNeg = false;
  if (<u32>load<u8>(p) == 0x2d) {
    numNeg = true;
    p++;
  }
  if (p >= e || !isDigit(<u32>load<u8>(p))) return NUM_BAD;
  mant = 0;
  digits = 0;
  pending = 0;
  started = false;
  tooMany = false;
  let exp10: i32 = 0;
  if (<u32>load<u8>(p) == 0x30) {
    p++;
    if (p < e && isDigit(<u32>load<u8>(p))) return NUM_BAD;
  } else {
    while (p < e && isDigit(<u32>load<u8>(p))) {
      digit(<u32>load<u8>(p) - 0x30);
      p++;
    }
  }
  if (p < e && <u32>load<u8>(p) == 0x2e) {
    p++;
    if (p >= e || !isDigit(<u32>load<u8>(p))) return NUM_BAD;
    while (p < e && isDigit(<u32>load<u8>(p))) {
      digit(<u32>load<u8>(p) - 0x30);
      exp10--;
      p++;
    }
  }
  exp10 += pending; // trailing zeros of the significand
  if (p < e && (<u32>load<u8>(p) | 0x20) == 0x65) {
    p++;
    let eneg = false;
    if (p < e && (<u32>load<u8>(p) == 0x2b || <u32>load<u8>(p) == 0x2d)) {
      eneg = <u32>load<u8>(p) == 0x2d;
      p++;
    }
    if (p >= e || !isDigit(<u32>load<u8>(p))) return NUM_BAD;
    let x: i32 = 0;
    while (p < e && isDigit(<u32>load<u8>(p))) {
      if (x < 100000) x = x * 10 + <i32>(<u32>load<u8>(p) - 0x30);
      p++;
    }
    exp10 += eneg ? -x : x;
  }
  numEnd = p;
  numZero = !started;
  numMagnitude = 0;
  if (!started) return NUM_OK;
  if (tooMany || exp10 > 22 || exp10 < -22) return NUM_FAR;
  let v = <f64>mant;
  if (exp10 > 0) v *= unchecked(POW10[exp10]);
  else if (exp10 < 0) v /= unchecked(POW10[-exp10]);
  numMagnitude = v;
  return NUM_OK;
}
