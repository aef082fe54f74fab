/**
 * Where a session's bytes are: `node --expose-gc dist/bench/session-heap.js core|all SESSIONS [calls [depth
 * [fixture|real]]]` runs SESSIONS sessions x `calls` (default 100) calls of the RSS bench's stream (rss-stream.ts,
 * or with `real` the traces' calls as session-rss-worker.ts feeds them, rss-real-stream.ts) through a LoopEngine, takes a V8 heap snapshot before and after, and prints per session: the JS heap's
 * bytes grouped by what holds them (object kind and constructor, with the property or element that first
 * reaches it, and with `depth` > 1 what holds that), the WebAssembly memory's growth and the ArrayBuffers' (outside the JS heap, in RSS).
 * A measuring tool, not a figure of the suite: snapshots of many sessions take a while and much memory.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { LoopEngine } from '../src/engine/loop-engine.js';
import { sharedCore } from '../src/wasm/wasm-core.js';
import { FLEET_DETECTORS } from './fleet-bench.js';
import { feed, warmUp } from './rss-stream.js';
import { feedReal, loadRealCalls } from './rss-real-stream.js';
import { type HeapSnapshot, snapshotLayout } from './heap-owners.js';

/** Bytes and counts by group: `kind name <- owner.edge`. */
type Groups = Map<string, { bytes: number; count: number }>;

function groups(file: string): Groups {
  const s = JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot;
  const { nodeTypes, edgeTypes, N, E, iType, iName, iSize, iEdges, eType, eName, eTo, count } = snapshotLayout(s);
  const label = (k: number): string => {
    const type = nodeTypes[s.nodes[k * N + iType] as number] as string;
    const name = s.strings[s.nodes[k * N + iName] as number] as string;
    return type === 'object' || type === 'closure' || type === 'hidden' ? `${type} ${name.slice(0, 40)}` : type === 'array' ? `array ${name}` : type;
  };
  const owner = new Int32Array(count).fill(-1);
  const via: string[] = new Array<string>(count);
  let e = 0;
  for (let k = 0; k < count; k++) {
    const edges = s.nodes[k * N + iEdges] as number;
    for (let j = 0; j < edges; j++, e += E) {
      const t = edgeTypes[s.edges[e + eType] as number];
      if (t === 'weak' || t === 'shortcut') continue;
      const child = (s.edges[e + eTo] as number) / N;
      if (owner[child] !== -1) continue;
      owner[child] = k;
      const name = t === 'element' || t === 'hidden' ? '[]' : String(s.strings[s.edges[e + eName] as number]);
      via[child] = /^\d+$/.test(name) ? '[]' : name.slice(0, 30);
    }
  }
  const out: Groups = new Map();
  for (let k = 0; k < count; k++) {
    let key = label(k);
    for (let at = k, d = 0; d < DEPTH; d++) {
      const o = owner[at] as number;
      key += ` <- ${o === -1 ? '(root)' : `${label(o)}.${via[at]}`}`;
      if (o === -1) break;
      at = o;
    }
    const g = out.get(key) ?? { bytes: 0, count: 0 };
    g.bytes += s.nodes[k * N + iSize] as number;
    g.count++;
    out.set(key, g);
  }
  return out;
}

const [which = 'core', n = '2000', c = '100', depth = '1', stream = 'fixture'] = process.argv.slice(2);
const real = stream === 'real' ? await loadRealCalls() : null;
// parsing a text flattens it where it lies: done now, the first feed's parses change no string between the snapshots
if (real !== null) for (const t of real) JSON.parse(t);
/** How many holders each group names (1: the direct one). */
const DEPTH = Number(depth);
/** Groups below this many bytes per session are left out of the table. */
const MIN_BYTES = Number(process.env.MIN_BYTES ?? 4);
const sessions = Number(n);
const calls = Number(c);
const gc = (globalThis as { gc?: () => void }).gc;
const engine = new LoopEngine({ ...FLEET_DETECTORS[which as 'core' | 'all'], maxSessions: Math.max(100_000, sessions) });
warmUp(engine);
// both snapshots are written before either is read, so what reading makes is in neither
const snap = (tag: string): string => {
  gc?.();
  gc?.();
  return writeHeapSnapshot(join(tmpdir(), `loopwatch-${process.pid}-${tag}.heapsnapshot`));
};
const read = (file: string): Groups => {
  try {
    return groups(file);
  } finally {
    rmSync(file);
  }
};
const wasmBytes = (): number => sharedCore().instance.memory.buffer.byteLength;
const beforeFile = snap('before');
const wasm0 = wasmBytes();
const ab0 = process.memoryUsage().arrayBuffers;
if (real === null) feed(engine, sessions, calls);
else feedReal(engine, real, sessions, calls);
const afterFile = snap('after');
const wasm1 = wasmBytes();
const ab1 = process.memoryUsage().arrayBuffers;
const before = read(beforeFile);
const after = read(afterFile);

const rows: [string, number, number][] = [];
let total = 0;
for (const [key, g] of after) {
  const b = before.get(key) ?? { bytes: 0, count: 0 };
  const bytes = (g.bytes - b.bytes) / sessions;
  const count = (g.count - b.count) / sessions;
  total += bytes;
  if (Math.abs(bytes) >= MIN_BYTES) rows.push([key, bytes, count]);
}
rows.sort((a, b) => b[1] - a[1]);
// the engine is read after the snapshot: otherwise V8 may see it dead and collect it before
console.log(`${which} (${stream}): ${engine.size} sessions x ${calls} calls; per session:`);
console.log(`  heap snapshot, self sizes (the module memory's growth included, as native): ${total.toFixed(0)} B`);
console.log(`  WebAssembly memory growth: ${((wasm1 - wasm0) / sessions).toFixed(0)} B (slot ${sharedCore().layout(0).slotSize} B)`);
console.log(`  ArrayBuffers (outside the heap, the module's memory included): ${((ab1 - ab0) / sessions).toFixed(0)} B`);
console.log('| bytes | objects | what <- held by |');
console.log('|---:|---:|---|');
for (const [key, bytes, count] of rows) console.log(`| ${bytes.toFixed(0)} | ${count.toFixed(2)} | ${key.replaceAll('|', '\\|')} |`);
