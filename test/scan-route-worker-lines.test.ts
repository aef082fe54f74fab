/**
 * A scan with worker threads hands over unread only the lines of the sessions a worker checks; the lines of
 * the calling thread's own shard are parsed where they are read, as a one-thread scan reads them
 * (SessionChecker.routesLineOf, readScanBatches' `only`, routedLine's `only`). That both kinds give one
 * thread's answers is test/cli-scan-routed-lines.test.ts's (its sessions fall on both kinds of shard).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionChecker } from '../src/cli/scan/session-checker.js';
import { readScanBatches } from '../src/formats/read-inputs.js';
import { routedLine } from '../src/formats/routed-lines.js';
import { shardOf } from '../src/pool/loop-pool.js';
import { tempDir } from './helpers/cli.js';

/** Lines read before the format is known (a batch of them: read either way) and then some. */
const HEAD = 500;

/** The kind each session's items came as, past the first HEAD lines. */
async function kindsBySession(file: string, only?: (session: string) => boolean): Promise<Map<string, Set<string>>> {
  const kinds = new Map<string, Set<string>>();
  for await (const batch of readScanBatches([file], {}, only)) {
    for (const item of batch) {
      if ((item.kind !== 'call' && item.kind !== 'line') || item.line <= HEAD) continue;
      const seen = kinds.get(item.session) ?? new Set<string>();
      seen.add(item.kind);
      kinds.set(item.session, seen);
    }
  }
  return kinds;
}

describe('routed lines, only those of the sessions a worker checks', () => {
  it('should leave a line of a session `only` refuses to be read as usual', () => {
    const bytes = Buffer.from('{"session": "a", "tool": "bash", "args": {}}');
    expect(routedLine(bytes, 3)?.session).toBe('a');
    expect(routedLine(bytes, 3, (s) => s === 'a')?.line).toBe(3);
    expect(routedLine(bytes, 3, (s) => s !== 'a')).toBeNull();
  });

  it('should hand over the lines of the sessions `only` takes and read the others', async () => {
    const file = join(tempDir(), 'e.jsonl');
    const ids = ['a', 'b', 'c', 'd'];
    const lines = Array.from({ length: 2 * HEAD }, (_, i) => JSON.stringify({ session: ids[i % 4], tool: 'bash', args: { command: `ls ${i}` }, result: 'ok' }).replace('{"session":', '{"session": '));
    writeFileSync(file, lines.join('\n') + '\n');
    const all = await kindsBySession(file);
    for (const id of ids) expect([...(all.get(id) ?? [])]).toEqual(['line']);
    const some = await kindsBySession(file, (s) => s === 'a' || s === 'c');
    expect([...(some.get('a') ?? [])]).toEqual(['line']);
    expect([...(some.get('c') ?? [])]).toEqual(['line']);
    expect([...(some.get('b') ?? [])]).toEqual(['call']);
    expect([...(some.get('d') ?? [])]).toEqual(['call']);
  });

  it('should route the lines of the sessions a worker checks, not those of the calling thread', async () => {
    expect(sessionChecker({}, 1, 10).routesLineOf).toBeUndefined();
    for (const threads of [2, 3, 5]) {
      const checker = sessionChecker({}, threads, 10);
      try {
        const ids = Array.from({ length: 200 }, (_, i) => `x${i % 10}/session-${i}`);
        const routes = ids.map((id) => checker.routesLineOf?.(id));
        // the pool's shards: its workers' first, the calling thread's last
        expect(routes).toEqual(ids.map((id) => shardOf(id, threads) !== threads - 1));
        expect(routes.filter((r) => r === false).length).toBeGreaterThan(200 / threads / 2);
      } finally {
        await checker.close();
      }
    }
  });
});
