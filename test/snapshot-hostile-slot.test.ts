/**
 * A snapshot is outside input (a hook's or `serve`'s state file, a stored NATS session): its checksum can be
 * made again by whoever writes it, so what its slot holds is checked before the WebAssembly module is given
 * it. A ring position past its ring's end (each of the slot's seven) or a semantic sketch longer than the
 * sketch size is a `SnapshotError` and the session is left as it was (before: restored without a word; the
 * next call made the module write outside the session's slot, trapping past the memory's end, or reading
 * and writing another session's slot within it).
 */
import { describe, expect, it } from 'vitest';
import { SnapshotError } from '../src/errors.js';
import { LoopDetector } from '../src/index.js';
import type { ResolvedOptions } from '../src/options/options.js';
import { DETECTOR_NAMES } from '../src/options/resolve-options.js';
import { sealSnapshot } from '../src/snapshot/snapshot-format.js';
import * as A from '../src/wasm/generated/abi.js';
import { slotLayout } from '../src/wasm/slot-layout.js';

const HEADER = 20;
const TRAILER = 8;
const CALLS = 60;
const ALL = { detectors: Object.fromEntries(DETECTOR_NAMES.map((n) => [n, true])) };

function session(): LoopDetector {
  const d = new LoopDetector(ALL);
  for (let i = 0; i < CALLS; i++) {
    d.check({ tool: i % 3 === 0 ? 'bash' : 'edit', args: { cmd: `ls ${i % 5}`, path: `/a/b${i % 4}` }, result: i % 2 === 1 ? 'ok' : `error: nope ${i % 7}`, ...(i % 4 === 0 ? { error: 'failed' } : {}), text: `I will try the same thing again ${i % 3}` });
  }
  return d;
}

const optionsOf = (d: LoopDetector): ResolvedOptions => (d as unknown as { options: ResolvedOptions }).options;

/** The snapshot's payload, and where its slot's saved form starts in it (after its u32 length, its call count first). */
function slotIn(d: LoopDetector): { payload: Uint8Array; at: number; size: number } {
  const snap = d.snapshot();
  const payload = snap.slice(HEADER, snap.length - TRAILER);
  const size = slotLayout(optionsOf(d)).savedSize;
  const dv = new DataView(payload.buffer);
  for (let at = 4; at + 8 <= payload.length; at++) if (dv.getUint32(at - 4, true) === size && dv.getUint32(at, true) === CALLS) return { payload, at, size };
  throw new Error('no slot found in the snapshot');
}

describe('a snapshot whose slot a hostile writer changed (its checksum made again)', () => {
  it('should refuse every ring position past its place, and a sketch longer than the sketch size, leaving the session as it was', () => {
    const src = session();
    const o = optionsOf(src);
    const layout = slotLayout(o);
    expect(layout.semantic.cap).toBeGreaterThan(0);
    expect(layout.stateWindow).toBeGreaterThan(0);
    const { payload, at } = slotIn(src);
    const target = session();
    target.check({ tool: 'grep', args: { q: 'x' } });
    const before = target.snapshot();
    const changed: Uint8Array[] = [];
    for (let ring = 0; ring < 7; ring++) {
      for (const pos of [0xffff, 0x8000, 1000]) {
        const p = payload.slice();
        new DataView(p.buffer).setUint16(at + A.S_POS + 2 * ring, pos, true);
        changed.push(p);
      }
    }
    const sem = layout.semantic;
    const p = payload.slice();
    new DataView(p.buffer).setUint32(at + sem.savedOff + 4, 0x4000_0000, true);
    changed.push(p);
    for (const bytes of changed) {
      expect(() => target.restore(sealSnapshot(bytes, o))).toThrow(SnapshotError);
      expect(Buffer.compare(target.snapshot(), before)).toBe(0);
    }
    // the untouched payload still restores, and the session goes on
    target.restore(sealSnapshot(payload, o));
    expect(() => target.check({ tool: 'bash', args: { cmd: 'ls 0' } })).not.toThrow();
  });

  it('should leave every other session of the thread unharmed whatever 4 bytes of the slot header say (restored, or refused)', () => {
    const src = session();
    const o = optionsOf(src);
    const { payload, at } = slotIn(src);
    const bystander = session();
    const target = new LoopDetector(ALL);
    for (let off = 0; off <= A.SLOT_HEADER; off += 2) {
      for (const v of [0xffff_ffff, 0x0001_0000, 0x7fff]) {
        const bytes = payload.slice();
        new DataView(bytes.buffer).setUint32(at + off, v, true);
        const mark = bystander.snapshot();
        try {
          target.restore(sealSnapshot(bytes, o));
        } catch (e) {
          expect(e).toBeInstanceOf(SnapshotError);
          continue;
        }
        // restored: its calls are answered (a verdict, never a trap) and the bystander's state is untouched
        for (let i = 0; i < 3; i++) expect(() => target.check({ tool: 'bash', args: { cmd: 'ls 1' }, result: 'ok' })).not.toThrow();
        expect(Buffer.compare(bystander.snapshot(), mark)).toBe(0);
      }
    }
  });
});
