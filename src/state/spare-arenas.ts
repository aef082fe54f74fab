/**
 * Arenas similar args' summary rings (summary-ring.ts) let go, kept for the next ring that needs one: a
 * ring's arena is a Uint8Array of a few KB, and making one costs about a microsecond (V8 gives it a backing
 * store of its own, which the collector then tracks), while over the traces' 28,505 calls the rings of the
 * module's sessions made 3,731 arenas (1,464 first ones, 2,206 grown as summaries came larger, 61 shrunk).
 * A ring that grows leaves its old arena here; a ring that needs one takes a spare of at least the size it
 * asked and at most {@link SPARE_SLACK} times it (so a ring holds no more than it would have made, but for
 * that slack), else makes one. Replayed over the traces' puts, 2,212 of the 3,731 arenas come from here.
 *
 * Spares are grouped by the power of two below their length, newest on top, at most {@link SPARE_BYTES} bytes
 * in all (an arena let go past that is left to the collector). Only rings made for the thread's sessions
 * (`shared`) use them; a spare's bytes are stale, and a ring reads only the summaries it put.
 */

/** How much larger than asked a spare may be. */
export const SPARE_SLACK = 1.5;

/** Bytes of spares kept at most (a thread's). */
export const SPARE_BYTES = 1 << 20;

/** Spares by `floor(log2(length))`, newest last. */
const spares: Uint8Array<ArrayBuffer>[][] = [];
let held = 0;

/** A group's index: the power of two at or below `n` (n >= 1). */
const groupOf = (n: number): number => 31 - Math.clz32(n);

/** An arena of at least `size` bytes and at most SPARE_SLACK times it: a spare when one fits, else a new one (size >= 1). */
export function takeArena(size: number): Uint8Array<ArrayBuffer> {
  const max = SPARE_SLACK * size;
  // a fitting spare lies in size's group or the next (its length below 2 * size)
  for (let g = groupOf(size); g <= groupOf(size) + 1; g++) {
    const group = spares[g];
    if (group === undefined) continue;
    for (let k = group.length - 1; k >= 0; k--) {
      const a = group[k] as Uint8Array<ArrayBuffer>;
      if (a.length < size || a.length > max) continue;
      group[k] = group[group.length - 1] as Uint8Array<ArrayBuffer>;
      group.pop();
      held -= a.length;
      return a;
    }
  }
  return new Uint8Array(size);
}

/** Keeps an arena its ring no longer reads (nothing may read or write it afterwards), while the spares have room. */
export function giveArena(a: Uint8Array<ArrayBuffer>): void {
  if (a.length === 0 || held + a.length > SPARE_BYTES) return;
  (spares[groupOf(a.length)] ??= []).push(a);
  held += a.length;
}

/** Bytes of spares kept now (for measurements and tests). */
export function spareBytes(): number {
  return held;
}
