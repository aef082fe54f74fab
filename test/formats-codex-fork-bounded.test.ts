/**
 * A forked Codex rollout whose copy of its parent's history never ends (no fork output) was held whole
 * until the end of the file (hostile8's note: 64,000 calls, 197 MB RSS against 149 MB unforked; hostile9
 * measured 302 MB against 159 MB for a 59 MB rollout). The copy is now held at most MAX_FORK_COPY_BYTES
 * (valueWeight of its lines): past it the reader says so once (a note) and reads the copy's calls, and
 * every line after, as the session's own, at once, holding nothing more. A copy that ends is let go.
 */
import { describe, expect, it } from 'vitest';
import { MAX_FORK_COPY_BYTES, ForkCopy } from '../src/formats/codex-fork.js';
import { createCodexReader } from '../src/formats/codex.js';
import type { RecordUnit } from '../src/formats/read-records.js';
import type { TraceItem } from '../src/formats/trace-record.js';
import { VALUE_WEIGHT, valueWeight } from '../src/formats/value-weight.js';

const at = '2026-04-04T02:15:53.623Z';
const meta = (payload: object) => ({ timestamp: at, type: 'session_meta', payload: { cwd: '/app', cli_version: '0.118.0', ...payload } });
const item = (payload: object) => ({ timestamp: at, type: 'response_item', payload });
const BIG = 'x'.repeat(1 << 20); // one string shared by every output: the test holds it once
const call = (i: number) => item({ type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: `cat part-${i}` }), call_id: `c${i}` });
const output = (i: number) => item({ type: 'function_call_output', call_id: `c${i}`, output: BIG });

/** Feeds `values` to a Codex reader line by line: what came out, and the line each item came out at. */
function read(values: readonly unknown[]): { items: TraceItem[]; at: number[] } {
  const reader = createCodexReader({ file: 'rollout.jsonl', name: 'rollout.jsonl' });
  const items: TraceItem[] = [];
  const atLine: number[] = [];
  values.forEach((value, i) => {
    const unit: RecordUnit = { kind: 'record', value, file: 'rollout.jsonl', line: i + 1, fallbackSession: `rollout.jsonl:${i + 1}` };
    for (const x of reader.record(unit)) {
      items.push(x);
      atLine.push(i + 1);
    }
  });
  for (const x of reader.finish()) {
    items.push(x);
    atLine.push(values.length + 1);
  }
  return { items, at: atLine };
}

const callsOf = (items: readonly TraceItem[]) => items.flatMap((x) => (x.kind === 'call' ? [[x.session, x.event.tool, x.event.args]] : []));

describe('a forked Codex rollout whose copy never ends', () => {
  const pairs = Math.ceil(MAX_FORK_COPY_BYTES / (1 << 20)) + 20; // past the cap by some 20 MiB
  const body = Array.from({ length: pairs }, (_, i) => [call(i), output(i)]).flat();
  const forked = [meta({ id: 'child', forked_from_id: 'parent' }), meta({ id: 'parent' }), ...body];

  it('should read its calls as the session\'s own once the copy passes MAX_FORK_COPY_BYTES, not at the end, with a note', () => {
    const { items, at: seen } = read(forked);
    const notes = items.filter((x) => x.kind === 'note');
    expect(notes).toEqual([{ kind: 'note', file: 'rollout.jsonl', line: 2, message: expect.stringContaining(`passed ${MAX_FORK_COPY_BYTES >> 20} MiB without the fork's own output`) }]);
    // the note and the first calls come out at the line that passed the cap, some 20 MiB before the end
    const noteLine = seen[items.indexOf(notes[0] as TraceItem)] as number;
    expect(noteLine).toBeLessThan(forked.length - 30);
    expect(noteLine).toBeGreaterThan(2 * Math.floor(MAX_FORK_COPY_BYTES / ((1 << 20) + 2 * VALUE_WEIGHT)) - 4);
    const firstCall = items.findIndex((x) => x.kind === 'call');
    expect(seen[firstCall]).toBeLessThanOrEqual(noteLine + 1);
    // every call read, as the same rollout without the fork would be
    const plain = read([meta({ id: 'child' }), ...body]);
    expect(callsOf(items)).toEqual(callsOf(plain.items));
    expect(callsOf(items)).toHaveLength(pairs);
  });

  it('should hold a copy under the cap until its end, and read it then, as before', () => {
    const small = [meta({ id: 'child', forked_from_id: 'parent' }), meta({ id: 'parent' }), call(1), output(1), call(2), output(2)];
    const { items, at: seen } = read(small);
    expect(items.filter((x) => x.kind === 'note')).toEqual([]);
    expect(callsOf(items)).toHaveLength(2);
    expect(seen[items.findIndex((x) => x.kind === 'call')]).toBe(small.length + 1); // at the end
  });
});

describe('ForkCopy', () => {
  it('should be full once its lines weigh more than its cap, and let a copy that ended go', () => {
    const copy = new ForkCopy(1500);
    const line = { type: 'response_item', payload: { type: 'message', text: 'y'.repeat(400) } };
    copy.take(line, line, undefined, line.payload);
    copy.take(line, line, undefined, line.payload);
    expect(copy.full).toBe(false);
    copy.take(line, line, undefined, line.payload);
    expect(copy.full).toBe(true);
    expect(valueWeight(line)).toBe(5 * VALUE_WEIGHT + 'type'.length + 'response_item'.length + 'payload'.length + 'type'.length + 'message'.length + 'text'.length + 400);
  });
});
