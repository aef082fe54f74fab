/**
 * How many sessions one thread's WebAssembly memory holds under some options, known before any session
 * exists: a session's slot takes its size class's bytes (and state repeat's ring, at its longest, its own) (`assembly/slots.ts`: multiples of 64 bytes up to
 * 4 KiB, of 128 bytes up to 8 KiB, of 512 bytes up to 16 KiB, then powers of two), slots are carved in chunks, and the memory stops
 * at 4 GiB less its last page and what the module keeps for its own areas. Engines compare their
 * `maxSessions` with it, so a session cap the memory cannot honour is refused (or, as a default, lowered)
 * when the engine is made, not found out at the 65,000th session.
 *
 * ```
 *   capacity = floor((4 GiB - 64 KiB - AREAS) / (classBytes x chunk)) x chunk
 * ```
 */
import { OptionRangeError } from '../errors.js';
import type { ResolvedOptions } from '../options/options.js';
import * as A from './generated/abi.js';
import { slotClassBytes, slotLayout } from './slot-layout.js';

/** Bytes the module addresses at most (the last 64 KiB page is never handed out). */
const ADDRESS_LIMIT = 0xffff0000;

/** Bytes kept for the module's static data and its input, output, list and scratch areas. */
const AREAS = 64 * 2 ** 20;

/** Bytes a slot of `size` bytes takes: its size class (slot-layout.ts). */
export { slotClassBytes } from './slot-layout.js';

/**
 * Bytes a session of these options takes at most: its slot's class, the class of state repeat's ring at
 * its full window (a block beside the slot that grows with the calls seen: assembly/state-ring.ts), and
 * semantic's sketch blocks with every sketch k hashes long (assembly/sketch-blocks.ts).
 */
export function sessionBytes(o: ResolvedOptions): number {
  const layout = slotLayout(o);
  return slotClassBytes(layout.slotSize) + layout.stateBlockBytes + layout.sketchBlockBytes;
}

/** Most sessions of these options one thread's WebAssembly memory holds (Infinity for the reference engine). */
export function sessionCapacity(o: ResolvedOptions): number {
  if (o.engine !== 'wasm') return Infinity;
  const layout = slotLayout(o);
  const bytes = sessionBytes(o);
  const chunk = layout.fields.get(A.C_CHUNK) ?? 16;
  return Math.floor((ADDRESS_LIMIT - AREAS) / (bytes * chunk)) * chunk;
}

/** The detector window that sizes a session most, as `detectors.<name>.window = <n>`. */
function largestWindow(o: ResolvedOptions): string {
  let best = '';
  let most = -1;
  for (const [name, d] of Object.entries(o.detectors)) {
    const w = (d as { window?: unknown } | null)?.window;
    if (typeof w === 'number' && w > most) {
      most = w;
      best = `detectors.${name}.window = ${w.toLocaleString('en-US')}`;
    }
  }
  return best;
}

/**
 * The session cap an engine of these options runs with: `requested` when the memory holds that many
 * sessions; when it does not, the capacity if `requested` is only the default, else an OptionRangeError
 * naming the option (`path`, with `per` saying how it was shared out) and the window that sizes a session.
 */
export function fitSessions(o: ResolvedOptions, requested: number, isDefault: boolean, path: string, per = ''): number {
  const capacity = sessionCapacity(o);
  if (requested <= capacity) return requested;
  if (isDefault) return Math.max(1, capacity);
  throw new OptionRangeError(path, `${path} is ${requested.toLocaleString('en-US')}${per}, but ${sessionSizeText(o)}, and one thread's 4 GiB holds at most ${capacity.toLocaleString('en-US')} sessions: lower ${path} or the windows`);
}

/** What a session of these options takes, and why: for messages about the memory's capacity. */
export function sessionSizeText(o: ResolvedOptions): string {
  const kib = sessionBytes(o) / 1024;
  return `under these detection options a session takes ${kib.toLocaleString('en-US', { maximumFractionDigits: 1 })} KiB of WebAssembly memory (its rings are as long as the windows; the longest: ${largestWindow(o)})`;
}
