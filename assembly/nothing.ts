// "Nothing found" results: the twin of src/text/nothing-found.ts (phrases and values must match it).
import { NOTHING_LOOK } from './abi';

const PHRASES: StaticArray<string> = [
  'no result', '0 result', 'zero result', 'no match', '0 match', 'not found', 'nothing found', 'could not find',
  "couldn't find", 'no such', 'does not exist', "doesn't exist", 'no items', 'no records', 'no rows',
  'no entries', 'no files', 'no documents', 'no hits', 'no flights', 'nothing to show', '0 items',
  '0 records', '0 rows', '0 hits', 'returned nothing', 'found nothing',
];
const VALUES: StaticArray<string> = ['[]', '{}', 'null', 'none', 'empty', '(empty)', '""', "''"];

// @ts-ignore: decorator
@inline function isSpace(b: u32): bool {
  return b == 0x20 || (b >= 0x09 && b <= 0x0d);
}

// @ts-ignore: decorator
@inline function lower(b: u32): u32 {
  return b >= 0x41 && b <= 0x5a ? b + 32 : b;
}

/** Whether `s` (ASCII) equals low-cased bytes [p, p + s.length). */
function matchesAt(p: usize, s: string): bool {
  const n = s.length;
  for (let k = 0; k < n; k++) {
    if (lower(<u32>load<u8>(p + <usize>k)) != <u32>s.charCodeAt(k)) return false;
  }
  return true;
}

/** Whether UTF-8 text [ptr, ptr + len) says that nothing was found. */
export function saysNothingFound(ptr: usize, len: u32): bool {
  const n: u32 = len < NOTHING_LOOK ? len : NOTHING_LOOK;
  let s: u32 = 0;
  let e: u32 = len;
  while (s < e && isSpace(<u32>load<u8>(ptr + s))) s++;
  while (e > s && isSpace(<u32>load<u8>(ptr + e - 1))) e--;
  if (e - s <= 8 && e <= n) {
    for (let v = 0; v < VALUES.length; v++) {
      const val = unchecked(VALUES[v]);
      if (<u32>val.length == e - s && matchesAt(ptr + s, val)) return true;
    }
  }
  for (let q = 0; q < PHRASES.length; q++) {
    const ph = unchecked(PHRASES[q]);
    const m = <u32>ph.length;
    if (m > n) continue;
    const first = <u32>ph.charCodeAt(0);
    for (let i: u32 = 0; i <= n - m; i++) {
      if (lower(<u32>load<u8>(ptr + i)) != first) continue;
      if (matchesAt(ptr + i, ph)) return true;
    }
  }
  return false;
}
