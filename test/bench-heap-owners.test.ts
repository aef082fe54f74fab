/**
 * bench/session-objects.ts' walk of a heap snapshot (bench/heap-owners.ts, mem40): a node is a session's
 * own when that session alone reaches it. Before, only the node where a second session's walk met the
 * first's was marked shared, so everything beneath it (with every detector over real calls: the thread's
 * module memory as chanting's text area holds it, 14.3 MB, and all the shared summary chunks, 4.7 MB) stayed
 * with the first session, and the mean per session read 29.7 KB where the process grew by ~10.6 KB a session.
 */
import { describe, expect, it } from 'vitest';
import { type HeapSnapshot, ownBytes } from '../bench/heap-owners.js';

const NODE_TYPES = ['hidden', 'array', 'string', 'object', 'code', 'closure', 'regexp', 'number', 'native', 'synthetic'];
const EDGE_TYPES = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'];

/** A snapshot of `nodes` (type, name, bytes) and `edges` (from, field, to; `[]` an element edge) in V8's layout. */
function snapshot(nodes: [string, string, number][], edges: [number, string, number][]): HeapSnapshot {
  const strings: string[] = [];
  const str = (t: string): number => {
    const i = strings.indexOf(t);
    return i === -1 ? strings.push(t) - 1 : i;
  };
  const flatNodes: number[] = [];
  const flatEdges: number[] = [];
  nodes.forEach(([type, name, size], k) => {
    const out = edges.filter(([from]) => from === k);
    flatNodes.push(NODE_TYPES.indexOf(type), str(name), k + 1, size, out.length);
    for (const [, field, to] of out) flatEdges.push(EDGE_TYPES.indexOf(field === '[]' ? 'element' : 'property'), field === '[]' ? 0 : str(field), to * 5);
  });
  return {
    snapshot: { meta: { node_fields: ['type', 'name', 'id', 'self_size', 'edge_count'], node_types: [NODE_TYPES], edge_fields: ['type', 'name_or_index', 'to_node'], edge_types: [EDGE_TYPES] } },
    nodes: flatNodes,
    edges: flatEdges,
    strings,
  };
}

// two sessions, each with a pipeline of its own, and a thread's text area both reach, over a large buffer
const TWO_SESSIONS_ONE_AREA = snapshot(
  [
    ['object', 'LoopDetector', 100], // 0
    ['object', 'LoopDetector', 100], // 1
    ['object', 'WasmPipeline', 50], // 2: session 0's
    ['object', 'WasmPipeline', 50], // 3: session 1's
    ['object', 'Object', 10], // 4: the thread's area
    ['object', 'Buffer', 20], // 5
    ['object', 'ArrayBuffer', 30], // 6
    ['native', 'system / JSArrayBufferData', 1_000_000], // 7
    ['object', 'Array', 16], // 8: session 1's own list
  ],
  [
    [0, 'pipeline', 2],
    [1, 'pipeline', 3],
    [2, 'area', 4],
    [3, 'area', 4],
    [4, 'bytes', 5],
    [5, 'buffer', 6],
    [6, 'backing_store', 7],
    [3, 'list', 8],
  ],
);

describe('which session owns what in a heap snapshot', () => {
  it('should count nothing beneath a node two sessions reach for either session', () => {
    const { groups, sessions, median } = ownBytes(TWO_SESSIONS_ONE_AREA);
    expect(sessions).toBe(2);
    expect([...groups.keys()].sort()).toEqual(['object Array <- WasmPipeline.list', 'object LoopDetector <- (the session)', 'object WasmPipeline <- LoopDetector.pipeline']);
    let total = 0;
    for (const g of groups.values()) total += g.bytes;
    expect(total).toBe(2 * 150 + 16);
    expect(median).toBe(166);
  });

  it('should still give a session what it alone reaches, however deep', () => {
    const { groups } = ownBytes(TWO_SESSIONS_ONE_AREA);
    expect(groups.get('object Array <- WasmPipeline.list')).toEqual({ bytes: 16, count: 1 });
    expect(groups.get('object WasmPipeline <- LoopDetector.pipeline')).toEqual({ bytes: 100, count: 2 });
  });
});
