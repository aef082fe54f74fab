/**
 * An outcome JSON cannot write (a cycle, a toJSON giving nothing) once fell back to String(), which for an
 * array is its join: it walks every element as JSON does, so an array both cyclic and reusing one array at
 * each of forty levels (2^40 elements, a few hundred bytes) never ended in errorText, resultText or the SDK
 * adapters' outcomeText. Such an array now stands as its fingerprint in letters (outcomeString,
 * src/text/outcome-text.ts); other objects read as their String() as before.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorText, resultText } from '../src/text/outcome-text.js';
import { outcomeText } from '../src/adapters/shared.js';
import { runChildScript } from './helpers/child-run.js';

const dist = (p: string): string => fileURLToPath(new URL(`../dist/src/${p}`, import.meta.url));
const FINGERPRINT = /^\[value [g-v]{16}\]$/;

describe('an outcome JSON cannot write that fans out', () => {
  // in a child killed after 60 s: against integ (adf84d8) each of the four is killed (String() joins 2^40 elements)
  const cases: Record<string, string> = {
    'errorText of a cyclic array fanned out': `errorText(cyclic())`,
    "the adapters' outcomeText of a cyclic array fanned out": `outcomeText(cyclic())`,
    'resultText of a fanned-out array whose toJSON gives nothing': `resultText(silent())`,
    'errorText of a fanned-out array whose toJSON gives nothing': `errorText(silent())`,
    'LiveGuard.record of a cyclic array fanned out as its error': `(await new LiveGuard().record('s', { tool: 't', args: { a: 1 }, error: cyclic() })).action`,
  };
  for (const [name, call] of Object.entries(cases)) {
    it(`should end, the array as its fingerprint: ${name}`, { timeout: 90_000 }, async () => {
      const script = `
import { LiveGuard } from ${JSON.stringify(dist('index.js'))};
import { errorText, resultText } from ${JSON.stringify(dist('text/outcome-text.js'))};
import { outcomeText } from ${JSON.stringify(dist('adapters/shared.js'))};
const fanned = () => { let v = [1]; for (let i = 0; i < 40; i++) v = [v, v]; return v; };
const cyclic = () => { const a = []; a.push(a, fanned()); return a; };
const silent = () => { const a = fanned(); a.toJSON = () => undefined; return a; };
console.log(${call});`;
      const run = await runChildScript(script, 60_000);
      expect(run.killed, name).toBe(false);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.trim()).toMatch(name.startsWith('LiveGuard') ? /^(allow|warn|block)$/ : FINGERPRINT);
    });
  }

  it('should read a small cyclic array as its fingerprint, different arrays apart, and other objects as before', () => {
    const a: unknown[] = [1];
    a.push(a);
    const b: unknown[] = [2];
    b.push(b);
    expect(errorText(a)).toMatch(FINGERPRINT);
    expect(errorText(a)).not.toBe(errorText(b));
    expect(outcomeText(a)).toBe(errorText(a));
    const o: Record<string, unknown> = { x: 1 };
    o['self'] = o;
    expect(errorText(o)).toBe('[object Object]');
    expect(errorText({ n: 1n })).toBe('[object Object]');
    expect(errorText([1, 'two'])).toBe('[1,"two"]');
    expect(resultText([1, 2])).toBe('[1,2]');
  });
});
