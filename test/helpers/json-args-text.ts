/**
 * Random JSON text of args as events-format lines carry them (an object or an array, every byte ASCII),
 * written token by token: escapes of every kind, duplicate keys, array-index keys, unicode and lone
 * surrogates as `\u` escapes, numbers in every spelling, long strings, white space anywhere.
 */
import fc from 'fast-check';
import { numberText } from './streams.js';

/** `s` as JSON text of ASCII only: every unit outside it a `\u` escape (the lines the module reads). */
export function ascii(s: string): string {
  return s.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const escapes: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A string literal of `s`, each unit spelled plainly or escaped as `pick` says (`\u` in either case, `\/`). */
export function literal(s: string, pick: readonly number[]): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const how = pick[i % pick.length] as number;
    const ch = s[i] as string;
    if (c < 0x20 || c >= 0x7f || ch === '"' || ch === '\\' || how === 1) {
      if (how === 2 && escapes[ch] !== undefined) out += escapes[ch];
      else {
        const hex = c.toString(16).padStart(4, '0');
        out += `\\u${how === 3 ? hex.toUpperCase() : hex}`;
      }
    } else if (ch === '/' && how === 2) out += '\\/';
    else out += ch;
  }
  return `${out}"`;
}

const unit = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('a', 'Z', '0', '_', ' ', '/', '.', '-', 'x', 'word') },
  { weight: 2, arbitrary: fc.constantFrom('"', '\\', '\n', '\t', '\r', '\b', '\f', '\u0000', '\u001f', '\u007f', '  ', ' \n ') },
  { weight: 2, arbitrary: fc.constantFrom('é', 'ß', 'ÿ', '日本', '😀', '\u2028', '\u00a0', '\ufeff', '\u0100', '\u3000') },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
);

/** Short strings, and long ones of `longFrom` to `longTo` units (a run repeated, units of every kind at their ends). */
export function jsonString(longFrom: number, longTo: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.string({ unit, maxLength: 12 }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.string({ unit, maxLength: 6 }), fc.string({ unit, minLength: 1, maxLength: 5 }), fc.integer({ min: longFrom, max: longTo }), fc.string({ unit, maxLength: 6 }))
        .map(([a, run, n, b]) => a + run.repeat(Math.ceil(n / run.length)) + b),
    },
  );
}

/** JSON text of args (an object or an array) whose long strings are `longFrom` to `longTo` units. */
export function jsonArgsText(longFrom: number, longTo: number): fc.Arbitrary<string> {
  const text = jsonString(longFrom, longTo);
  const pick = fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 4 });
  const ws = fc.constantFrom('', '', ' ', '\n  ', '\t', ' \r\n');
  const key = fc.oneof(fc.constantFrom('path', 'command', 'id', 'x', '', '0', '17', '01', '4294967295', '4294967294', '__proto__', 'é'), text);
  const json: fc.Arbitrary<string> = fc.letrec<{ v: string }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.tuple(text, pick).map(([s, p]) => literal(s, p)),
      numberText,
      fc.constantFrom('true', 'false', 'null'),
      fc.tuple(fc.array(tie('v'), { maxLength: 4 }), ws).map(([vs, w]) => `[${w}${vs.join(`${w},${w}`)}${w}]`),
      fc.tuple(fc.array(fc.tuple(key, pick, tie('v'), ws), { maxLength: 5 }), ws).map(([ms, w]) => `{${w}${ms.map(([k, p, v, w2]) => `${literal(k, p)}${w2}:${w2}${v}`).join(`${w},`)}${w}}`),
    ),
  })).v;
  return fc.oneof(
    fc.tuple(fc.array(fc.tuple(key, pick, json, ws), { maxLength: 6 }), ws).map(([ms, w]) => `${w}{${ms.map(([k, p, v, w2]) => `${w2}${literal(k, p)}:${v}`).join(',')}}${w}`),
    fc.array(json, { maxLength: 5 }).map((vs) => `[${vs.join(',')}]`),
  );
}
