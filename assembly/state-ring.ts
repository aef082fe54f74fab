// State repeat's ring of state keys, kept in a block beside the session's slot and sized to the calls seen.
//
//   slot + C_OFF_STATE:  [block pointer u32 | capacity u32 (keys)]
//   block:               key[capacity]   (u32 each; the ring's write position is the slot's S_STATE_POS word)
//
// The ring holds the last C_ST_W calls' keys. While fewer calls than that have come, it has never wrapped
// round: its keys are those of calls 0..n-1 at positions 0..n-1, so a block of any capacity >= n holds them
// in place. The block starts at STATE_FIRST keys and doubles (up to the window) when a call would write past
// its end; the keys read, and so every verdict, are those of a ring of the full window. A session of 100
// calls keeps 128 keys (512 B), not 500 (2,000 B). freeSlot and resetSlot free the block (slots.ts).
import { CF_STATE, C_FLAGS, C_OFF_STATE, C_ST_W, STATE_FIRST, S_CONFIG, S_STATE_POS } from './abi';
import { allocBlock, configPtr, freeBlock, slotOk } from './slots';

/** The capacity a ring grows to from `cap` under window `w`. */
// @ts-ignore: decorator
@inline function grownCap(cap: u32, w: u32): u32 {
  const next = cap == 0 ? STATE_FIRST : cap << 1;
  return next < w ? next : w;
}

/**
 * Makes sure the ring of slot `slot` (configuration at `cfg`) has room for the keys its next `n` calls
 * write: grows the block, at once, to the capacity those calls' writes would have grown it to one by one
 * (doubling until the last write's position fits, at most the window). False when memory is exhausted
 * (nothing changed).
 */
function roomFor(slot: usize, cfg: usize, n: u32): bool {
  const at = slot + <usize>load<u32>(cfg + C_OFF_STATE);
  const cap = load<u32>(at, 4);
  const w = load<u32>(cfg + C_ST_W);
  if (cap >= w) return true;
  // while fewer calls than the window have come the ring has not wrapped: the write position is the call count
  const end = <u64><u32>load<u16>(slot + S_STATE_POS) + <u64>n;
  if (end <= <u64>cap) return true;
  let grown = grownCap(cap, w);
  while (<u64>grown < end && grown < w) grown = grownCap(grown, w);
  const p = allocBlock(grown << 2);
  if (p == 0) return false;
  const old = <usize>load<u32>(at);
  if (old != 0) {
    memory.copy(p, old, <usize>cap << 2);
    freeBlock(old, cap << 2);
  }
  store<u32>(at, <u32>p);
  store<u32>(at, grown, 4);
  return true;
}

/** roomFor the key of the slot's next call (the module's own check before it records one). */
export function stateRoom(slot: usize, cfg: usize): bool {
  return roomFor(slot, cfg, 1);
}

/**
 * The host's reservation before a batch: makes live slot `s`'s state ring hold the keys of its next `n`
 * calls now, so no call of the batch needs memory the module no longer has (the host then evicts a session
 * and asks again, as it does for a new session's slot). 1 when there is room (or the slot keeps no state
 * ring), 0 when memory is exhausted (nothing changed) or `s` is not a live slot.
 */
export function stateReserve(s: u32, n: u32): u32 {
  if (!slotOk(s)) return 0;
  const cfg = configPtr(load<u32>(s + S_CONFIG));
  if ((load<u32>(cfg + C_FLAGS) & CF_STATE) == 0) return 1;
  return roomFor(<usize>s, cfg, n) ? 1 : 0;
}

/** Where the ring's keys are (0 while the session has recorded none). */
// @ts-ignore: decorator
@inline export function stateKeys(slot: usize, cfg: usize): usize {
  return <usize>load<u32>(slot + <usize>load<u32>(cfg + C_OFF_STATE));
}

/**
 * Gives a live slot's state ring a zeroed block of `cap` keys (none when 0), freeing the one it had: the
 * host's restore of a snapshot or a rollback, which then writes the keys. Returns the block's address, 0
 * for none or when memory is exhausted (the slot is left with no block).
 */
export function stateResize(s: u32, cap: u32): u32 {
  if (!slotOk(s)) return 0;
  const cfg = configPtr(load<u32>(s + S_CONFIG));
  if ((load<u32>(cfg + C_FLAGS) & CF_STATE) == 0 || cap > load<u32>(cfg + C_ST_W)) return 0;
  const at = <usize>s + <usize>load<u32>(cfg + C_OFF_STATE);
  freeBlock(<usize>load<u32>(at), load<u32>(at, 4) << 2);
  store<u32>(at, 0);
  store<u32>(at, 0, 4);
  if (cap == 0) return 0;
  const p = allocBlock(cap << 2);
  if (p == 0) return 0;
  store<u32>(at, <u32>p);
  store<u32>(at, cap, 4);
  return <u32>p;
}
