/**
 * Events-format lines read from their bytes (src/formats/event-line.ts, assembly/event-line.ts) against the
 * way that parses every line (decode, JSON.parse, the events reader): a line read from its bytes must give
 * the very call the parsing way gives, and a line the parsing way refuses, or reads another way, must not
 * be read from its bytes. The results kept as bytes decode in the module (assembly/json-unescape.ts) to
 * what TextEncoder makes of JSON.parse's string.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LineCall, readEventLine } from '../src/formats/event-line.js';
import { createEventsReader } from '../src/formats/events.js';
import { parseJson } from '../src/formats/json-value.js';
import { decodeLine } from '../src/formats/line-reader.js';
import type { TraceItem } from '../src/formats/trace-record.js';
import { ARG_MEMBERS, JsonArgsText } from '../src/fingerprint/json-args-text.js';
import { RawJsonString } from '../src/wasm/raw-json-string.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';
import { runs } from './helpers/streams.js';

const FILE = 'trace.jsonl';

/** What the parsing way makes of a line: its items (a call, or an issue), or 'invalid'. */
function parsed(bytes: Uint8Array, line = 2): TraceItem[] | 'invalid' {
  const text = decodeLine(bytes, line);
  if (text === null) return 'invalid';
  const p = parseJson(text);
  if (!p.ok) return 'invalid';
  return [...createEventsReader({ file: FILE, name: FILE }).record({ kind: 'record', value: p.value, file: FILE, line, fallbackSession: `${FILE}:${line}` })];
}

/** A call read from bytes, with its kept-as-bytes result made into what the parsing way holds. */
function plain(call: LineCall): LineCall {
  const e = call.event;
  const result = RawJsonString.is(e.result) ? e.result.value() : e.result;
  return { session: call.session, event: { ...e, result } };
}

/** JSON text with every character outside ASCII escaped (the lines the byte reader takes). */
function asciiJson(v: unknown, space?: number): string {
  return JSON.stringify(v, null, space).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const bytesOf = (s: string): Buffer => Buffer.from(s, 'utf8');

/** Checks the byte reader against the parsing way on one line; returns whether the byte reader took it. */
function agrees(bytes: Uint8Array): boolean {
  const fast = readEventLine(bytes);
  const slow = parsed(bytes);
  if (fast === null) return false;
  expect(slow).not.toBe('invalid');
  if (slow === 'invalid') return true;
  expect(slow).toHaveLength(1);
  const want = slow[0] as TraceItem;
  expect(want.kind).toBe('call');
  if (want.kind !== 'call') return true;
  const got = plain(fast);
  const wanted: LineCall = { session: want.session, event: want.event };
  // args that are an object or an array stay their JSON text in the line's bytes, which every reader of
  // args parses alike, and whose noted members read as the parsed args' own
  const wantArgs = want.event.args;
  if (typeof wantArgs === 'object' && wantArgs !== null) {
    const args = got.event.args;
    expect(JsonArgsText.is(args)).toBe(true);
    if (!JsonArgsText.is(args)) return true;
    expect(JSON.parse(args.text)).toEqual(wantArgs);
    expect(args.value()).toEqual(wantArgs);
    for (const m of ARG_MEMBERS) expect(args.member(m)).toEqual(Array.isArray(wantArgs) || !Object.hasOwn(wantArgs, m) ? undefined : (wantArgs as Record<string, unknown>)[m]);
    expect({ ...got, event: { ...got.event, args: wantArgs } }).toEqual(wanted);
  } else expect(got).toEqual(wanted);
  return true;
}

const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '\n', '\t', '"', '\\', '/', '\u0001', '\u007f', 'é', '😀', '\ud800', '\udc00', '\u2028'), maxLength: 80 });
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), text, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(text, tie('value'), { maxKeys: 3 })),
})).value;

