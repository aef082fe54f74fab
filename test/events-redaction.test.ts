import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoopDetector, redactSecrets } from '../src/index.js';
import { applyRules } from '../src/text/redact.js';
import type { Verdict } from '../src/index.js';
import { ALL_OFF, times } from './helpers/session.js';

const exactOnly = { ...ALL_OFF, exactRepeat: true } as const;

describe('detection events', () => {
  afterEach(() => vi.restoreAllMocks());

  it('should publish every verdict to subscribers and to onDetection, until unsubscribed', () => {
    const viaOption: Verdict[] = [];
    const viaSubscribe: Verdict[] = [];
    const d = new LoopDetector({ detectors: exactOnly, onDetection: (v) => viaOption.push(v) });
    const off = d.subscribe((v) => viaSubscribe.push(v));
    const returned = times(4, { tool: 'a', args: {} }).map((e) => d.check(e));
    expect(viaOption).toEqual(returned.filter(Boolean));
    expect(viaSubscribe).toEqual(returned.filter(Boolean));
    off();
    d.check({ tool: 'a', args: {} });
    expect(viaSubscribe).toHaveLength(2);
    expect(viaOption).toHaveLength(3);
  });

  it('should keep serving when a listener throws, and warn about it', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const d = new LoopDetector({ detectors: exactOnly });
    d.subscribe(() => {
      throw new Error('listener bug');
    });
    const v = times(3, { tool: 'a', args: {} }).map((e) => d.check(e));
    expect(v[2]?.kind).toBe('exact_repeat');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('listener bug'), 'LoopwatchListenerWarning');
  });

  it('should give verdicts as frozen plain data that survives JSON', () => {
    const d = new LoopDetector({ detectors: exactOnly });
    const v = times(3, { tool: 'a', args: { x: 1 }, step: 7, round: 2 }).map((e) => d.check(e))[2]!;
    expect(Object.isFrozen(v)).toBe(true);
    expect(JSON.parse(JSON.stringify(v))).toEqual(v);
    expect(v.unit[0]).toEqual({ index: 2, tool: 'a', signature: expect.stringMatching(/^[0-9a-f]{16}$/), step: 7, round: 2 });
  });
});

describe('secret redaction', () => {
  const secrets = [
    'sk-proj-abcdefghijklmnopqrstuvwx1234',
    'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    'AKIAIOSFODNN7EXAMPLE',
    'xoxb-123456789012-abcdefghij',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  ];

  it('should redact API keys, tokens and passwords', () => {
    for (const s of secrets) expect(redactSecrets(`token is ${s} ok`)).not.toContain(s);
    expect(redactSecrets('Authorization: Bearer abc.def-ghi_jkl123')).toBe('Authorization: Bearer [REDACTED]');
    expect(redactSecrets('{"password": "hunter22", "user": "bob"}')).toBe('{"password": "[REDACTED]", "user": "bob"}');
    expect(redactSecrets('api_key=QWERTY12345&q=cats')).toBe('api_key=[REDACTED]&q=cats');
    expect(redactSecrets('postgres://admin:s3cr3t@db:5432/app')).toBe('postgres://admin:[REDACTED]@db:5432/app');
    expect(redactSecrets('-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----')).toBe('[REDACTED]');
  });

  it('should redact exactly as every rule applied in full would (the trigger pre-check loses nothing)', () => {
    const part = fc.oneof(
      fc.constantFrom(...secrets, 'Bearer ', 'basic ', 'TOKEN ', 'Api-Key: ', 'apikey=', 'client_secret=', 'PASSWD:', 'pwd=', 'refresh-token ', 'https://u:', '@host', '-----BEGIN EC PRIVATE KEY-----', 'AIzaSyA1234567890abcdefghijklmnopqrstuv', 'github_pat_11ABCDEFG0123456789abcdef', 'rk-live-', 'sK-', ' ', '"', "'", '=', ':', '\\"'),
      fc.string({ maxLength: 12 }),
      fc.stringMatching(/^[A-Za-z0-9_.~+/=-]{3,24}$/),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
        const text = parts.join('');
        expect(redactSecrets(text)).toBe(applyRules(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('should leave ordinary text alone', () => {
    const text = 'ls -la /repo/src && grep -n "token" parser.py # count tokens in skeleton-key.md';
    expect(redactSecrets(text)).toBe(text);
  });

  it('should redact secrets in verdict patterns, messages and events by default', () => {
    const seen: Verdict[] = [];
    const d = new LoopDetector({ detectors: exactOnly, onDetection: (v) => seen.push(v) });
    const e = { tool: 'http', args: { url: 'https://api.example.com', headers: { Authorization: `Bearer ${secrets[0]}` } } };
    const v = times(3, e).map((x) => d.check(x))[2]!;
    expect(v.pattern).not.toContain(secrets[0]);
    expect(v.message).not.toContain(secrets[0]);
    expect(v.signals[0]!.pattern).not.toContain(secrets[0]);
    expect(seen[0]!.message).not.toContain(secrets[0]);
  });

  it('should keep secrets when redaction is turned off', () => {
    const d = new LoopDetector({ detectors: exactOnly, redactSecrets: false });
    const v = times(3, { tool: 'login', args: { password: 'hunter22' } }).map((x) => d.check(x))[2]!;
    expect(v.pattern).toContain('hunter22');
  });
});
