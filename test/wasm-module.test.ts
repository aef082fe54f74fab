/**
 * The WebAssembly module's housekeeping: the ABI, slot sizes, slot reuse, configuration reuse, memory
 * growth, and trap isolation.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector, WasmTrapError, resolveOptions } from '../src/index.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import * as A from '../src/wasm/generated/abi.js';
import { slotLayout } from '../src/wasm/slot-layout.js';
import { armTrapForTesting, sharedCore } from '../src/wasm/wasm-core.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';
import { STOP_HASHES } from '../src/text/token-set.js';
import { ALL_OFF } from './helpers/session.js';

const slotOf = (d: LoopDetector): number => (d as unknown as { pipeline: { slot: number } }).pipeline.slot;

describe('WebAssembly module', () => {
  it('should export the constants the host was generated with', () => {
    const ex = sharedInstance().exports as unknown as Record<string, { value: number }>;
    for (const name of ['CONFIGS', 'CONFIG_SIZE', 'HEADER', 'MAGIC', 'OUT_SIZE', 'STOP_TABLE', 'MAX_CONFIGS', 'SLOT_HEADER'] as const) {
      expect((ex[name] as { value: number }).value >>> 0, name).toBe((A as unknown as Record<string, number>)[name]);
    }
    expect([...STOP_HASHES].includes(0)).toBe(false);
  });

  it('should keep a session in at most 352 bytes for exact + frequency + cycle + result, 4 KiB with semantic sketches', () => {
    const size = (o: LoopDetectorOptions) => slotLayout(resolveOptions(o)).slotSize;
    const core = { ...ALL_OFF, exactRepeat: true, frequency: true, cycle: true, resultRepeat: true } as const;
    // 336: the rings of signatures, tools, outcomes, flags and error classes (error classes are compared by
    // repeated calls that fail; tools by result repeat, for varied calls of one tool with the same answer)
    expect(size({ detectors: core })).toBeLessThanOrEqual(352);
    expect(size({ detectors: { ...core, semantic: true } })).toBeLessThanOrEqual(4096);
    // every default detector (state repeat keeps a 500-call ring of its own)
    expect(size({})).toBeLessThanOrEqual(6144);
  });

  it('should reuse freed slots and configuration ids instead of growing', () => {
    const inst = sharedInstance();
    const churn = () => {
      // 600 detectors over 300 distinct configurations: more than the config table holds at once
      for (let i = 0; i < 600; i++) {
        const d = new LoopDetector({ engine: 'wasm', detectors: { exactRepeat: { threshold: 2, window: 10 + (i % 300) } } });
        d.check({ tool: 't', args: { i } });
        d.dispose();
      }
    };
    churn();
    const before = inst.memory.buffer.byteLength;
    churn();
    churn();
    expect(inst.memory.buffer.byteLength).toBe(before);
  });

  it('should serve many live sessions across memory growth', () => {
    const sessions = Array.from({ length: 3000 }, () => new LoopDetector({ engine: 'wasm' }));
    const e: ToolEvent = { tool: 'bash', args: { command: 'ls' }, result: 'a' };
    for (const d of sessions) d.check(e);
    for (const d of sessions) d.check(e);
    expect(sessions.map((d) => d.check(e)?.kind)).toEqual(sessions.map(() => 'exact_repeat'));
    for (const d of sessions) d.dispose();
  });

  it('should contain a trap to the call and session that caused it', () => {
    const a = new LoopDetector({ engine: 'wasm' });
    const b = new LoopDetector({ engine: 'wasm' });
    const ref = new LoopDetector({ engine: 'reference' });
    const e = (i: number): ToolEvent => ({ tool: 'search', args: { q: `q${i % 3}` }, result: `r${i % 3}` });
    const bVerdicts: string[] = [];
    const refVerdicts: string[] = [];
    for (let i = 0; i < 6; i++) {
      a.check(e(i));
      bVerdicts.push(JSON.stringify(b.check(e(i))));
      refVerdicts.push(JSON.stringify(ref.check(e(i))));
    }
    const recoveries = sharedInstance().recoveries;
    armTrapForTesting(slotOf(a));
    expect(() => a.check(e(6))).toThrow(WasmTrapError);
    expect(sharedInstance().recoveries).toBe(recoveries + 1);
    // the other session never noticed
    for (let i = 6; i < 12; i++) {
      bVerdicts.push(JSON.stringify(b.check(e(i))));
      refVerdicts.push(JSON.stringify(ref.check(e(i))));
    }
    expect(bVerdicts).toEqual(refVerdicts);
    // the trapped session stays quarantined until reset()
    expect(() => a.check(e(7))).toThrow(/quarantined/);
    a.reset();
    expect(() => a.check(e(0))).not.toThrow();
    a.dispose();
    b.dispose();
    expect(sharedCore().count(slotOf(b))).toBe(0);
  });

  it('should throw a trap out of checkMany and quarantine only that session', () => {
    const a = new LoopDetector({ engine: 'wasm' });
    const b = new LoopDetector({ engine: 'wasm' });
    const e: ToolEvent = { tool: 'search', args: { q: 'x' } };
    armTrapForTesting(slotOf(a));
    expect(() => a.checkMany([e, e, e])).toThrow(WasmTrapError);
    expect(() => a.checkMany([e])).toThrow(/quarantined/);
    expect(b.checkMany([e, e, e]).map((v) => v?.kind ?? null)).toEqual([null, null, 'exact_repeat']);
    a.reset();
    expect(a.checkMany([e, e, e]).map((v) => v?.kind ?? null)).toEqual([null, null, 'exact_repeat']);
    a.dispose();
    b.dispose();
  });

  it('should refuse a disposed detector clearly', () => {
    const d = new LoopDetector({ engine: 'wasm' });
    d.dispose();
    expect(() => d.check({ tool: 't' })).toThrow(/disposed/);
  });
});
