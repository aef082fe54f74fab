/**
 * A call's error that is an object is read into its text once per call: validateEvent keeps the text (or
 * `true` for an empty one: as a LoopPool sends an error to its workers, wire/portable-values.ts) and every
 * part after it reads that, and LoopEngine hands the session the call it validated. Before, each part
 * (LoopEngine's check, the session's, check()'s, the outcome facts, the module's record writer) read the
 * object again: LiveGuard.record with a 1 MB string in each of 262,144 elements as its error took 0.33 s
 * of CPU (five walks of its fingerprint), now 0.10 s. The verdicts are the text's.
 */
import { describe, expect, it } from 'vitest';
import { LiveGuard, LoopDetector, LoopEngine } from '../src/index.js';
import { errorText } from '../src/text/outcome-text.js';

/** An error object whose members' reads are counted (`reads.n`). */
function countedError(reads: { n: number }): object {
  const target = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`line${i}`, `npm ERR! code ${i}`]));
  return new Proxy(target, {
    get(t, k, r) {
      if (typeof k === 'string' && k.startsWith('line')) reads.n++;
      return Reflect.get(t, k, r) as unknown;
    },
  });
}

/** Reads of one errorText of such an object. */
function oneReading(): number {
  const reads = { n: 0 };
  errorText(countedError(reads));
  return reads.n;
}

const call = (error: unknown) => ({ tool: 'Bash', args: { command: 'npm test' }, error, id: undefined });

describe('an error object, read once per call', () => {
  // against integ (43c0a5d): LiveGuard.record and LoopEngine.record read it 5 times, LoopDetector.check 3
  // times (both engines): 4 of 4 fail
  const entries: Record<string, (e: unknown) => Promise<unknown> | unknown> = {
    'LiveGuard.record': (e) => new LiveGuard().record('s', { tool: 'Bash', args: { command: 'npm test' }, error: e }),
    'LoopEngine.record': (e) => new LoopEngine().record('s', { tool: 'Bash', args: { command: 'npm test' }, error: e }),
    'LoopDetector.check': (e) => new LoopDetector().check(call(e)),
    'LoopDetector.check (reference)': (e) => new LoopDetector({ engine: 'reference' }).check(call(e)),
  };
  for (const [name, run] of Object.entries(entries)) {
    it(`should read it once in ${name}`, async () => {
      const reads = { n: 0 };
      await run(countedError(reads));
      expect(reads.n).toBe(oneReading());
    });
  }

  it('should give the verdicts its text gives, through LiveGuard and LoopDetector', async () => {
    const text = errorText(countedError({ n: 0 })) as string;
    const asObject = new LiveGuard();
    const asText = new LiveGuard();
    const objectActions: string[] = [];
    const textActions: string[] = [];
    for (let i = 0; i < 6; i++) {
      for (const [g, e, out] of [
        [asObject, countedError({ n: 0 }), objectActions],
        [asText, text, textActions],
      ] as const) {
        const p = await g.propose('s', { tool: 'Bash', args: { command: 'npm test' }, id: `c${i}` });
        const r = await g.record('s', { tool: 'Bash', args: { command: 'npm test' }, error: e, id: `c${i}` });
        out.push(`${p.action}/${r.verdict?.kind ?? '-'}`);
      }
    }
    expect(objectActions).toEqual(textActions);
    expect(textActions.some((a) => !a.startsWith('allow'))).toBe(true);
    // an object whose text is empty is a failure without a message, as `true` is
    const d1 = new LoopDetector();
    const d2 = new LoopDetector();
    const v1: unknown[] = [];
    const v2: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      v1.push(d1.check(call({ message: '' }))?.kind ?? null);
      v2.push(d2.check(call(true))?.kind ?? null);
    }
    expect(v1).toEqual(v2);
  });
});
