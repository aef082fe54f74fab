import { describe, expect, it } from 'vitest';
import { DEAD_END_DEFAULTS } from '../src/index.js';
import { maskVolatile } from '../src/text/mask-volatile.js';
import { isInfraFailure } from '../src/text/infra-failure.js';
import { deadEndSignal } from '../src/detectors/dead-end.js';
import { fired, only, run } from './helpers/session.js';

const ok = (i: number) => ({ tool: 'bash', args: { command: `echo ${i}` }, result: String(i) });

describe('dead end detector', () => {
  it(`should detect the same error ${DEAD_END_DEFAULTS.threshold} times in ${DEAD_END_DEFAULTS.window} calls`, () => {
    const fail = { tool: 'bash', args: { command: 'make' }, error: 'make: *** No rule to make target' };
    const v = run(only('deadEnd'), [fail, ok(1), fail, ok(2), ok(3), fail]);
    expect(fired(v)).toEqual([5]);
    expect(v[5]!.kind).toBe('dead_end');
    expect(v[5]!.recommended).toBe('backtrack');
    expect(v[5]!.loopStart).toBe(0);
    expect(v[5]!.pattern).toContain('No rule to make target');
  });

  it('should say that the calls failed with no output, not show a blank error, when the error is blank', () => {
    // a blank error reaches the signal through the two-phase hook (a Codex command that printed a lone newline)
    for (const blank of ['', '\n', '  \n\t']) {
      const s = deadEndSignal(DEAD_END_DEFAULTS, blank, [0, 2, 4], 5, 'stalled');
      expect(s.pattern).toBe('3 calls in the last 5 failed with no output');
    }
    expect(deadEndSignal(DEAD_END_DEFAULTS, 'make: *** No rule', [0, 2, 4], 5, 'stalled').pattern).toBe('the same error 3 times in the last 5 calls: make: *** No rule');
  });

  it('should detect the same error class with varying arguments', () => {
    const events = ['utils', 'helpers', 'common'].map((m) => ({ tool: 'python', args: { code: `import ${m}` }, error: `ModuleNotFoundError: No module named '${m}' (line ${m.length})` }));
    expect(fired(run(only('deadEnd'), events))).toEqual([2]);
    expect(fired(run(only('deadEnd', { matchClass: false }), events))).toEqual([]);
  });

  it('should mask numbers, paths, quoted parts and ids into one class', () => {
    expect(maskVolatile("FileNotFoundError: [Errno 2] No such file: '/tmp/a/b.txt'")).toBe(maskVolatile("FileNotFoundError: [Errno 2] No such file: '/var/x.log'"));
    expect(maskVolatile('request 9f86d081884c7d65 failed after 3 retries')).toBe(maskVolatile('request 1b4f0e9851971998 failed after 12 retries'));
    expect(maskVolatile('cannot open src/main.rs')).toBe(maskVolatile('cannot open lib/util/x.rs'));
    expect(maskVolatile('permission denied')).not.toBe(maskVolatile('file not found'));
  });

  it('should keep a leading byte-order mark (U+FEFF) in masked text', () => {
    expect(maskVolatile('\ufeffpermission denied')).toBe('\ufeffpermission denied');
  });

  it('should never count infrastructure failures', () => {
    const infra = ['HTTP 429 Too Many Requests', 'rate limit exceeded, retry later', 'Error: 503 Service Unavailable', 'ETIMEDOUT', 'read ECONNRESET', 'Request timed out after 30s', 'connection reset by peer', 'status code 502'];
    for (const e of infra) expect(isInfraFailure(e)).toBe(true);
    for (const e of ['TypeError: x is undefined', 'AssertionError: expected 5 to equal 4', 'No such file or directory', 'exit code 1']) expect(isInfraFailure(e)).toBe(false);
    const events = infra.slice(0, 5).map((error) => ({ tool: 'fetch', args: { url: 'https://api.example.com/v1/items' }, error }));
    expect(fired(run(only('deadEnd'), [...events, ...events]))).toEqual([]);
  });

  it('should not fire on different errors, or on the same error spread beyond the window', () => {
    const errs = ['TypeError: a', 'KeyError: b', 'ValueError: c', 'IndexError: d'].map((error, i) => ({ tool: 'python', args: { i }, error }));
    expect(fired(run(only('deadEnd'), errs))).toEqual([]);
    const fail = { tool: 'bash', args: { command: 'make' }, error: 'No rule to make target' };
    const spread = [fail, ...Array.from({ length: 8 }, (_, i) => ok(i)), fail, ...Array.from({ length: 8 }, (_, i) => ok(i + 10)), fail];
    expect(fired(run(only('deadEnd'), spread))).toEqual([]);
  });
});
