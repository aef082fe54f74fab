/**
 * newuser31: one reading of a size in bytes (src/text/byte-size.ts) for every flag and variable that takes
 * one. `LOOPWATCH_DECISION_LOG_MAX_BYTES` took `16M` where serve's `--session-memory`, `--body-limit`,
 * `--stream-max-bytes` and mcp's `--max-line-bytes` refused it ("must be an integer"); now each takes plain
 * bytes, as before, or K, M or G.
 */
import { describe, expect, it } from 'vitest';
import { parseByteSize } from '../src/text/byte-size.js';
import { serveSettings } from '../src/cli/serve-command.js';
import { decisionLogCap, DECISION_LOG_MAX_ENV, MAX_DECISION_LOG_BYTES } from '../src/hooks/decision-log.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

const MiB = 1024 * 1024;

describe('a size in bytes', () => {
  it('should read plain bytes and K, M, G in every spelling the variable took', () => {
    for (const [text, n] of [
      ['4194304', 4194304],
      [' 512k ', 512 * 1024],
      ['64M', 64 * MiB],
      ['64 MiB', 64 * MiB],
      ['64mb', 64 * MiB],
      ['64Mi', 64 * MiB],
      ['2G', 2 * 1024 * MiB],
      ['100B', 100],
    ] as const)
      expect(parseByteSize(text), text).toBe(n);
    for (const text of ['', 'M', '1.5M', '-1', '64 T', '64MM', '1'.repeat(16), `${'9'.repeat(15)}G`, '64ib']) expect(parseByteSize(text), text).toBeNull();
  });

  it("should be read by serve's byte flags as by the decision log's variable", () => {
    const http = serveSettings(['--session-memory', '64M', '--body-limit', '512K']);
    expect(http.kind === 'http' && [http.options.sessionMemory, http.options.bodyLimit]).toEqual([64 * MiB, 512 * 1024]);
    const nats = serveSettings(['--nats', 'nats://127.0.0.1:4222', '--stream-max-bytes', '2G', '--session-memory', '1GiB']);
    expect(nats.kind === 'nats' && [nats.options.maxBytes, nats.options.sessionMemory]).toEqual([2 * 1024 * MiB, 1024 * MiB]);
    // plain bytes, as before
    const plain = serveSettings(['--session-memory', String(64 * MiB)]);
    expect(plain.kind === 'http' && plain.options.sessionMemory).toBe(64 * MiB);
    expect(decisionLogCap({ [DECISION_LOG_MAX_ENV]: '64M' })).toBe(64 * MiB);
    expect(decisionLogCap({ [DECISION_LOG_MAX_ENV]: 'lots' })).toBe(MAX_DECISION_LOG_BYTES);
  });

  it('should be refused in one line naming the flag, the range and the spellings, exit 2', async () => {
    const r = await loopwatchInProcess(['serve', '--body-limit', '2T']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--body-limit must be an integer from 1024 to 1,073,741,824 bytes (N, or N with K, M or G for KiB, MiB, GiB: 64M), received "2T"');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const m = await loopwatchInProcess(['mcp', '--max-line-bytes', '2G', '--', process.execPath, '-e', '']);
    expect(m.code).toBe(2);
    expect(m.stderr).toContain('--max-line-bytes must be an integer from 1024 to 1,073,741,824 bytes (N, or N with K, M or G');
  });
});
