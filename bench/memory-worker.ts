/** The memory measurement, run in a child process of its own by memory.ts. */
import type { LoopDetectorOptions } from '../src/options/options.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { LoopDetector } from '../src/session/loop-detector.js';
import { slotLayout } from '../src/wasm/slot-layout.js';
import { sharedCore } from '../src/wasm/wasm-core.js';
import { CORE } from './index-core.js';
import type { MemoryFigure } from './memory.js';

const SESSIONS = 10_000;
const gc = (globalThis as { gc?: () => void }).gc;

function heap(): number {
  if (gc === undefined) return NaN;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const configs: [string, LoopDetectorOptions][] = [
  ['exact + frequency + cycle', { detectors: CORE }],
  ['exact + frequency + cycle + result repeat', { detectors: { ...CORE, resultRepeat: true } }],
  ['... + semantic sketches', { detectors: { ...CORE, resultRepeat: true, semantic: true } }],
  ['every default detector', {}],
];
const out: MemoryFigure[] = [];
for (const [name, o] of configs) {
  const memory = sharedCore().instance.memory;
  const wasmBefore = memory.buffer.byteLength;
  const heapBefore = heap();
  const sessions = Array.from({ length: SESSIONS }, () => new LoopDetector(o));
  const heapNew = heap();
  for (let r = 0; r < 30; r++) for (const d of sessions) d.check({ tool: 'bash', args: { command: `ls -la dir${r % 7}` }, result: `total ${r}` });
  const heapAfter = heap();
  out.push({
    detectors: name,
    slotBytes: slotLayout(resolveOptions(o)).slotSize,
    wasmBytes: (memory.buffer.byteLength - wasmBefore) / SESSIONS,
    jsHeapBytes: (heapNew - heapBefore) / SESSIONS,
    jsHeapAfterCallsBytes: (heapAfter - heapBefore) / SESSIONS,
  });
  // keep this configuration's slots: the next one must grow memory for its own
  (globalThis as { keep?: unknown[] }).keep = [...((globalThis as { keep?: unknown[] }).keep ?? []), sessions];
}
process.send?.(out, () => process.exit(0));
