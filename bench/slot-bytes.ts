/**
 * Where a session's WebAssembly bytes go: `node dist/bench/slot-bytes.js [SESSIONS [calls [fixture|real]]]`
 * prints, for each configuration of the memory bench (memory-worker.ts), the slot's layout field by field
 * (each ring, the flags, the state ring's words and the block of keys beside the slot, the semantic entries), its size class, chanting's region, and the
 * module memory handed out per session (the memory top's growth, not the buffer's, which grows in steps)
 * after SESSIONS sessions x `calls` calls (default 1,000 x 100) of the RSS bench's stream or of the traces'.
 * A measuring tool, not a figure of the suite.
 */
import type { LoopDetectorOptions } from '../src/options/options.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { LoopEngine } from '../src/engine/loop-engine.js';
import * as A from '../src/wasm/generated/abi.js';
import { chantLayout } from '../src/wasm/chant-layout.js';
import { slotClassBytes } from '../src/wasm/session-capacity.js';
import { slotLayout } from '../src/wasm/slot-layout.js';
import { stateCapacity } from '../src/wasm/state-block.js';
import { sharedCore } from '../src/wasm/wasm-core.js';
import { CORE } from './index-core.js';
import { feed, warmUp } from './rss-stream.js';
import { feedReal, loadRealCalls } from './rss-real-stream.js';

const configs: [string, LoopDetectorOptions][] = [
  ['exact + frequency + cycle', { detectors: CORE }],
  ['... + result repeat', { detectors: { ...CORE, resultRepeat: true } }],
  ['... + semantic sketches', { detectors: { ...CORE, resultRepeat: true, semantic: true } }],
  ['every default detector', {}],
];

/** The slot's parts in bytes, in layout order. */
function parts(o: LoopDetectorOptions, calls: number): [string, number][] {
  const l = slotLayout(resolveOptions(o));
  const f = (k: number): number => l.fields.get(k) ?? 0;
  const names = ['sig', 'tool', 'outcome', 'masked', 'error'];
  const out: [string, number][] = [['header', A.SLOT_HEADER]];
  l.rings.forEach((r, k) => out.push([`${names[k]} ring (${r.cap})`, 4 * r.cap]));
  if (l.stateWindow !== 0) {
    // the ring's two words in the slot; its keys in a block beside it, as long as the calls seen (state-ring.ts)
    const cap = stateCapacity(calls % l.stateWindow, calls, l.stateWindow);
    out.push([`state ring's block and capacity (keys beside the slot: ${cap} of ${l.stateWindow} after ${calls} calls, ${cap === 0 ? 0 : slotClassBytes(cap * 4)} B)`, 8]);
  }
  out.push([`outcome flags (${l.rings[2]?.cap ?? 0})`, l.rings[2]?.cap ?? 0]);
  out.push([`semantic entries (${f(A.C_SEM_CAP)} x ${f(A.C_SEM_ENTRY)} B)`, f(A.C_SEM_CAP) * f(A.C_SEM_ENTRY)]);
  return out;
}

const [n = '1000', c = '100', stream = 'fixture'] = process.argv.slice(2);
const sessions = Number(n);
const calls = Number(c);
const real = stream === 'real' ? await loadRealCalls() : null;
const top = (): number => sharedCore().instance.views().u32[(A.HEADER + A.H_MEMTOP) >>> 2] as number;

for (const [name, o] of configs) {
  const r = resolveOptions(o);
  const l = slotLayout(r);
  console.log(`\n## ${name}: slot ${l.slotSize} B, class ${slotClassBytes(l.slotSize)} B`);
  for (const [part, bytes] of parts(o, calls)) if (bytes > 0) console.log(`| ${part} | ${bytes} B |`);
  if (r.detectors.chanting !== null) {
    const ch = chantLayout(r.detectors.chanting);
    console.log(`| chanting region (sessions with text) | ${ch.slotSize} B, class ${slotClassBytes(ch.slotSize)} B |`);
  }
  const engine = new LoopEngine({ ...o, maxSessions: Math.max(100_000, sessions) });
  warmUp(engine);
  const before = top();
  if (real === null) feed(engine, sessions, calls);
  else feedReal(engine, real, sessions, calls);
  console.log(`| module memory handed out per session after ${calls} ${real === null ? 'fixture' : 'real'} calls | ${((top() - before) / sessions).toFixed(0)} B |`);
  // the sessions stay: the next configuration carves its own slots
  (globalThis as { keep?: unknown[] }).keep = [...((globalThis as { keep?: unknown[] }).keep ?? []), engine];
}
