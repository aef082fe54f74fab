/**
 * A session's own bytes: `node --expose-gc dist/bench/session-objects.js core|all [SESSIONS [calls
 * [fixture|real|real-lines]]]` runs SESSIONS sessions x `calls` calls (default 300 x 100) of the RSS bench's stream (or
 * with `real` the traces' calls, rss-real-stream.ts; `real-lines` those calls as events-format records' bytes,
 * through `checkLines`) through a LoopEngine, takes one V8 heap snapshot and
 * walks it from each session's LoopDetector: a node reached from one session only is that session's (its
 * options, hidden classes, code and what the thread shares are reached from many, or skipped). It prints per
 * session those JavaScript objects grouped by kind and the holder's field that reaches them, and the module
 * memory the sessions were handed (the memory top's growth, as slot-bytes.ts measures it). Unlike
 * session-heap.ts (a difference of two snapshots), what the thread's caches and the JIT make between the
 * snapshots is not counted. It prints too the mean a platform pays, from the process's figures alone (the
 * V8 heap in use after a collection, array buffers' bytes and the module memory's top, grown over the
 * second engine's stream, divided by its sessions), so the walk's attribution can be checked against it
 * (docs/speed.md, mem40). A measuring tool, not a figure of the suite.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { LoopEngine } from '../src/engine/loop-engine.js';
import * as A from '../src/wasm/generated/abi.js';
import { sharedCore } from '../src/wasm/wasm-core.js';
import { sharedWordBytes } from '../src/state/word-blocks.js';
import { sharedSummaryBytes } from '../src/state/summary-blocks.js';
import { FLEET_DETECTORS } from './fleet-bench.js';
import { feed, warmUp } from './rss-stream.js';
import { feedReal, feedRealLines, loadRealCalls } from './rss-real-stream.js';
import { type HeapSnapshot, ownBytes } from './heap-owners.js';

const [which = 'core', n = '300', c = '100', stream = 'fixture'] = process.argv.slice(2);
const real = stream === 'real' || stream === 'real-lines' ? await loadRealCalls() : null;
const sessions = Number(n);
const calls = Number(c);
const gc = (globalThis as { gc?: () => void }).gc;
const options = { ...FLEET_DETECTORS[which as 'core' | 'all'], maxSessions: Math.max(100_000, sessions) };
const run = (e: LoopEngine): void => {
  if (real === null) feed(e, sessions, calls);
  else if (stream === 'real-lines') feedRealLines(e, real, sessions, calls);
  else feedReal(e, real, sessions, calls);
};
// The same stream through a first engine, kept alive while the second runs: the thread's areas (the
// module's input, output and byte regions, sized by the largest batch; the shared word and summary blocks' chunks) are
// then as large as this stream needs, so the second engine's growth is its sessions' alone.
let warm: LoopEngine | null = new LoopEngine(options);
warmUp(warm);
run(warm);
const engine = new LoopEngine(options);
const top = (): number => sharedCore().instance.views().u32[(A.HEADER + A.H_MEMTOP) >>> 2] as number;
/** The process's figures a session's memory lands in: the V8 heap in use after a collection, array buffers' bytes (the thread's word and summary chunks, views' buffers) and the module memory's top. */
const processBytes = (): { heap: number; arrayBuffers: number; top: number } => {
  gc?.();
  gc?.();
  const u = process.memoryUsage();
  return { heap: u.heapUsed, arrayBuffers: u.arrayBuffers, top: top() };
};
const processBefore = processBytes();
const before = top();
const wordsBefore = sharedWordBytes();
const summariesBefore = sharedSummaryBytes();
run(engine);
const moduleBytes = (top() - before) / sessions;
const sharedWords = (sharedWordBytes() - wordsBefore) / sessions;
const sharedSummaries = (sharedSummaryBytes() - summariesBefore) / sessions;
const processAfter = processBytes();
const grown = (k: 'heap' | 'arrayBuffers' | 'top'): number => (processAfter[k] - processBefore[k]) / sessions;
warm.close();
warm = null;
gc?.();
gc?.();
const file = writeHeapSnapshot(join(tmpdir(), `loopwatch-${process.pid}-objects.heapsnapshot`));
let snapshot: HeapSnapshot;
try {
  snapshot = JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot;
} finally {
  rmSync(file);
}
const { groups, sessions: found, median } = ownBytes(snapshot);
let total = 0;
let nodes = 0;
for (const g of groups.values()) {
  total += g.bytes;
  nodes += g.count;
}
// the engine is read after the snapshot: otherwise V8 may see it dead and collect it before
console.log(`${which} (${stream}): ${engine.size} sessions x ${calls} calls (${found} found in the snapshot); per session:`);
console.log(`  JavaScript objects of its own: ${(total / found).toFixed(0)} B in ${(nodes / found).toFixed(1)} nodes (median session ${median.toFixed(0)} B)`);
console.log(`  module memory handed out: ${moduleBytes.toFixed(0)} B (its growth over the stream's second run)`);
console.log(`  the thread's word chunks' growth (call logs', recent words, summary tables, chanting's boundaries: src/state/word-blocks.ts): ${sharedWords.toFixed(0)} B`);
console.log(`  the thread's summary chunks' growth (similar args' summaries: src/state/summary-blocks.ts): ${sharedSummaries.toFixed(0)} B`);
const outside = moduleBytes + sharedWords + sharedSummaries;
console.log(`  together: ${(total / found + outside).toFixed(0)} B (median session: ${(median + outside).toFixed(0)} B)`);
// the mean from the process alone, not the walk: what N sessions cost the process, over N
const mean = grown('heap') + grown('arrayBuffers') + grown('top');
console.log(`  the mean a platform pays, from the process's growth: ${mean.toFixed(0)} B (V8 heap in use ${grown('heap').toFixed(0)} + array buffers ${grown('arrayBuffers').toFixed(0)} + module memory's top ${grown('top').toFixed(0)})${gc === undefined ? '; not a session\'s without node --expose-gc: the heap was not collected' : ''}`);
console.log('| bytes | nodes | what <- held by |');
console.log('|---:|---:|---|');
const rows = [...groups].sort((a, b) => b[1].bytes - a[1].bytes);
for (const [key, g] of rows) if (g.bytes / found >= 2) console.log(`| ${(g.bytes / found).toFixed(0)} | ${(g.count / found).toFixed(2)} | ${key.replaceAll('|', '\\|')} |`);
