/**
 * Calls read from their record's bytes (`checkLines`) are never parsed for a message: the current call's
 * preview is read from its args' text, and a call a cycle's unit may name keeps its args' text (when no
 * longer than its preview could be) for the preview made when a message first reads it, or its preview
 * made from the text at once. The bytes are not read after the call's check (the caller may reuse them),
 * and every message is the one the same calls given as objects get: on random cycles whose calls share a
 * signature while their args differ (an ignored field), with short and long args, keys that make the
 * parsed order differ from the text's (the preview is then made of the parsed args), and a tool identity.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoopEngine } from '../src/engine/loop-engine.js';
import { JsonArgsText } from '../src/fingerprint/json-args-text.js';
import type { LoopDetectorOptions } from '../src/options/options.js';
import type { SessionEvent } from '../src/wire/session-event.js';
import { runs } from './helpers/streams.js';

const OFF = { exactRepeat: false, frequency: false, semantic: false, similarArgs: false, resultRepeat: false, deadEnd: false, stateRepeat: false, chanting: false };

/** Cycles of 2 to 5 calls broken now and then; each call's args hold a field ignored by its signature. */
const cycles = fc
  .tuple(fc.integer({ min: 2, max: 5 }), fc.array(fc.tuple(fc.nat(12), fc.nat(3)), { minLength: 4, maxLength: 40 }), fc.constantFrom('', 'x'.repeat(40), ' \n'.repeat(70), 'y'.repeat(400)))
  .map(([period, calls, pad]) =>
    calls.map(([b, shape], i): SessionEvent => {
      const target = b === 0 ? `new-${i}` : `file-${i % period}`;
      // the shapes: plain; an index key (the parsed order differs from the text's); a pad (long args); a tool identity
      const args: Record<string, unknown> = shape === 1 ? { 7: 'seven', path: target, ts: `t${i}` } : { path: target, ts: `t${i}`, ...(shape === 2 ? { note: pad } : {}) };
      return { session: `s${b % 2}`, tool: i % period === 1 ? 'read' : shape === 3 ? 'ident' : 'edit', args, result: b === 1 ? `changed ${i}` : 'same page' };
    }),
  );

const options = (): LoopDetectorOptions => ({
  detectors: { ...OFF, cycle: {} },
  policy: { minConfidence: 0, progress: 'ignore' },
  tools: { edit: { ignoreFields: ['ts'] }, read: { ignoreFields: ['ts'] }, ident: { identity: (a: unknown) => ({ ...(a as object), seen: true }), ignoreFields: ['ts'] } },
} as LoopDetectorOptions);

/** Verdicts of `events` given as lines, one check each, every line's bytes overwritten once it is checked. */
function fromLines(events: readonly SessionEvent[]): string[] {
  const engine = new LoopEngine(options());
  try {
    return events.map((e) => {
      const line = Buffer.from(JSON.stringify(e));
      const [v] = engine.checkLines([line]);
      line.fill(0x20);
      return JSON.stringify(v);
    });
  } finally {
    engine.close();
  }
}

function fromObjects(events: readonly SessionEvent[]): string[] {
  const engine = new LoopEngine(options());
  try {
    return events.map((e) => JSON.stringify(engine.checkBatch([e])[0]));
  } finally {
    engine.close();
  }
}

describe('previews of calls read from bytes', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('give the messages of the same calls given as objects, the bytes reused after each check', () => {
    fc.assert(
      fc.property(cycles, (events) => {
        expect(fromLines(events)).toEqual(fromObjects(events));
      }),
      { numRuns: runs(300) },
    );
  });

  it('parse no args where the text gives the preview, also for a unit named after its bytes are gone', () => {
    const value = vi.spyOn(JsonArgsText.prototype, 'value');
    // A B C A B C ...: each verdict names the three calls of its unit, two of them checked in earlier batches
    const events = Array.from({ length: 12 }, (_, i): SessionEvent => ({ session: 's', tool: 'edit', args: { path: `f${i % 3}`, ts: `t${i}`, ...(i % 3 === 2 ? { body: 'z'.repeat(300) } : {}) }, result: 'same' }));
    const got = fromLines(events);
    expect(value).not.toHaveBeenCalled();
    expect(got).toEqual(fromObjects(events));
    expect(got.filter((v) => v.includes('repeated')).length).toBeGreaterThan(3);
    expect((JSON.parse(got.at(-1) as string) as { pattern: string }).pattern).toContain('edit {"path":"f0","ts":"t9"} → edit {"path":"f1","ts":"t10"} → edit {"path":"f2","ts":"t11","body":"zzz');
  });

  it('are in a snapshot taken while the text is kept, as the same calls given as objects leave them', () => {
    fc.assert(
      fc.property(cycles, fc.nat(39), (events, at) => {
        const cut = Math.min(at, events.length - 1);
        const snap = (lines: boolean): string[] => {
          const engine = new LoopEngine(options());
          try {
            for (const e of events.slice(0, cut)) {
              if (lines) engine.checkLines([Buffer.from(JSON.stringify(e))]);
              else engine.checkBatch([e]);
            }
            const taken = ['s0', 's1'].map((id) => engine.snapshot(id));
            const again = new LoopEngine(options());
            try {
              taken.forEach((b, k) => b !== null && again.restore(`s${k}`, b));
              return events.slice(cut).map((e) => JSON.stringify(again.checkBatch([e])[0]));
            } finally {
              again.close();
            }
          } finally {
            engine.close();
          }
        };
        expect(snap(true)).toEqual(snap(false));
      }),
      { numRuns: runs(100) },
    );
  });
});
