/**
 * A pool's worker reads the members of a call's encoded args that the outcome facts ask for one at a time
 * (perf44: decoding every call's whole args for them was a fifth of a worker's time on the fleet): each
 * answer is what the decoded args give, and the call log hands the facts the encoded args themselves.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ARG_MEMBERS, ArgsInBytes, argMember } from '../src/fingerprint/json-args-text.js';
import { CallLog } from '../src/state/call-log.js';
import { ValueEncoder } from '../src/wasm/encode-value.js';
import { EncodedArgs, decodeJsonData } from '../src/wasm/encoded-args.js';

function encode(v: unknown): Uint8Array {
  const u8 = new Uint8Array(1 << 20);
  const enc = new ValueEncoder();
  enc.reset(u8, new DataView(u8.buffer), 0, u8.length);
  enc.value(v, null, 64);
  return u8.slice(0, enc.position);
}

/** The names the outcome facts ask for (ARG_MEMBERS, process-poll's, read-target's), and a few others. */
const NAMES = [...ARG_MEMBERS, 'chars', 'yield_time_ms', 'absolute_path', 'toString', 'constructor', '__proto__', 'é', ''];
const text = fc.string({ unit: fc.constantFrom('a', 'é', '😀', '\n', '"', '\u0000'), maxLength: 20 });
const json = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, text, fc.double(), fc.boolean(), fc.constant(null), fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(fc.oneof(text, fc.constantFrom(...NAMES)), tie('v'), { maxKeys: 6, noNullPrototype: true })),
})).v;
const args = fc.dictionary(fc.oneof(fc.constantFrom(...NAMES), text), json, { maxKeys: 8, noNullPrototype: true });

describe('encoded args read one member at a time', () => {
  it('should give what the decoded args give for every name, before and after they are decoded', () => {
    fc.assert(
      fc.property(fc.oneof(args, json), fc.constantFrom(...NAMES), (v, name) => {
        const bytes = encode(v);
        const decoded = decodeJsonData(bytes) as Record<string, unknown> | null;
        const want = decoded?.[name];
        const e = new EncodedArgs(bytes);
        // toEqual: a decoded object whose own `constructor` member is an object is never toStrictEqual another decode
        expect(e.member(name)).toEqual(want);
        expect(argMember(e, name)).toEqual(want);
        expect(e.isObject).toBe(typeof v === 'object' && v !== null && !Array.isArray(v));
        e.value();
        expect(e.member(name)).toEqual(want);
      }),
      { numRuns: 1000 },
    );
  });

  it('should read a member without decoding the others', () => {
    const e = new EncodedArgs(encode({ description: 'x'.repeat(100), command: 'ls -la', nested: { command: 'no' }, path: ['a', 'b'] }));
    expect(e.member('command')).toBe('ls -la');
    expect(e.member('path')).toEqual(['a', 'b']);
    expect(e.member('file_path')).toBeUndefined();
    expect(new EncodedArgs(encode(['command'])).member('command')).toBeUndefined();
    expect(new EncodedArgs(encode('command')).member('length')).toBe(7);
  });

  it("should be what the call log gives the outcome facts while nothing has made the args into values", () => {
    const normaliser = { normaliseArgs: (a: unknown) => (a instanceof EncodedArgs ? a.value() : a) };
    const log = new CallLog(8, normaliser);
    const e = new EncodedArgs(encode({ command: 'npm test' }));
    log.push('Bash', e, false, undefined, 1, 2, undefined, undefined);
    const got = log.factArgsOf(0);
    expect(ArgsInBytes.isArgsInBytes(got)).toBe(true);
    expect(got).toBe(e);
    expect(argMember(got as object, 'command')).toBe('npm test');
    // args that are not an object are read as values, as before
    const a = new EncodedArgs(encode(['npm', 'test']));
    log.push('Bash', a, false, undefined, 3, 4, undefined, undefined);
    expect(log.factArgsOf(1)).toEqual(['npm', 'test']);
  });
});
