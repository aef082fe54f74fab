/**
 * Both engines on every call of the real agent traces: identical verdicts, call by call, under several
 * option sets and with args as objects and as JSON text. Skipped when `../shared/data/traces` is absent.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector, presetOptions } from '../src/index.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import { traceCalls, traceDir as dir } from './helpers/traces.js';

/** Calls where the engines disagree (at most 3 kept, as text for the failure message). */
function differences(calls: readonly [string, ToolEvent][], options: LoopDetectorOptions): { count: number; verdicts: number; first: string[] } {
  const sessions = new Map<string, [LoopDetector, LoopDetector]>();
  let count = 0;
  let verdicts = 0;
  const first: string[] = [];
  for (const [id, e] of calls) {
    let pair = sessions.get(id);
    if (pair === undefined) {
      pair = [new LoopDetector({ ...options, engine: 'wasm' }), new LoopDetector({ ...options, engine: 'reference' })];
      sessions.set(id, pair);
    }
    const a = JSON.stringify(pair[0].check(e));
    const b = JSON.stringify(pair[1].check(e));
    if (b !== 'null') verdicts++;
    if (a !== b) {
      count++;
      if (first.length < 3) first.push(`${id}: wasm ${a.slice(0, 200)} / reference ${b.slice(0, 200)}`);
    }
  }
  for (const [w] of sessions.values()) w.dispose();
  return { count, verdicts, first };
}

describe.skipIf(dir === null)('both engines on the real traces', () => {
  const calls = dir === null ? [] : traceCalls();
  const asJson = calls.map(([id, e]): [string, ToolEvent] => [id, typeof e.args === 'object' && e.args !== null ? { ...e, args: JSON.stringify(e.args) } : e]);

  // results as SDKs hand them over: a value with an output field (or error), not a string
  const asValues = calls.map(([id, e]): [string, ToolEvent] => [id, typeof e.result === 'string' ? { ...e, result: { output: e.result } } : e]);

  it.each([
    ['default options, args as objects', calls, {}],
    ['default options, results given as values', asValues, {}],
    ['default options, args as JSON text', asJson, {}],
    ['multiResolution preset, volatile parts masked, exact results', calls, { ...presetOptions.multiResolution(), normalizeVolatile: true, detectors: { ...presetOptions.multiResolution().detectors, resultRepeat: { masked: false } } }],
  ] as const)('should give identical verdicts on every call: %s', (_name, stream, options) => {
    const d = differences(stream, options as LoopDetectorOptions);
    expect(d.first).toEqual([]);
    expect(d.count).toBe(0);
    expect(d.verdicts).toBeGreaterThan(100);
  });
});
