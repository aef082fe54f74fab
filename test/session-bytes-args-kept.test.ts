/**
 * Args read from a record's bytes (JsonArgsText) that a session keeps past their call's check (custom
 * detectors: the call log keeps every call's args in its window) are kept as their text, not as a view of
 * the record: a pool batch's buffer goes back to the calling thread after the batch, so a view kept past it
 * would be empty when a detector reads an earlier call's args. (Engines and pools, which read lines, take
 * no custom detectors today; a session given calls read from bytes must still never keep such a view.)
 */
import { describe, expect, it } from 'vitest';
import type { Detector, ObservedCall } from '../src/detectors/detector.js';
import { readEventLine } from '../src/formats/event-line.js';
import { LoopDetector } from '../src/session/loop-detector.js';
import { ALL_OFF } from './helpers/session.js';
import type { LoopSignal } from '../src/types.js';

/** Keeps every call it records and, at each check, reads the args of the calls before the newest. */
class ReadsEarlierArgs implements Detector {
  readonly name = 'reads_earlier_args';
  readonly calls: ObservedCall[] = [];
  readonly read: unknown[] = [];

  record(call: ObservedCall): void {
    this.calls.push(call);
  }

  check(): LoopSignal | null {
    this.read.length = 0;
    for (const c of this.calls.slice(0, -1)) this.read.push(c.args);
    return null;
  }

  reset(): void {
    this.calls.length = 0;
  }
}

/** Lines as views of one buffer, as a pool's worker reads them out of a batch. */
function batch(records: readonly object[]): { buffer: ArrayBuffer; lines: Uint8Array[] } {
  const parts = records.map((r) => Buffer.from(JSON.stringify(r)));
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const lines: Uint8Array[] = [];
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    lines.push(all.subarray(at, at + p.length));
    at += p.length;
  }
  return { buffer: all.buffer, lines };
}

describe('args kept past their batch', () => {
  it('should read an earlier call’s args after its batch’s buffer is gone', () => {
    const detector = new ReadsEarlierArgs();
    // nothing else reads the args as values (similar args would parse them during their own check)
    const session = new LoopDetector({ detectors: { ...ALL_OFF, exactRepeat: true }, custom: [detector] });
    const first = batch([{ session: 's', tool: 'bash', args: { command: 'ls -la', n: [1, 2] }, result: 'a' }]);
    const e1 = readEventLine(first.lines[0] as Uint8Array)?.event;
    expect(e1).toBeDefined();
    expect(session.check(e1 as NonNullable<typeof e1>)).toBeNull();
    // the batch's buffer goes elsewhere (as a pool's goes back to the calling thread): its views empty
    structuredClone(first.buffer, { transfer: [first.buffer] });
    expect(first.lines[0]?.length).toBe(0);
    const second = batch([{ session: 's', tool: 'bash', args: { command: 'pwd' }, result: 'b' }]);
    const e2 = readEventLine(second.lines[0] as Uint8Array)?.event;
    expect(session.check(e2 as NonNullable<typeof e2>)).toBeNull();
    expect(detector.read).toEqual([{ command: 'ls -la', n: [1, 2] }]);
  });
});
