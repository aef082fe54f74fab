// Where a pool routes an events-format line, without reading the line: when the line opens with
// `{"session":"` (JSON whitespace allowed between the tokens, as Python's json.dumps writes) and a plain
// session name (1-256 printable ASCII bytes, no quote, no backslash), and no other
// member can be named "session" (its bytes after the name hold neither `"session"` nor `\u`, the only
// escape that could spell the key another way), the name is the session every reader gives the record,
// whatever else the line holds. Any other line answers 0 and is read whole by the host.
//
// The TypeScript twin, which defines the answer, is `routeSession` in src/formats/line-route.ts.
//
// Nothing here touches session state.

import { ROUTE_OPENING_MAX, ROUTE_SESSION_MAX } from './abi';

/** `session"` as one little-endian u64: what follows a quote that opens a key named "session". */
const KEY_TAIL: u64 = 0x226e6f6973736573;
// `trajecto` and `ry"` of `"trajectory"`: a line naming it is not routed (a SWE-agent record, detect-format.ts)
const TRAJ_HEAD: u64 = 0x6f7463656a617274;
const TRAJ_TAIL: u16 = 0x7972;

// @ts-ignore: decorator
@inline function isWs(b: u32): bool {
  return b == 0x20 || b == 0x09 || b == 0x0a || b == 0x0d;
}

/**
 * Where the session name of the line at `ptr` (`len` bytes; up to 18 bytes after it may be read, never
 * counted) is: its first byte's offset, plus its length times 256; 0 when the line is not routed by its
 * first bytes (see above).
 */
export function routeSession(ptr: usize, len: u32): u32 {
  // the opening: `{`, `"session"`, `:` and the name's quote, JSON whitespace between them, in the first bytes
  const lim: u32 = min<u32>(len, ROUTE_OPENING_MAX);
  if (lim == 0 || load<u8>(ptr) != 0x7b) return 0;
  let p: u32 = 1;
  while (p < lim && isWs(<u32>load<u8>(ptr + p))) p++;
  if (p + 9 > lim || load<u8>(ptr + p) != 0x22 || load<u64>(ptr + p + 1) != KEY_TAIL) return 0;
  p += 9;
  while (p < lim && isWs(<u32>load<u8>(ptr + p))) p++;
  if (p >= lim || load<u8>(ptr + p) != 0x3a) return 0;
  p++;
  while (p < lim && isWs(<u32>load<u8>(ptr + p))) p++;
  if (p >= lim || load<u8>(ptr + p) != 0x22) return 0;
  const start = p + 1;
  // the name: printable ASCII, no quote, no backslash
  let end: u32 = start;
  const nameLimit: u32 = min<u32>(len, start + ROUTE_SESSION_MAX + 1);
  while (end < nameLimit) {
    const c = <u32>load<u8>(ptr + end);
    if (c == 0x22) break;
    if (c - 0x20 > 0x5e || c == 0x5c) return 0;
    end++;
  }
  if (end == start || end >= nameLimit) return 0;
  // after the name: no `"session"`, no `"trajectory"`, no `\u`, sixteen bytes at a time: a lane is a
  // candidate when its byte and the next make `\u`, or its byte and the next two make `"se` or `"tr`;
  // candidates are then read whole
  let i: u32 = end + 1;
  const quote = i8x16.splat(0x22);
  const slash = i8x16.splat(0x5c);
  const u = i8x16.splat(0x75);
  const s = i8x16.splat(0x73);
  const e = i8x16.splat(0x65);
  const t = i8x16.splat(0x74);
  const r = i8x16.splat(0x72);
  while (i < len) {
    const q = ptr + i;
    const v1 = v128.load(q + 1);
    const esc = v128.and(i8x16.eq(v128.load(q), slash), i8x16.eq(v1, u));
    const v0 = v128.load(q);
    const v2 = v128.load(q + 2);
    const q0 = i8x16.eq(v0, quote);
    const key = v128.and(v128.and(q0, i8x16.eq(v1, s)), i8x16.eq(v2, e));
    const traj = v128.and(v128.and(q0, i8x16.eq(v1, t)), i8x16.eq(v2, r));
    let hits = <u32>i8x16.bitmask(v128.or(esc, v128.or(key, traj)));
    const left = len - i;
    if (left < 16) hits &= (<u32>1 << left) - 1;
    while (hits != 0) {
      const at = i + ctz<u32>(hits);
      hits &= hits - 1;
      if (load<u8>(ptr + at) == 0x5c) {
        if (at + 1 < len) return 0;
      } else if (at + 9 <= len && load<u64>(ptr + at + 1) == KEY_TAIL) return 0;
      else if (at + 12 <= len && load<u64>(ptr + at + 1) == TRAJ_HEAD && load<u16>(ptr + at + 9) == TRAJ_TAIL && load<u8>(ptr + at + 11) == 0x22) return 0;
    }
    i += 16;
  }
  return start | ((end - start) << 8);
}
