/**
 * A slot's saved form from a snapshot is checked before the module is given it: the module trusts its own
 * slots, reading and writing each ring at the position the slot keeps and each semantic sketch to the
 * length its entry says. A snapshot is outside input (a state file, a stored session): with its checksum
 * made again, a position past its ring's end restored without a word and then made the module write
 * outside the session's slot (into another session's, or a trap past the memory's end), and a sketch
 * length past the sketch size made it read others' bytes. Every position must be the call count modulo its
 * ring's capacity (what the module keeps it as) and every sketch length at most the sketch size.
 */
import { SnapshotError } from '../errors.js';
import * as A from './generated/abi.js';
import type { SlotLayout } from './slot-layout.js';

/** Ring ids of the slot's u16 positions after the five history rings: the state ring's, then semantic's. */
const STATE_RING = 5;
const SEMANTIC_RING = 6;

function corrupt(what: string): never {
  throw new SnapshotError(`loopwatch: the snapshot is corrupt (${what})`);
}

/** Throws a {@link SnapshotError} unless `saved` (a slot's saved form, `layout.savedSize` bytes) keeps every ring in bounds. */
export function checkSavedSlot(layout: SlotLayout, saved: Uint8Array): void {
  const dv = new DataView(saved.buffer, saved.byteOffset, saved.byteLength);
  const count = dv.getUint32(A.S_COUNT, true);
  const position = (ring: number, cap: number, name: string): void => {
    const pos = dv.getUint16(A.S_POS + 2 * ring, true);
    if (pos !== (cap === 0 ? 0 : count % cap)) corrupt(`the ${name} ring's position ${pos} is not ${count} calls modulo its ${cap} places`);
  };
  layout.rings.forEach((r, i) => position(i, r.cap, `history ring ${i}`));
  position(STATE_RING, layout.stateWindow, 'state repeat');
  const sem = layout.semantic;
  position(SEMANTIC_RING, sem.cap, 'semantic');
  // in the saved form, what follows the state ring's two words is moved by its window of keys, and an entry's head is two words
  for (let e = 0; e < sem.cap; e++) {
    const length = dv.getUint32(sem.savedOff + e * sem.savedEntryBytes + 4, true);
    if (length > sem.k) corrupt(`a semantic sketch of ${length} values where ${sem.k} fit`);
  }
}