/** An events-format record: the usual fields, each sometimes missing, null or of another type, and extra keys. */
const record = fc.record(
  {
    session: fc.oneof(fc.string({ minLength: 0, maxLength: 8 }), fc.integer(), fc.constant(null)),
    tool: fc.oneof(fc.constantFrom('read_file', 'edit', 'bash', ''), text, fc.integer()),
    args: json,
    result: fc.oneof(text, json),
    error: fc.oneof(fc.constantFrom(null, false, '', true, 0, 'boom', 'Traceback: x'), text, json),
    text: fc.oneof(text, fc.constant(null), fc.integer()),
    step: fc.oneof(fc.integer(), fc.constant(null), fc.constant('3'), fc.double({ noNaN: true })),
    round: fc.oneof(fc.integer(), fc.constant(null)),
    description: fc.oneof(text, fc.constant(null), fc.boolean()),
    id: fc.string({ maxLength: 4 }),
    returncode: fc.integer(),
    trajectory: fc.oneof(fc.constant([]), fc.constant({})),
  },
  { requiredKeys: [] },
);

/** A record as agents write them: a session and a tool, the other fields of their types or absent. */
const plausible = fc.record(
  {
    session: fc.string({ minLength: 1, maxLength: 8 }),
    tool: fc.constantFrom('read_file', 'edit', 'bash', 'search'),
    args: fc.dictionary(text, json, { maxKeys: 4 }),
    result: fc.oneof(text, json),
    error: fc.oneof(fc.constantFrom(null, '', 'boom'), text),
    text,
    step: fc.nat(),
    returncode: fc.integer(),
  },
  { requiredKeys: ['session', 'tool'] },
);

