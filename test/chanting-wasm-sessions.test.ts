/**
 * Chanting in the WebAssembly pipeline, session by session: the same verdicts as the reference engine for
 * calls with text and streamed pieces; its region in the module's memory made only when text arrives,
 * carried through snapshots, cleared by reset, freed by dispose and used again.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHANTING_DEFAULTS, LoopDetector, SnapshotError } from '../src/index.js';
import type { LoopDetectorOptions, Verdict } from '../src/index.js';
import { ByteReader } from '../src/snapshot/byte-reader.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';
import { chantLayout } from '../src/wasm/chant-layout.js';
import * as A from '../src/wasm/generated/abi.js';
import { sharedCore } from '../src/wasm/wasm-core.js';
import { WasmProseStream } from '../src/wasm/wasm-prose-stream.js';
import { chantingOptions, prosePiece } from './helpers/prose.js';
import { runs } from './helpers/streams.js';
import { liveRegions } from './helpers/chant-regions.js';
import { ENGINES, json } from './helpers/verdicts.js';

const chantingOnly = { exactRepeat: false, frequency: false, cycle: false, semantic: false, similarArgs: false, resultRepeat: false, deadEnd: false, stateRepeat: false } as const;

/** A step of a session: a call with text, or a piece of streamed text. */
type Step = { readonly kind: 'call'; readonly text: string } | { readonly kind: 'text'; readonly text: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.array(prosePiece, { maxLength: 5 }).map((ps) => ({ kind: 'call', text: ps.join('') }) as const),
  prosePiece.map((text) => ({ kind: 'text', text }) as const),
);

/** What a detector says of each step, as text. */
function said(d: LoopDetector, steps: readonly Step[], from = 0): string[] {
  return steps.map((s, i) => json(s.kind === 'call' ? d.check({ tool: 'reply', args: { turn: i + from }, text: s.text }) : d.checkText(s.text)));
}

const chantingChant = 'I will check the configuration file again now. ';
const o: LoopDetectorOptions = { detectors: { ...chantingOnly, chanting: true }, policy: { minConfidence: 0 } };

describe('chanting in the WebAssembly pipeline', () => {
  it('should give the verdicts of the reference engine for calls with text and streamed pieces, any chanting options', () => {
    let flagged = 0;
    fc.assert(
      fc.property(chantingOptions, fc.array(step, { minLength: 1, maxLength: 14 }), (c, steps) => {
        const opts: LoopDetectorOptions = { detectors: { ...chantingOnly, chanting: c }, policy: { minConfidence: 0 } };
        const [wasm, ref] = ENGINES.map((engine) => new LoopDetector({ ...opts, engine }));
        try {
          const a = said(wasm as LoopDetector, steps);
          const b = said(ref as LoopDetector, steps);
          expect(a).toEqual(b);
          flagged += b.filter((v) => v !== 'null').length;
        } finally {
          wasm?.dispose();
          ref?.dispose();
        }
      }),
      { numRuns: runs(300) },
    );
    expect(flagged).toBeGreaterThan(30);
  });

  it('should continue a snapshot taken mid-chant exactly where it stopped', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 2, maxLength: 12 }), fc.nat(), (steps, cut) => {
        const at = 1 + (cut % (steps.length - 1));
        const straight = new LoopDetector(o);
        const first = new LoopDetector(o);
        const resumed = new LoopDetector(o);
        try {
          const whole = said(straight, steps);
          said(first, steps.slice(0, at));
          resumed.restore(first.snapshot());
          first.dispose();
          expect(said(resumed, steps.slice(at), at)).toEqual(whole.slice(at));
        } finally {
          straight.dispose();
          resumed.dispose();
        }
      }),
      { numRuns: runs(150) },
    );
    // a chant under way across the cut: the first half is quiet, the second flags it
    const d = new LoopDetector(o);
    for (let i = 0; i < 5; i++) expect(d.checkText(chantingChant)).toBeNull();
    const bytes = d.snapshot();
    d.dispose();
    const r = new LoopDetector(o);
    r.restore(bytes);
    let v: Verdict | null = null;
    for (let i = 0; i < 10 && v === null; i++) v = r.checkText(chantingChant);
    expect(v?.signals[0]?.kind).toBe('chanting');
    r.dispose();
  });

  it('should forget its text on reset, as a fresh session would', () => {
    const steps: Step[] = [{ kind: 'text', text: chantingChant.repeat(4) }, { kind: 'call', text: chantingChant.repeat(3) }];
    const d = new LoopDetector(o);
    said(d, [{ kind: 'text', text: chantingChant.repeat(20) }]);
    d.reset();
    const fresh = new LoopDetector(o);
    expect(said(d, steps)).toEqual(said(fresh, steps));
    d.dispose();
    fresh.dispose();
  });

  it('should make a region only for a session with text, and free it on dispose', () => {
    const before = liveRegions();
    const quiet = Array.from({ length: 20 }, () => new LoopDetector(o));
    for (const d of quiet) d.check({ tool: 'read', args: { path: 'a' } });
    expect(liveRegions()).toBe(before);
    const talking = quiet.slice(0, 7);
    for (const d of talking) d.checkText('Hello there.');
    expect(liveRegions()).toBe(before + 7);
    for (const d of quiet) d.dispose();
    expect(liveRegions()).toBe(before);
  });

  it('should use freed regions again: many sessions made and disposed do not grow the memory', () => {
    const round = (): void => {
      const ds = Array.from({ length: 300 }, (_, i) => new LoopDetector(o, `s${i}`));
      for (const [i, d] of ds.entries()) d.checkText(`session ${i} says this sentence again. `.repeat(3));
      for (const d of ds) d.dispose();
    };
    round();
    const bytes = sharedCore().instance.memory.buffer.byteLength;
    const live = liveRegions();
    for (let k = 0; k < 3; k++) round();
    expect(sharedCore().instance.memory.buffer.byteLength).toBe(bytes);
    expect(liveRegions()).toBe(live);
  });

  it('should refuse chanting state that is not one its options lay out', () => {
    const s = new WasmProseStream(CHANTING_DEFAULTS);
    try {
      s.push(chantingChant, 0, chantingChant.length, 0, 2 ** 30);
      const w = new ByteWriter();
      s.save(w);
      const good = w.finish();
      const short = new ByteWriter();
      short.bytes(new Uint8Array(100));
      expect(() => s.load(new ByteReader(short.finish()))).toThrow(/chanting state has 100 bytes/);
      // a negative position, then a followed period beyond maxPeriod
      for (const [off, v] of [[A.CS_POS, -5], [A.CS_FOLLOWED, 1]] as const) {
        const bad = good.slice();
        new DataView(bad.buffer).setInt32(good.length - chantLayout(CHANTING_DEFAULTS).slotSize + off, v, true);
        expect(() => s.load(new ByteReader(bad))).toThrow(SnapshotError);
      }
      s.load(new ByteReader(good));
      expect(s.pos).toBe(chantingChant.length);
    } finally {
      s.dispose();
    }
  });
});
