/**
 * Chanting keeps its text-to-call boundaries in small arrays that grow as texts come (two arrays of 256
 * made with each session's first text cost more than the session's first calls). A snapshot still holds
 * them as 256 entries each, with what full-size arrays would hold past the boundaries kept, rebases of the
 * stream included: a session saved only at its end writes the same bytes as one saved after every text
 * (whose first save made its arrays full size), with the TypeScript and the WebAssembly stream.
 */
import { describe, expect, it } from 'vitest';
import { ChantingDetector } from '../src/detectors/chanting.js';
import type { ObservedCall } from '../src/index.js';
import { CHANTING_DEFAULTS } from '../src/index.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';
import { ByteReader } from '../src/snapshot/byte-reader.js';
import { WasmProseStream } from '../src/wasm/wasm-prose-stream.js';

const call = (index: number, text: string) => ({ index, event: { tool: 't', text } }) as unknown as ObservedCall;
const text = (i: number): string => `Text ${i} ${'pad'.repeat(i % 3 === 0 ? 60 : 2)}: let me look at file ${i % 7}.\nThe build is ${'ok '.repeat(i % 5)}done.\n`;

function saved(d: ChantingDetector): Uint8Array {
  const w = new ByteWriter();
  d.save(w);
  return w.finish();
}

describe.each(['ts', 'wasm'] as const)('chanting snapshot boundaries (%s stream)', (stream) => {
  const make = (rebaseAt: number): ChantingDetector => (stream === 'ts' ? new ChantingDetector(CHANTING_DEFAULTS, rebaseAt) : new ChantingDetector(CHANTING_DEFAULTS, rebaseAt, (c) => new WasmProseStream(c)));

  it.each([3, 16, 17, 40, 300])('should save %i texts as arrays of 256 would, rebased included', (n) => {
    const late = make(1024);
    const early = make(1024);
    try {
      for (let i = 0; i < n; i++) {
        late.record(call(i, text(i)));
        early.record(call(i, text(i)));
        saved(early);
      }
      const bytes = saved(late);
      expect(Buffer.from(bytes).equals(Buffer.from(saved(early)))).toBe(true);
      // and what was saved restores into a detector that saves it again unchanged
      const back = make(1024);
      try {
        back.load(new ByteReader(bytes));
        expect(Buffer.from(saved(back)).equals(Buffer.from(bytes))).toBe(true);
      } finally {
        back.dispose();
      }
    } finally {
      late.dispose();
      early.dispose();
    }
  });
});
