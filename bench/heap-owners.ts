/**
 * Which session owns what in a V8 heap snapshot (bench/session-objects.ts): each session's LoopDetector is a
 * root, and a node is a session's own when that session alone reaches it, by the fields followed (see
 * {@link SHARED_EDGES} and the skipped block fields). A node two sessions reach is shared, and so is all
 * that lies beneath it: before branch mem40 only the node where a second session met the first's walk was
 * marked shared, so what lay beneath it (the thread's module memory as chanting's text area sees it, every
 * shared summary chunk: ~19 KB a session of 1,000) stayed with the first session, and the mean per
 * session carried the thread's buffers (docs/speed.md, mem40).
 */

/** The parts of a `.heapsnapshot` file read here. */
export interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** Where a snapshot's flat arrays hold each field: node and edge strides, field offsets, type names, the node count. */
export interface SnapshotLayout {
  nodeTypes: string[];
  edgeTypes: string[];
  N: number;
  E: number;
  iType: number;
  iName: number;
  iSize: number;
  iEdges: number;
  eType: number;
  eName: number;
  eTo: number;
  count: number;
}

/** The layout of `s`'s flat node and edge arrays, read from its meta. */
export function snapshotLayout(s: HeapSnapshot): SnapshotLayout {
  const nf = s.snapshot.meta.node_fields;
  const ef = s.snapshot.meta.edge_fields;
  const nodeTypes = s.snapshot.meta.node_types[0];
  const edgeTypes = s.snapshot.meta.edge_types[0];
  const N = nf.length;
  const E = ef.length;
  const [iType, iName, iSize, iEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) => nf.indexOf(f)) as [number, number, number, number];
  const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f)) as [number, number, number];
  const count = s.nodes.length / N;
  return { nodeTypes, edgeTypes, N, E, iType, iName, iSize, iEdges, eType, eName, eTo, count };
}

/** Fields not followed: what many sessions share (options, the thread's core, hidden classes and prototypes). */
export const SHARED_EDGES: ReadonlySet<string> = new Set(['map', '__proto__', 'constructor', 'options', 'o', 'p', 'core', 'rungs', 'retention', 'turns']);

/** Per group (`kind <- holder.field`) the bytes and nodes sessions own alone, the sessions found and the median session's bytes. */
export interface OwnBytes {
  groups: Map<string, { bytes: number; count: number }>;
  sessions: number;
  median: number;
}

/** The nodes each session (each `object LoopDetector`) alone reaches in `s`, grouped by kind and the holder's field. */
export function ownBytes(s: HeapSnapshot): OwnBytes {
  const { nodeTypes, edgeTypes, N, E, iType, iName, iSize, iEdges, eType, eName, eTo, count } = snapshotLayout(s);
  const firstEdge = new Int32Array(count + 1);
  for (let k = 0, e = 0; k < count; k++) {
    firstEdge[k] = e;
    e += s.nodes[k * N + iEdges] as number;
    firstEdge[k + 1] = e;
  }
  const type = (k: number): string => nodeTypes[s.nodes[k * N + iType] as number] as string;
  const name = (k: number): string => s.strings[s.nodes[k * N + iName] as number] as string;
  const label = (k: number): string => (['object', 'closure', 'hidden', 'native'].includes(type(k)) ? `${type(k)} ${name(k).slice(0, 40)}` : type(k));
  /** The children of `k` a walk follows, with the field that reaches each. */
  const children = (k: number, visit: (child: number, field: string) => void): void => {
    for (let j = firstEdge[k] as number; j < (firstEdge[k + 1] as number); j++) {
      const t = edgeTypes[s.edges[j * E + eType] as number];
      if (t === 'weak' || t === 'shortcut') continue;
      const field = t === 'element' || t === 'hidden' ? '[]' : String(s.strings[s.edges[j * E + eName] as number]);
      if (SHARED_EDGES.has(field)) continue;
      // a call log's and the recent words' words, similar args' summary table and chanting's boundaries are blocks of the thread's chunks, which the line "word chunks" counts
      if ((field === 'words' && (name(k) === 'CallLog' || name(k) === 'RecentWords')) || (field === 'table' && name(k) === 'SummaryRing') || (field === 'bound' && name(k) === 'ChantingDetector')) continue;
      const child = (s.edges[j * E + eTo] as number) / N;
      if (['code', 'closure', 'synthetic'].includes(type(child))) continue;
      visit(child, field);
    }
  };
  const roots: number[] = [];
  for (let k = 0; k < count; k++) if (type(k) === 'object' && name(k) === 'LoopDetector') roots.push(k);
  // the session that reached a node first, -2 once a second one does
  const owner = new Int32Array(count).fill(-1);
  const via: string[] = new Array<string>(count);
  roots.forEach((r, i) => {
    owner[r] = i;
    via[r] = '(the session)';
  });
  const met: number[] = [];
  roots.forEach((r, i) => {
    const stack = [r];
    while (stack.length !== 0) {
      const k = stack.pop() as number;
      children(k, (child, field) => {
        if (owner[child] === -1) {
          owner[child] = i;
          via[child] = `${label(k).replace(/^object /, '')}.${/^\d+$/.test(field) ? '[]' : field}`;
          stack.push(child);
        } else if (owner[child] !== i && owner[child] !== -2) {
          owner[child] = -2;
          met.push(child);
        }
      });
    }
  });
  // what lies beneath a shared node is reached from its sessions too: shared as well
  while (met.length !== 0) {
    children(met.pop() as number, (child) => {
      if (owner[child] === -2) return;
      owner[child] = -2;
      met.push(child);
    });
  }
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