describe('events-format lines read from their bytes', () => {
  it('takes a plain call and gives what parsing gives', () => {
    const line = bytesOf(asciiJson({ session: 's1', step: 3, tool: 'read_file', args: { path: '/a.py', n: [1, 2] }, result: 'line 1\nline "2"\n', text: 'Let me look.' }));
    expect(agrees(line)).toBe(true);
    const call = readEventLine(line);
    expect(call !== null && RawJsonString.is(call.event.result)).toBe(true);
  });

  it('agrees with parsing on random records, in any key order and spacing', () => {
    fc.assert(
      fc.property(record, fc.constantFrom(undefined, 1, 2), fc.boolean(), (r, space, reverse) => {
        const ordered = reverse ? Object.fromEntries(Object.entries(r).reverse()) : r;
        agrees(bytesOf(asciiJson(ordered, space).replace(/\n/g, ' ')));
      }),
      { numRuns: runs(2000) },
    );
  });

  it('reads most plausible calls from their bytes, as parsing reads them', () => {
    let taken = 0;
    fc.assert(
      fc.property(plausible, fc.constantFrom(undefined, 1), (r, space) => {
        if (agrees(bytesOf(asciiJson(r, space).replace(/\n/g, ' ')))) taken++;
      }),
      { numRuns: runs(1000) },
    );
    expect(taken).toBeGreaterThan(runs(1000) * 0.9);
  });

  it('never takes a line that parsing refuses or reads another way (random edits of valid lines)', () => {
    const edit = fc.tuple(fc.nat(), fc.constantFrom('delete', 'insert', 'replace'), fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', ' ', '0', '-', 'e', '.', 'u', 'n', 't', '\u0001', '\u00e9', 'x'));
    fc.assert(
      fc.property(record, fc.array(edit, { minLength: 1, maxLength: 3 }), (r, edits) => {
        let s = asciiJson({ session: 's', tool: 't', ...r });
        for (const [at, op, ch] of edits) {
          const i = at % (s.length + 1);
          s = op === 'delete' ? s.slice(0, i) + s.slice(i + 1) : op === 'insert' ? s.slice(0, i) + ch + s.slice(i) : s.slice(0, i) + ch + s.slice(i + 1);
        }
        agrees(bytesOf(s));
      }),
      { numRuns: runs(3000) },
    );
  });

  it('leaves to parsing the lines it does not read exactly', () => {
    const cases = [
      '{"session":"s","tool":"t","result":"caf\u00e9"}', // outside ASCII
      '{"session":"s","tool":"t","tool":"u"}', // a member named twice
      '{"session":"s","t\\u006fol":"t"}', // an escaped key
      '{"id":"s","tool":"t"}', // the session named by id
      '{"session":7,"tool":"t"}', // a number for a session
      '{"session":"s","tool":"t","trajectory":[]}', // a SWE-agent trajectory
      '{"session":"s","tool":""}',
      '{"session":"s","tool":"t","step":"3"}',
      '{"session":"s","tool":"t","step":1e999}',
      '{"session":"s","tool":"t","text":5}',
      '{"session":"s","tool":"t"} x',
      '{"session":"s","tool":"t",}',
      '{"session":"s","tool":"t","args":[01]}',
      '{"session":"s","tool":"t","args":"\t"}',
      `{"session":"s","tool":"t","args":${'['.repeat(1000)}${']'.repeat(1000)}}`,
      '[{"session":"s","tool":"t"}]',
      '"just a string"',
    ];
    for (const c of cases) expect(readEventLine(bytesOf(c)), c).toBeNull();
  });

  it('takes nesting up to the limit the parsing way allows', () => {
    const deep = (n: number): string => `{"session":"s","tool":"t","args":${'['.repeat(n)}${']'.repeat(n)}}`;
    expect(agrees(bytesOf(deep(999)))).toBe(true);
    expect(readEventLine(bytesOf(deep(1000)))).toBeNull();
    expect(parsed(bytesOf(deep(1000)))).toBe("invalid");
  });
});

describe('a result kept as bytes, decoded in the module', () => {
  /** Writes `literal`'s content into the module's memory and decodes it there. */
  function decodeInModule(literal: string): Buffer {
    const w = sharedInstance();
    const content = Buffer.from(literal.slice(1, -1), 'latin1');
    const ptr = w.exports.reserveBytes(content.length + 16);
    w.views().u8.set(content, ptr);
    const n = w.exports.unescapeJsonInPlace(ptr, content.length);
    return Buffer.from(w.views().u8.subarray(ptr, ptr + n));
  }

  it('gives the UTF-8 of the string JSON.parse makes, lone surrogates as U+FFFD', () => {
    const unit = fc.constantFrom('a', ' ', '\n', '\r', '\t', '\b', '\f', '"', '\\', '/', '\u0000', '\u001f', '\u007f', 'é', '€', '😀', '\ud800', '\udbff', '\udc00', '\udfff', '\u2028');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 200 }), fc.boolean(), (s, upper) => {
        let literal = asciiJson(s);
        if (upper) literal = literal.replace(/\\u([0-9a-f]{4})/g, (_m, h: string) => `\\u${h.toUpperCase()}`);
        expect(decodeInModule(literal)).toEqual(Buffer.from(new TextEncoder().encode(s)));
      }),
      { numRuns: runs(2000) },
    );
  });

  it('decodes long runs between escapes (sixteen bytes at a time) and escapes at every position', () => {
    for (let pad = 0; pad < 40; pad++) {
      const s = `${'x'.repeat(pad)}\n${'y'.repeat(37)}\\"${'z'.repeat(pad)}😀`;
      expect(decodeInModule(asciiJson(s))).toEqual(Buffer.from(s, 'utf8'));
    }
  });

  it('makes the same string as value() does', () => {
    const s = 'line 1\n"quoted" \\ é 😀 \ud800';
    const literal = Buffer.from(asciiJson(s), 'latin1');
    expect(new RawJsonString(literal, true).value()).toBe(s);
    expect(new RawJsonString(Buffer.from('"plain"', 'latin1'), false).value()).toBe('plain');
  });
});
