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
 * snapshots is not counted. A measuring tool, not a figure of the suite.
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

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** Fields not followed: what many sessions share (options, the thread's core, hidden classes and prototypes). */
const SHARED_EDGES: ReadonlySet<string> = new Set(['map', '__proto__', 'constructor', 'options', 'o', 'p', 'core', 'rungs', 'retention', 'turns']);

/** Bytes and node counts per group (`kind <- holder.field`) of the nodes one session alone reaches, and the sessions found. */
function ownBytes(s: HeapSnapshot): { groups: Map<string, { bytes: number; count: number }>; sessions: number; median: number } {
  const nf = s.snapshot.meta.node_fields;
  const ef = s.snapshot.meta.edge_fields;
  const nodeTypes = s.snapshot.meta.node_types[0];
  const edgeTypes = s.snapshot.meta.edge_types[0];
  const N = nf.length;
  const E = ef.length;
  const [iType, iName, iSize, iEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) => nf.indexOf(f)) as [number, number, number, number];
  const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f)) as [number, number, number];
  const count = s.nodes.length / N;
  const firstEdge = new Int32Array(count + 1);
  for (let k = 0, e = 0; k < count; k++) {
    firstEdge[k] = e;
    e += s.nodes[k * N + iEdges] as number;
    firstEdge[k + 1] = e;
  }
  const type = (k: number): string => nodeTypes[s.nodes[k * N + iType] as number] as string;
  const name = (k: number): string => s.strings[s.nodes[k * N + iName] as number] as string;
  const label = (k: number): string => (['object', 'closure', 'hidden', 'native'].includes(type(k)) ? `${type(k)} ${name(k).slice(0, 40)}` : type(k));
  const roots: number[] = [];
  for (let k = 0; k < count; k++) if (type(k) === 'object' && name(k) === 'LoopDetector') roots.push(k);
  // the session that reached a node first, -2 once a second one does
  const owner = new Int32Array(count).fill(-1);
  const via: string[] = new Array<string>(count);
  roots.forEach((r, i) => {
    owner[r] = i;
    via[r] = '(the session)';
  });
  roots.forEach((r, i) => {
    const stack = [r];
    while (stack.length !== 0) {
      const k = stack.pop() as number;
      for (let j = firstEdge[k] as number; j < (firstEdge[k + 1] as number); j++) {
        const t = edgeTypes[s.edges[j * E + eType] as number];
        if (t === 'weak' || t === 'shortcut') continue;
        const field = t === 'element' || t === 'hidden' ? '[]' : String(s.strings[s.edges[j * E + eName] as number]);
        if (SHARED_EDGES.has(field)) continue;
        // a call log's and the recent words' words, similar args' summary table and chanting's boundaries are blocks of the thread's chunks, which the line "word chunks" counts
        if ((field === 'words' && (name(k) === 'CallLog' || name(k) === 'RecentWords')) || (field === 'table' && name(k) === 'SummaryRing') || (field === 'bound' && name(k) === 'ChantingDetector')) continue;
        const child = (s.edges[j * E + eTo] as number) / N;
        if (['code', 'closure', 'synthetic'].includes(type(child))) continue;
        if (owner[child] === -1) {
          owner[child] = i;
          via[child] = `${label(k).replace(/^object /, '')}.${/^\d+$/.test(field) ? '[]' : field}`;
          stack.push(child);
        } else if (owner[child] !== i) owner[child] = -2;
      }
    }
  });
  const groups = new Map<string, { bytes: number; count: number }>();
  const perSession = new Float64Array(roots.length);
  for (let k = 0; k < count; k++) {
    if ((owner[k] as number) < 0) continue;
    perSession[owner[k] as number] = (perSession[owner[k] as number] as number) + (s.nodes[k * N + iSize] as number);
    const key = `${label(k)} <- ${via[k]}`;
    const g = groups.get(key) ?? { bytes: 0, count: 0 };
    g.bytes += s.nodes[k * N + iSize] as number;
    g.count++;
    groups.set(key, g);
  }
  perSession.sort();
  return { groups, sessions: roots.length, median: perSession[perSession.length >> 1] ?? 0 };
}

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
const before = top();
const wordsBefore = sharedWordBytes();
const summariesBefore = sharedSummaryBytes();
run(engine);
const moduleBytes = (top() - before) / sessions;
const sharedWords = (sharedWordBytes() - wordsBefore) / sessions;
const sharedSummaries = (sharedSummaryBytes() - summariesBefore) / sessions;
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
// the median too: a thread's object that one session alone happens to reach (a shared buffer) lands on that session
console.log(`  JavaScript objects of its own: ${(total / found).toFixed(0)} B in ${(nodes / found).toFixed(1)} nodes (median session ${median.toFixed(0)} B)`);
console.log(`  module memory handed out: ${moduleBytes.toFixed(0)} B (its growth over the stream's second run)`);
console.log(`  the thread's word chunks' growth (call logs', recent words, summary tables, chanting's boundaries: src/state/word-blocks.ts): ${sharedWords.toFixed(0)} B`);
console.log(`  the thread's summary chunks' growth (similar args' summaries: src/state/summary-blocks.ts): ${sharedSummaries.toFixed(0)} B`);
const outside = moduleBytes + sharedWords + sharedSummaries;
console.log(`  together: ${(total / found + outside).toFixed(0)} B (median session: ${(median + outside).toFixed(0)} B)`);
console.log('| bytes | nodes | what <- held by |');
console.log('|---:|---:|---|');
const rows = [...groups].sort((a, b) => b[1].bytes - a[1].bytes);
for (const [key, g] of rows) if (g.bytes / found >= 2) console.log(`| ${(g.bytes / found).toFixed(0)} | ${(g.count / found).toFixed(2)} | ${key.replaceAll('|', '\\|')} |`);
