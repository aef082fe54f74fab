/**
 * Routing a line by its first bytes (src/formats/line-route.ts, assembly/line-route.ts): the module gives
 * the TypeScript twin's answer on the same bytes, whatever lies past the line's end; and a routed line
 * never belongs to another session than its first bytes say, by JSON.parse or by the events reader.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventFromBytes } from '../src/wire/event-bytes.js';
import { lineRouteSession, routeSession } from '../src/formats/line-route.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';
import { runs } from './helpers/streams.js';

/** Pieces that matter to the routing, near which the chunk edges and the line's end fall. */
const piece = fc.oneof(
  fc.constantFrom('"session"', '"session":"b"', '"sess\\u0069on":"b"', '\\u', '\\\\u', '\\"', '"se', '"sessio', 'session"', '"trajectory"', '"trajector', '"tr', 'trajectory"', '"', '\\', 'u', ',', ':', '{', '}', '"x":1', 'é', '\u00ff', '\n'),
  fc.string({ maxLength: 20 }),
);
const name = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z0-9-]{1,12}$/) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom('', 'x'.repeat(256), 'x'.repeat(257), 'a"b', 'a\\b', 'tab\there', 'ü') },
);
const ws = fc.constantFrom('', '', ' ', '\t', '\n', '\r\n', '  ', ' '.repeat(30));
const opening = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(ws, ws, ws).map(([a, b, c]) => `{${a}"session"${b}:${c}"`) },
  { weight: 1, arbitrary: fc.constantFrom('{"Session":"', '["session":"', '', ' {"session":"', '{"session":', '{"session"', '{"sess', '{"session":1', '{\u00a0"session":"') },
);
/** Lines: an opening, a name, its closing quote (mostly), then pieces. */
const line = fc.tuple(opening, name, fc.constantFrom('"', '"', '"', ''), fc.array(piece, { maxLength: 24 })).map(([o, n, q, rest]) => Buffer.from(o + n + q + rest.join(''), 'utf8'));

/** The module's answer for `bytes`, with `junk` in the bytes it may read past their end. */
function moduleEnd(bytes: Uint8Array, junk: string): number {
  const wasm = sharedInstance();
  const ptr = wasm.exports.reserveBytes(bytes.length + 18);
  const u8 = wasm.views().u8;
  u8.set(bytes, ptr);
  u8.set(Buffer.from(junk.padEnd(18, junk.length === 0 ? ' ' : junk).slice(0, 18), 'latin1'), ptr + bytes.length);
  return wasm.exports.routeSession(ptr, bytes.length);
}

const JUNK = ['', 'session"session"se', 'uuuuuuuuuuuuuuuuuu', '\\u\\u\\u\\u\\u\\u\\u\\u\\u', '"""""""""""""""""', '\\\\\\\\\\\\\\\\\\'];

describe('routing a line by its first bytes', () => {
  it('the module gives the twin\'s answer, whatever lies past the line', () => {
    fc.assert(
      fc.property(line, fc.constantFrom(...JUNK), (bytes, junk) => {
        expect(moduleEnd(bytes, junk)).toBe(routeSession(bytes));
      }),
      { numRuns: runs(3000) },
    );
  });

  it('at every length and chunk edge: a key or an escape in the last bytes, or cut by the end', () => {
    for (let pad = 0; pad < 40; pad++) {
      for (const tail of ['"session"', '"session', '\\u', '\\', '"se', '"sessionX', 'x"session"', '"trajectory"', '"trajectory', '"trajectorY"', '"tr']) {
        const bytes = Buffer.from(`{"session":"s1","a":"${'x'.repeat(pad)}${tail}`, 'latin1');
        for (const junk of JUNK) expect(moduleEnd(bytes, junk)).toBe(routeSession(bytes));
        expect(lineRouteSession(bytes) === null).toBe(routeSession(bytes) === 0);
      }
    }
  });

  it('a routed line holds the session it is routed by, or no call at all', () => {
    fc.assert(
      fc.property(line, (bytes) => {
        const routed = lineRouteSession(bytes);
        if (routed === null) return;
        let parsed: unknown;
        try {
          parsed = JSON.parse(bytes.toString('utf8'));
        } catch {
          parsed = undefined;
        }
        if (parsed !== undefined) expect((parsed as { session?: unknown }).session).toBe(routed);
        const e = eventFromBytes(bytes);
        if (!(e instanceof Error)) expect(e.session).toBe(routed);
      }),
      { numRuns: runs(3000) },
    );
  });

  it('takes the plain lines writers make, and none whose session another member could name', () => {
    expect(lineRouteSession(Buffer.from('{"session":"run-7","tool":"read","args":{"path":"/a"},"result":"ok\\n"}'))).toBe('run-7');
    // as Python's json.dumps writes it
    expect(lineRouteSession(Buffer.from('{"session": "run-8", "step": 0, "tool": "read"}'))).toBe('run-8');
    expect(lineRouteSession(Buffer.from('{"session":"a","tool":"read","session":"b"}'))).toBeNull();
    expect(lineRouteSession(Buffer.from('{"session":"a","tool":"read","sess\\u0069on":"b"}'))).toBeNull();
    expect(lineRouteSession(Buffer.from('{"tool":"read","session":"a"}'))).toBeNull();
    expect(lineRouteSession(Buffer.from('{"session":"a","tool":"read","trajectory":[]}'))).toBeNull();
    expect(lineRouteSession(Buffer.from('{"session":"a","tool":"read","args":"a trajectory"}'))).toBe('a');
    expect(lineRouteSession(Buffer.from('{"session":"a\\u0062","tool":"read"}'))).toBeNull();
    expect(lineRouteSession(Buffer.from(`{"session":"${'x'.repeat(256)}","tool":"read"}`))).toBe('x'.repeat(256));
    expect(lineRouteSession(Buffer.from(`{"session":"${'x'.repeat(257)}","tool":"read"}`))).toBeNull();
    // a plain Uint8Array (not a Buffer) is read the same way
    expect(lineRouteSession(new Uint8Array(Buffer.from('{"session":"u8","tool":"read"}')))).toBe('u8');
  });
});
