/**
 * A semantic entry in a live slot keeps its token count and sketch length in one head word
 * (assembly/sem-entry.ts), and since mem32 the address of its sketch's block (assembly/sketch-blocks.ts):
 * 8 bytes an entry, not 4 + 4k, which takes the slot of every default detector from 3,728 to 880 bytes
 * (size class 3,776 -> 896; the hashes take blocks of their length beside it). The saved form (snapshots,
 * undo copies: src/wasm/state-block.ts) still writes the two words and k hashes, so snapshots keep their bytes:
 * `fixtures/snapshots/v11-semantic-heads.json` holds a snapshot made by loopwatch d8118b3 (entries of two
 * head words in the live slot too) after 25 of 40 calls whose sketches differ in length (a short sketch
 * after a long one leaves the long one's hashes past its length, which snapshots hold) and the last of
 * which semantic finds similar; format-11 builds wrote the same bytes for the same calls (since format 12 chanting's
 * region is smaller: the restored session writes the bytes of the session that ran the calls), and it goes
 * on with the verdicts of the session that ran all 40.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import type { ResolvedOptions } from '../src/options/options.js';
import * as A from '../src/wasm/generated/abi.js';
import { slotClassBytes, slotLayout } from '../src/wasm/slot-layout.js';

interface Fixture {
  readonly options: LoopDetectorOptions;
  readonly calls: readonly ToolEvent[];
  readonly kinds: readonly (string | null)[];
  readonly snapshot: string;
}

const f = JSON.parse(readFileSync(new URL('./fixtures/snapshots/v11-semantic-heads.json', import.meta.url), 'utf8')) as Fixture;
/** Calls the fixture's session had run when its snapshot was taken. */
const SNAPPED_AFTER = 25;
const optionsOf = (d: LoopDetector): ResolvedOptions => (d as unknown as { options: ResolvedOptions }).options;
const kindOf = (d: LoopDetector, c: ToolEvent): string | null => d.check(c)?.kind ?? null;

describe('a semantic entry kept with one head word in the live slot', () => {
  it('should take 8 bytes an entry (head word, block), and put every default detector in the 896-byte slot class', () => {
    const layout = slotLayout(optionsOf(new LoopDetector()));
    const { cap, k, entryBytes, savedEntryBytes } = layout.semantic;
    expect(cap).toBeGreaterThan(0);
    expect(layout.stateWindow).toBeGreaterThan(0);
    expect(entryBytes).toBe(8);
    expect(savedEntryBytes).toBe(8 + 4 * k);
    // 3,728 - 31 x 92 = 876, padded to 16
    expect(layout.slotSize).toBe(880);
    expect(slotClassBytes(layout.slotSize)).toBe(896);
    // at most every sketch k hashes long, in blocks of 2-hash steps
    expect(layout.sketchBlockBytes).toBe(cap * 8 * Math.ceil(k / 2));
    // the saved form is as long as before: every entry two head words again
    expect(layout.savedSize).toBe(Math.ceil((3856 - 8 + layout.stateWindow * 4) / 16) * 16);
    expect(A.MAX_SKETCH_K).toBeLessThanOrEqual(A.SEM_LEN_MASK);
  });

  it('should restore the older build\'s snapshot to the bytes the session that ran the same calls writes', () => {
    // format 12 changed chanting's region (assembly/chant.ts: no gram hashes, byte links), so today's bytes are
    // not the format-11 fixture's; restored, it writes exactly what a session that ran the calls writes
    const saved = Buffer.from(f.snapshot, 'base64');
    const ran = new LoopDetector(f.options);
    for (const c of f.calls.slice(0, SNAPPED_AFTER)) ran.check(c);
    const restored = new LoopDetector(f.options);
    restored.restore(new Uint8Array(saved));
    expect(Buffer.compare(Buffer.from(restored.snapshot()), Buffer.from(ran.snapshot()))).toBe(0);
  });

  it('should go on from the older build\'s snapshot with the verdicts of the session that ran every call', () => {
    const restored = new LoopDetector(f.options);
    restored.restore(new Uint8Array(Buffer.from(f.snapshot, 'base64')));
    const ran = new LoopDetector(f.options);
    const kinds = f.calls.map((c, i) => (i < SNAPPED_AFTER ? kindOf(ran, c) : null));
    for (let i = SNAPPED_AFTER; i < f.calls.length; i++) {
      const c = f.calls[i] as ToolEvent;
      const a = restored.check(c);
      const b = ran.check(c);
      expect(a).toEqual(b);
      kinds[i] = b?.kind ?? null;
    }
    // the older build's verdicts, semantic among them after the snapshot
    expect(kinds).toEqual(f.kinds);
    expect(f.kinds.slice(SNAPPED_AFTER)).toContain('semantic');
  });
});
