// A record's section too long to be copied whole (src/wasm/long-text.ts writes it; the layout is abi.ts's
// LONG_BIT): what the module reads of a text is bounded (the action text its first maxTextLength bytes, a
// result's head HEAD_UNITS units, masking MASK_LIMIT bytes, an error's test place its last PLACE_LOOK bytes),
// and the rest is its hash and its white space at either end, which the host gives. So one huge result or
// error leaves the input area no larger than a short one does (memory never shrinks).
//
//   section: u32 LONG_BIT | body length, body:
//   [n u32 | lead u32 | trail u32 | hash u64 | head length u32 | head bytes | pad | tail length u32 | tail bytes | pad]
//
// The host hashes the whole text through LONG_WINDOW with the streaming XXH64 (xxh64-stream.ts), the same
// hash as xxh64() of the bytes laid end to end.
import { LB_HASH, LB_HEAD, LB_LEAD, LB_N, LB_TRAIL, LONG_BIT, LONG_WINDOW } from './abi';

/** The window the host encodes a long text's pieces into, to be hashed (streamStripes, streamEnd). */
const WINDOW: usize = memory.data(<i32>LONG_WINDOW, 16);

/** Where the host writes a long text's pieces to be hashed. */
export function longWindow(): usize {
  return WINDOW;
}

/** The body of the section whose length word is at `p`, or 0 when the section holds its bytes whole. */
// @ts-ignore: decorator
@inline export function longBody(p: usize): usize {
  return (load<u32>(p) & LONG_BIT) != 0 ? p + 4 : 0;
}

/** The section's text's UTF-8 length (whole, not what the section holds). */
// @ts-ignore: decorator
@inline export function longLength(body: usize): u32 {
  return load<u32>(body + LB_N);
}

/** Leading ASCII white space bytes of the text (its length when it is all white space). */
// @ts-ignore: decorator
@inline export function longLead(body: usize): u32 {
  return load<u32>(body + LB_LEAD);
}

/** Trailing ASCII white space bytes of the text. */
// @ts-ignore: decorator
@inline export function longTrail(body: usize): u32 {
  return load<u32>(body + LB_TRAIL);
}

/** The text's xxh64 with its section's seed. */
// @ts-ignore: decorator
@inline export function longHash(body: usize): u64 {
  return load<u64>(body + LB_HASH);
}

/** Where the text's first bytes are. */
// @ts-ignore: decorator
@inline export function longHead(body: usize): usize {
  return body + LB_HEAD + 4;
}

/** How many of the text's first bytes the section holds. */
// @ts-ignore: decorator
@inline export function longHeadLength(body: usize): u32 {
  return load<u32>(body + LB_HEAD);
}

/** The tail's length word (after the head, padded to 4). */
// @ts-ignore: decorator
@inline function tailAt(body: usize): usize {
  return body + LB_HEAD + 4 + ((<usize>load<u32>(body + LB_HEAD) + 3) & ~3);
}

/** Where the text's last bytes are. */
// @ts-ignore: decorator
@inline export function longTail(body: usize): usize {
  return tailAt(body) + 4;
}

/** How many of the text's last bytes the section holds (0 when the host gave none). */
// @ts-ignore: decorator
@inline export function longTailLength(body: usize): u32 {
  return load<u32>(tailAt(body));
}
