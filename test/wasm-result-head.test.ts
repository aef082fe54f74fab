/**
 * The engine's module reads each call's result head in its own pass over the call's record
 * (assembly/result-head.ts): the key and the report scan the outcome facts read of the head (its first
 * PASS_LOOK UTF-16 units), exactly as the host would take them itself (module-report-scan.ts's textKey and
 * reportScan of the head's string), for results as strings and as JSON literals still in their bytes, with
 * and without the acknowledgement's words; a head the host's cut would end in half a character is left to
 * the host. The outcome facts then take the head from the call's output, never copying it into the second
 * instance.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outcomeFacts } from '../src/policy/outcome-facts.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { ACK_LOOK } from '../src/text/acknowledgement.js';
import { PASS_LOOK } from '../src/text/failure-report.js';
import { HEAD_ACKED, HEAD_ACK_UNITS, HEAD_PASSLESS, HEAD_READ, HEAD_UNITS } from '../src/wasm/generated/abi.js';
import { reportScan, scanCopies, textKey } from '../src/wasm/module-report-scan.js';
import { RawJsonString } from '../src/wasm/raw-json-string.js';
import { WasmPipeline } from '../src/wasm/wasm-pipeline.js';
import { LoopEngine } from '../src/engine/loop-engine.js';

const ALL = ['exactRepeat', 'frequency', 'cycle', 'semantic', 'similarArgs', 'resultRepeat', 'deadEnd', 'stateRepeat', 'chanting'];
const exactAlone = { detectors: Object.fromEntries(ALL.map((d) => [d, d === 'exactRepeat'])) };

const PIECES = ['9 passed', 'error', 'Traceback', '❌', 'ok', 'Done', 'updated', 'status: running', '[the command completed with exit code 0]', 'é', '日', '😀', '\ud800', '\udc00', '\n', ' ', 'x'];
const piece = fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 5 }), fc.string({ unit: 'grapheme', maxLength: 2 }), fc.string({ unit: 'binary', maxLength: 3 }));
/** Texts around the two cuts the head reading makes (ACK_LOOK and PASS_LOOK units), or short. */
const text = fc
  .tuple(fc.constantFrom(0, ACK_LOOK - 8, PASS_LOOK - 8, PASS_LOOK + 100), fc.constantFrom('x', 'é', '😀', ' '), fc.array(piece, { maxLength: 12 }))
  .map(([n, fill, parts]) => `${fill.repeat(Math.ceil(n / fill.length))}${parts.join('')}`);

/** A JSON string literal of `t` in ASCII bytes (what the events-format reader hands over), escapes and all. */
function literal(t: string): RawJsonString {
  const json = JSON.stringify(t).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return new RawJsonString(Buffer.from(json, 'latin1'), json.includes('\\'));
}

/** The head as the outcome facts cut it. */
const headOf = (t: string): string => t.slice(0, PASS_LOOK);

/** Whether the host's cut of `t` ends inside a surrogate pair (the module leaves that head to the host). */
const cutInPair = (t: string): boolean => t.length > PASS_LOOK && /[\ud800-\udbff]/.test(t[PASS_LOOK - 1] as string) && /[\udc00-\udfff]/.test(t[PASS_LOOK] as string);

