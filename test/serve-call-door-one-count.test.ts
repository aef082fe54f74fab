/**
 * serve's door (call-door.ts) measures a call's args within MAX_CALL_VALUES, then copies them capped:
 * capValue counted the values a second time before it copied (its own count, to MAX_PAYLOAD_VALUES, which
 * a measured call is always below). Now the copy is made without that count; what is kept is the same.
 */
import { describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_VALUES, MAX_TEXT, capText, capValue } from '../src/hooks/hook-payload.js';
import { MAX_CALL_VALUES, doorValue } from '../src/serve/call-door.js';

/** `o` behind a Proxy that counts its members read (`reads.n`). */
function counted(o: Record<string, unknown>, reads: { n: number }): Record<string, unknown> {
  return new Proxy(o, {
    get(t, k, r) {
      if (typeof k === 'string' && k.startsWith('f')) reads.n++;
      return Reflect.get(t, k, r) as unknown;
    },
  });
}

describe('the door, one count', () => {
  it('should measure a call below the hooks\' own count, so that count need not be made again', () => {
    expect(MAX_CALL_VALUES).toBeLessThan(MAX_PAYLOAD_VALUES);
  });

  // against integ (bd04d94): each member is read three times (the measure, capValue's count, the copy): 1 of 1 fails
  it('should read each member of args twice: to measure them, to copy them', () => {
    const n = 1000;
    const o = Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, i === 0 ? 'x'.repeat(MAX_TEXT + 5) : `v${i}`]));
    const reads = { n: 0 };
    const kept = doorValue(counted(o, reads), false);
    expect(reads.n).toBe(2 * n);
    // what is kept is capValue's copy, as before
    expect(kept.value).toEqual(capValue(o));
    expect((kept.value as Record<string, string>)['f0']).toBe(capText('x'.repeat(MAX_TEXT + 5)));
    // and redacted as before
    const secret = doorValue({ password: 'hunter2-hunter2', note: 'ok' });
    expect(JSON.stringify(secret.value)).not.toContain('hunter2');
  });
});
