/** The session table keeps exact least-recently-used order through any mix of adds, uses and deletes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SessionTable } from '../src/engine/session-table.js';

type Op = { op: 'add' | 'use' | 'delete'; id: string };

describe('SessionTable', () => {
  it('should give the same oldest session as a recency list, whatever the operations', () => {
    const op = fc.record({ op: fc.constantFrom<Op['op']>('add', 'use', 'use', 'delete'), id: fc.oneof(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.integer({ min: 0, max: 39 }).map((k) => `s${k}`)) }); // more ids than the table starts with room for
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const table = new SessionTable<string>();
        let order: string[] = []; // oldest first
        for (const { op, id } of ops) {
          if (op === 'add' && !order.includes(id)) {
            table.add(id, id, 0);
            order.push(id);
          } else if (op === 'use') {
            expect(table.use(id, 0)).toBe(order.includes(id) ? id : undefined);
            if (order.includes(id)) order = [...order.filter((x) => x !== id), id];
          } else if (op === 'delete') {
            expect(table.delete(id)).toBe(order.includes(id) ? id : undefined);
            order = order.filter((x) => x !== id);
          }
          expect(table.size).toBe(order.length);
          expect(table.oldest()).toBe(order[0]);
        }
        // draining oldest-first gives the whole recency order
        const drained: string[] = [];
        for (let o = table.oldest(); o !== undefined; o = table.oldest()) {
          drained.push(o);
          table.delete(o);
        }
        expect(drained).toEqual(order);
      }),
      { numRuns: 300 },
    );
  });
});
