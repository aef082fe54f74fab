/**
 * Call previews of args given as JSON text, read from the text (src/text/json-text-preview.ts,
 * `previewJsonCall`), are `previewCall(tool, JSON.parse(text))` (the specification) on random JSON text, at
 * every preview length around the cuts; null only where the parsed args' key order is not the text's (an
 * array-index key or a key named twice in an object the preview writes). Every trace call's args too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { previewCall, previewJsonCall } from '../src/text/call-preview.js';
import { collapsedJsonText } from '../src/text/json-text-preview.js';
import { collapsedText } from '../src/text/preview-text.js';
import { ascii, jsonArgsText } from './helpers/json-args-text.js';
import { runs } from './helpers/streams.js';
import { traceCalls, traceDir } from './helpers/traces.js';

/** Checks the preview of `t` against the specification; whether one was made from the text. */
function agrees(tool: string, t: string): boolean {
  const got = previewJsonCall(tool, t);
  if (got === null) return false;
  expect(got, t.slice(0, 300)).toBe(previewCall(tool, JSON.parse(t)));
  return true;
}

describe('call previews from JSON text', () => {
  it('are previewCall(tool, JSON.parse(text)), on random JSON text', () => {
    let made = 0;
    let n = 0;
    fc.assert(
      fc.property(jsonArgsText(60, 900), (t) => {
        n++;
        if (agrees('tool', t)) made++;
      }),
      { numRuns: runs(3000) },
    );
    expect(made).toBeGreaterThan(n / 2);
  });

  it('write the collapsed text of the parsed value at every length', () => {
    fc.assert(
      fc.property(jsonArgsText(5, 120), fc.integer({ min: 0, max: 200 }), (t, limit) => {
        const got = collapsedJsonText(t, limit);
        if (got !== null) expect(got, t).toBe(collapsedText(JSON.parse(t), limit));
      }),
      { numRuns: runs(2000) },
    );
  });

  it('give up exactly where the key order parts, and only in what the preview writes', () => {
    for (const t of ['{"a":1,"a":2}', '{"a":1,"\\u0061":2}', '{"0":1}', '{"b":1,"17":2}', '{"b":1,"4294967294":2}', `{"a":"${'x'.repeat(500)}","a":2}`, `{"a":"${'x'.repeat(500)}","1":2}`, `[{"a":1,"a":2}]`]) {
      expect(previewJsonCall('t', t), t).toBeNull();
    }
    // past the preview: an object it never opens is not read; keys that are not indices keep their place
    for (const t of [`["${'x'.repeat(500)}",{"a":1,"a":2,"0":3}]`, '{"01":1,"4294967295":2,"a":[],"-1":0,"1.0":2}', '{"__proto__":{"a":1}}', '{"x":"\\ud83d\\ude00\\ud800 \\u00ff\\/\\udc00\\ud83d"}', '[-0, 0, -0.0, 1.0, 1e2, 1E+2, 1e21, 1e-7, 1e400, -1e400, 5e-324, 100000000000000000000]', ` {\n  "a" : [ 1 , "b\\n\\n  c" ] ,\n "d": {} }\n`]) {
      expect(agrees('t', t), t).toBe(true);
    }
    const long = `{"content":"${'x\\n   '.repeat(3000)}","file_path":"/a/b"}`;
    expect(agrees('write', long)).toBe(true);
    expect(agrees('write', `{"body":"${' '.repeat(5000)}${'y'.repeat(500)}","k":"sk-${'a'.repeat(48)}"}`)).toBe(true);
  });

  it.skipIf(traceDir === null)("are every trace call's args' preview, from their JSON text", () => {
    let made = 0;
    const calls = traceCalls();
    for (const [, e] of calls) {
      if (typeof e.args !== 'object' || e.args === null) continue;
      if (agrees(e.tool, ascii(JSON.stringify(e.args)))) made++;
    }
    expect(made).toBeGreaterThan(calls.length * 0.95);
  });
});
