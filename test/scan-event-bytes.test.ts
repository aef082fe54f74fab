/**
 * Reading events-format lines from their bytes is a saving only: the items an input gives, and the
 * verdicts they get on both engines and through a pool's worker (where a result still in its bytes travels
 * as bytes), are the same with it on and off, on random inputs and on the real traces.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopEngine, sessionEvent } from '../src/engine/loop-engine.js';
import { DEFAULT_MAX_LINE_BYTES } from '../src/formats/line-reader.js';
import { readInputBatches, setEventLineReading } from '../src/formats/read-input.js';
import type { TraceItem } from '../src/formats/trace-record.js';
import { LoopPool } from '../src/pool/loop-pool.js';
import { plainValue } from '../src/wasm/raw-json-string.js';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { runs } from './helpers/streams.js';
import { traceDir } from './helpers/traces.js';

async function items(file: string, bytes: boolean): Promise<TraceItem[]> {
  setEventLineReading(bytes);
  const out: TraceItem[] = [];
  for await (const batch of readInputBatches(file, { file, name: file }, { maxLineBytes: DEFAULT_MAX_LINE_BYTES })) out.push(...batch);
  return out;
}

/** The items with every value as parsing gives it (args JSON text parsed, results made strings). */
function comparable(list: readonly TraceItem[]): unknown[] {
  return list.map((it) => {
    if (it.kind !== 'call') return it;
    const args = typeof it.event.args === 'string' && /^\s*[[{]/.test(it.event.args) ? (JSON.parse(it.event.args) as unknown) : it.event.args;
    return { ...it, event: { ...it.event, args, result: plainValue(it.event.result) } };
  });
}

function calls(list: readonly TraceItem[]): ReturnType<typeof sessionEvent>[] {
  return list.flatMap((it) => (it.kind === 'call' ? [sessionEvent(`${it.file}\u0000${it.session}`, it.event)] : []));
}

function engineVerdicts(list: readonly TraceItem[], engine: 'wasm' | 'reference'): string[] {
  const e = new LoopEngine({ engine, maxSessions: 100_000, idleTtlMs: 0 });
  const out = e.checkBatch(calls(list)).map((v) => (v instanceof Error ? `error: ${v.message}` : JSON.stringify(v)));
  e.close();
  return out;
}

const callLine = fc.record({
  session: fc.constantFrom('a', 'b', 'c'),
  tool: fc.constantFrom('read', 'edit', 'run'),
  args: fc.oneof(fc.constantFrom({ path: '/x.py' }, { path: '/y.py' }, { cmd: 'pytest -q' }), fc.dictionary(fc.constantFrom('k', 'q'), fc.string({ maxLength: 6 }), { maxKeys: 2 })),
  result: fc.oneof(fc.constantFrom('ok', 'No matches found', 'line 1\nline 2\n', 'still running', ''), fc.string({ maxLength: 40 }), fc.constant(null)),
  error: fc.oneof(fc.constant(undefined), fc.constantFrom('Traceback: boom', 'timeout after 30s')),
  text: fc.oneof(fc.constant(undefined), fc.constantFrom('Let me try again.', 'I will read the file.\n\nThen edit it.')),
});
/** Lines as found in the wild: mostly calls, some not ASCII, malformed or of another shape. */
const line = fc.oneof(
  { weight: 8, arbitrary: callLine.map((r) => JSON.stringify(r)) },
  { weight: 1, arbitrary: callLine.map((r) => JSON.stringify({ ...r, result: `café ${String(r.result)}` })) },
  { weight: 1, arbitrary: fc.constantFrom('{"session":"a","tool":', 'not json', '{"session":"a"}', '{"id":"b","tool":"read","args":{}}', '') },
);

describe('events-format lines read from their bytes, end to end', () => {
  afterEach(() => setEventLineReading(true));

  it('gives the same items and verdicts on random inputs (both engines)', async () => {
    const dir = tempDir();
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 60 }), async (lines) => {
        const file = writeJsonl(dir, 'events.jsonl', [JSON.stringify({ session: 'first', tool: 'read', args: {} }), ...lines]);
        const fast = await items(file, true);
        const slow = await items(file, false);
        expect(comparable(fast)).toEqual(comparable(slow));
        for (const engine of ['wasm', 'reference'] as const) expect(engineVerdicts(fast, engine)).toEqual(engineVerdicts(slow, engine));
      }),
      { numRuns: runs(60) },
    );
  });

  it('sends results still in their bytes through a pool worker, with the same verdicts', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify({ session: `s${i % 3}`, tool: 'read', args: { path: '/x.py' }, result: i % 2 === 0 ? 'same\n"text"' : 'same\n"text"' }));
    const file = writeJsonl(tempDir(), 'events.jsonl', lines);
    const fast = await items(file, true);
    const pool = new LoopPool({ workers: 1 });
    try {
      const pooled = (await pool.checkBatch(calls(fast))).map((v) => (v instanceof Error ? `error: ${v.message}` : JSON.stringify(v)));
      expect(pooled).toEqual(engineVerdicts(await items(file, false), 'wasm'));
      expect(pooled.some((v) => v !== 'null')).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it.skipIf(traceDir === null)('gives the same verdicts on the real traces', async () => {
    const file = join(traceDir as string, 'events.jsonl.gz');
    const fast = await items(file, true);
    const slow = await items(file, false);
    expect(fast.length).toBe(slow.length);
    expect(engineVerdicts(fast, 'wasm')).toEqual(engineVerdicts(slow, 'wasm'));
  }, 120_000);
});
