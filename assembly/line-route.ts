// Where a pool routes an events-format line, without reading the line: when the line opens with
// `{"session":"` and a plain session name (1-256 printable ASCII bytes, no quote, no backslash), and no other
// member can be named "session" (its bytes after the name hold neither `"session"` nor `\u`, the only
// escape that could spell the key another way), the name is the session every reader gives the record,
// whatever else the line holds. Any other line answers 0 and is read whole by the host.
//
// The TypeScript twin, which defines the answer, is `routeSessionEnd` in src/formats/line-route.ts.
//
// Nothing here touches session state.

import { ROUTE_PREFIX_BYTES, ROUTE_SESSION_MAX } from './abi';

/** `{"session":"` as the bytes of one u64 (`{"sessio`) and one u32 (`n":"`), little-endian. */
const PREFIX_LO: u64 = 0x6f6973736573227b;
const PREFIX_HI: u32 = 0x223a226e;
/** `session"` as one little-endian u64: what follows a quote that opens a key named "session". */
const KEY_TAIL: u64 = 0x226e6f6973736573;

/**
 * The offset of the quote that closes the session name of the line at `ptr` (`len` bytes; up to 18 bytes
 * after it may be read, never counted), or 0 when the line is not routed by its first bytes (see above).
 */
export function routeSessionEnd(ptr: usize, len: u32): u32 {
  if (len < ROUTE_PREFIX_BYTES + 2) return 0;
  if (load<u64>(ptr) != PREFIX_LO || load<u32>(ptr + 8) != PREFIX_HI) return 0;
  // the name: printable ASCII, no quote, no backslash
  let end: u32 = ROUTE_PREFIX_BYTES;
  const limit: u32 = min<u32>(len, ROUTE_PREFIX_BYTES + ROUTE_SESSION_MAX + 1);
  while (end < limit) {
    const c = <u32>load<u8>(ptr + end);
    if (c == 0x22) break;
    if (c - 0x20 > 0x5e || c == 0x5c) return 0;
    end++;
  }
  if (end == ROUTE_PREFIX_BYTES || end >= limit) return 0;
  // after the name: no `"session"`, no `\u`, sixteen bytes at a time: a lane is a candidate when its byte
  // and the next make `\u`, or its byte and the next two make `"se`; candidates are then read whole
  let i: u32 = end + 1;
  const quote = i8x16.splat(0x22);
  const slash = i8x16.splat(0x5c);
  const u = i8x16.splat(0x75);
  const s = i8x16.splat(0x73);
  const e = i8x16.splat(0x65);
  while (i < len) {
    const p = ptr + i;
    const v1 = v128.load(p + 1);
    const esc = v128.and(i8x16.eq(v128.load(p), slash), i8x16.eq(v1, u));
    const key = v128.and(v128.and(i8x16.eq(v128.load(p), quote), i8x16.eq(v1, s)), i8x16.eq(v128.load(p + 2), e));
    let hits = <u32>i8x16.bitmask(v128.or(esc, key));
    const left = len - i;
    if (left < 16) hits &= (<u32>1 << left) - 1;
    while (hits != 0) {
      const at = i + ctz<u32>(hits);
      hits &= hits - 1;
      if (load<u8>(ptr + at) == 0x5c) {
        if (at + 1 < len) return 0;
      } else if (at + 9 <= len && load<u64>(ptr + at + 1) == KEY_TAIL) return 0;
    }
    i += 16;
  }
  return end;
}
