// A semantic entry's head word in a live slot: the text's token count and its sketch's length in one u32.
//
//   live entry:   [count << SEM_LEN_BITS | length]  [block address]   (8 bytes; the hashes in a block: sketch-blocks.ts)
//   saved entry:  [count] [length]                   hash[k]           (8 + 4k bytes: snapshots and undo copies)
//
// The saved form (src/wasm/state-block.ts) widens the word back into two and puts the hashes in place (zeros
// past the length), so snapshots keep their format.
// A length is at most k <= MAX_SKETCH_K (64 < 2^SEM_LEN_BITS). A count is at most maxTokens, and a token
// takes four bytes of text at least; a count past SEM_COUNT_MAX (2^25 - 1, a text of 128 MiB) is kept as
// SEM_COUNT_MAX, which the detector reads the same way while minTokens is no more than that.
import { SEM_COUNT_MAX, SEM_LEN_BITS, SEM_LEN_MASK } from './abi';

/** The head word of an entry of `count` tokens and a sketch of `len` hashes. */
// @ts-ignore: decorator
@inline export function semHead(count: u32, len: u32): u32 {
  return (min<u32>(count, SEM_COUNT_MAX) << SEM_LEN_BITS) | (len & SEM_LEN_MASK);
}

/** The token count of an entry's head word. */
// @ts-ignore: decorator
@inline export function semCount(head: u32): u32 {
  return head >> SEM_LEN_BITS;
}

/** The sketch length of an entry's head word. */
// @ts-ignore: decorator
@inline export function semLen(head: u32): u32 {
  return head & SEM_LEN_MASK;
}
