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
    // one call a model turn (rounds 0, 1, 2): calls of one turn are one decision (the evidence screen)
    const v = [0, 1, 2].map((round) => d.check({ tool: 'a', args: { x: 1 }, step: 7, round }))[2]!;
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
      fc.constantFrom(...secrets, 'Bearer ', 'basic ', 'TOKEN ', 'Api-Key: ', 'apikey=', 'client_secret=', 'PASSWD:', 'pwd=', 'refresh-token ', 'https://u:', '@host', '-----BEGIN EC PRIVATE KEY-----', 'AIzaSyA1234567890abcdefghijklmnopqrstuv', 'github_pat_11ABCDEFG0123456789abcdef', 'rk-live-', 'sK-', ' ', '"', "'", '=', ':', '\\"', 'sk_live_', 'hf_', 'glpat-', 'npm_', 'SG.', '--password ', 'aws_secret_access_key ', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'eyJ', '.', 'a1B2'),
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

  it.each([
    ['Stripe keys with underscores', 'charge with sk_live_51HqLy2KZvKYlo2C8dF4jW7nX9pQ3rT and rk_test_51HqLy2Ab7Cd9Ef2Gh4Ij6Kl8Mn0Pq', 'charge with [REDACTED] and [REDACTED]'],
    ['a Google key ending in -', 'key=AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBW- next', 'key=[REDACTED] next'],
    ['a Google key ending in - at the end', 'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBW-', '[REDACTED]'],
    ['an AWS secret key after a space', 'aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'aws configure set aws_secret_access_key [REDACTED]'],
    ['an AWS secret key, bare', 'export X=Kq8Zt2Wv/Xy4Lm6Np+Rs1Bc3Df5Gh7Jk9Qa0Ws2E;', 'export X=[REDACTED];'],
    ['a quoted password with spaces and commas', 'password: "correct horse, battery staple" ok', 'password: "[REDACTED]" ok'],
    ['a quoted password in JSON', '{"password":"correct horse, battery","user":"bob"}', '{"password":"[REDACTED]","user":"bob"}'],
    ['a quoted password in JSON inside JSON', '{"body":"{\\"password\\":\\"correct horse, battery\\"}"}', '{"body":"{\\"password\\":\\"[REDACTED]\\"}"}'],
    ['a quoted value with an escaped quote', '{"api_key": "ab\\"cd ef"}', '{"api_key": "[REDACTED]"}'],
    ['Hugging Face, GitLab, SendGrid and npm tokens', 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 glpat-Xy9Zw8Vu7Ts6Rq5Po4Nm 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 npm_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2', '[REDACTED] [REDACTED] [REDACTED] [REDACTED]'],
    ['a secret flag', 'mysql --password hunter22 --user bob', 'mysql --password [REDACTED] --user bob'],
  ])('should redact %s', (_name, text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });

  it.each([
    ['a git commit hash', 'git checkout 3f786850e387550fdab836ed7e6dc881de23001b && git log'],
    ['an upper-case hash', 'SHA1 3F786850E387550FDAB836ED7E6DC881DE23001B'],
    ['a sha256', 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
    ['a 40-character word of one case', 'abcdefghijklmnopqrstuvwxyzabcdefghijklmn and ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMN'],
    ['a 40-character word of letters only', 'AbcdefghijKlmnopqrstUvwxyzabcdEfghijklmn'],
    ['a UUID', 'request 123e4567-e89b-12d3-a456-426614174000 failed'],
    ['short prefixes', 'pip install sk-learn; hf_hub; npm_config_cache; SG.1; glpat-x'],
    ['secret names without a value', 'the form has a password field, a --password-file option and an api_key: "" entry'],
  ])('should leave %s alone', (_name, text) => {
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