describe("the module's reading of a result head in its pass over the call", () => {
  it('should cut heads where the host does', () => {
    expect(HEAD_UNITS).toBe(PASS_LOOK);
    expect(HEAD_ACK_UNITS).toBe(ACK_LOOK);
  });

  // exact repeat alone weighs no acknowledgement and reads no pass (src/policy/facts-read.ts)
  for (const [name, options, ack, pass] of [['every detector', {}, true, true], ['exact repeat alone', exactAlone, false, false]] as const) {
    it(`should give the key and scan the host takes of the head (${name})`, () => {
      const p = new WasmPipeline(resolveOptions(options));
      try {
        fc.assert(
          fc.property(text, fc.boolean(), (t, raw) => {
            p.observe({ tool: 'Bash', args: { command: 'ls' }, result: raw ? literal(t) : t });
            const head = headOf(t);
            const { word, key, index } = p.reading;
            if (index !== p.lastIndex) return false;
            if (cutInPair(t)) return word === 0;
            const short = head.length <= ACK_LOOK;
            return (
              (word & HEAD_READ) !== 0 &&
              ((word & HEAD_ACKED) !== 0) === (short && ack) &&
              ((word & HEAD_PASSLESS) === 0) === pass &&
              key === textKey(head) &&
              (word & 0xff) === reportScan(head, short && ack, pass)
            );
          }),
          { numRuns: 600 },
        );
      } finally {
        p.dispose();
      }
    });
  }

  it('should give a head met before the reading it gave it, whether the acknowledgement and the pass were asked then or now', () => {
    const every = new WasmPipeline(resolveOptions({}));
    const exact = new WasmPipeline(resolveOptions(exactAlone));
    const texts = ['Done', 'The file /a.ts has been updated successfully.', '9 passed', `${'x'.repeat(2000)} ok`, 'status: running'];
    for (let round = 0; round < 3; round++) {
      for (const [k, t] of texts.entries()) {
        for (const [p, ack] of (round + k) % 2 === 0 ? ([[every, true], [exact, false]] as const) : ([[exact, false], [every, true]] as const)) {
          p.observe({ tool: 'Bash', args: { k }, result: t }); // not a read tool: its head is read (a Read's file content is not: record-writer.ts)
          const short = t.length <= ACK_LOOK;
          // exact repeat alone (ack false) reads no pass either
          expect(p.reading.word & 0xff).toBe(reportScan(t, short && ack, ack));
          expect((p.reading.word & HEAD_ACKED) !== 0).toBe(short && ack);
          expect((p.reading.word & HEAD_PASSLESS) !== 0).toBe(!ack);
          expect(p.reading.key).toBe(textKey(t));
        }
      }
    }
    every.dispose();
    exact.dispose();
  });

  it('should read a null result as the empty head, and nothing of a failed call or a value', () => {
    const p = new WasmPipeline(resolveOptions({}));
    p.observe({ tool: 't', args: {}, result: null });
    expect(p.reading.word & HEAD_READ).toBe(HEAD_READ);
    expect(p.reading.key).toBe(textKey(''));
    p.observe({ tool: 't', args: {}, result: 'Traceback', error: 'boom' });
    expect(p.reading.word).toBe(0);
    p.observe({ tool: 't', args: {}, result: { text: 'Traceback' } });
    expect(p.reading.word).toBe(0);
    // the host's cut at PASS_LOOK units ends inside a pair: left to the host
    const cut = `x${'😀'.repeat(PASS_LOOK)}`;
    expect(cutInPair(cut)).toBe(true);
    p.observe({ tool: 't', args: {}, result: cut });
    expect(p.reading.word).toBe(0);
    p.observe({ tool: 't', args: {}, result: cut.slice(1) });
    expect(p.reading.word & HEAD_READ).toBe(HEAD_READ);
    expect(p.reading.key).toBe(textKey(headOf(cut.slice(1))));
    p.dispose();
  });

  it('should give the outcome facts the same bits as the host reading the head itself', () => {
    const p = new WasmPipeline(resolveOptions({}));
    const results = ['9 passed', 'error: Failed to find expected lines', 'status: running', 'The file /a.ts has been updated successfully.', '', `${'é'.repeat(PASS_LOOK)}`, 'Done'];
    for (const [k, r] of results.entries()) {
      const e = { tool: 'Edit', args: { file_path: `/src/${k}.ts` }, result: r };
      p.observe(e);
      const given = outcomeFacts(e, p.log, p.lastIndex, { bits: 0, target: 0 }, true, p.reading);
      const own = outcomeFacts(e, p.log, p.lastIndex, { bits: 0, target: 0 }, true);
      expect(given).toEqual(own);
    }
    p.dispose();
  });

  it('should not copy the heads of an engine\'s calls into the second instance', () => {
    const engine = new LoopEngine(exactAlone);
    const calls = Array.from({ length: 200 }, (_, i) => ({ session: `s${i % 7}`, tool: 'Bash', args: { command: `make ${i % 13}` }, result: `${i} passed, ${i % 3} failed\nrun ${i}` }));
    const before = scanCopies();
    engine.checkBatch(calls);
    expect(scanCopies()).toBe(before);
    engine.close();
  });
});
