/**
 * The scan bench's input (issue 29: the traces ten times over): each copy's sessions are renamed `xK/<id>`
 * and every other byte of a line stays as it was, so the copies are the traces' own calls in new sessions;
 * the gzip file holds the same bytes as the plain one. Fixture traces written here.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { writeCopies } from '../bench/scan-end-to-end.js';
import { tempFolder } from './helpers/temp-folder.js';

const LINES = [
  '{"session": "a/1", "step": 0, "tool": "read", "args": {"path": "x"}, "result": "ok \\u00e9"}',
  '{"session": "b", "tool": "bash", "args": {"command": "ls"}}',
  // not in the traces' own layout: parsed and written again with the session renamed
  '{"tool":"edit","session":"c","args":{}}',
];

describe('the scan bench input', () => {
  it('should repeat the traces with the sessions renamed per copy, gzip and plain alike', async () => {
    const dir = tempFolder('scan-copies');
    writeFileSync(join(dir, 'events.jsonl.gz'), gzipSync(`${LINES.join('\n')}\n\n`));
    const plain = join(dir, 'ten.jsonl');
    const gz = join(dir, 'ten.jsonl.gz');
    const calls = await writeCopies(dir, 3, plain, gz);
    expect(calls).toBe(9);
    const text = readFileSync(plain, 'utf8');
    expect(gunzipSync(readFileSync(gz)).toString('utf8')).toBe(text);
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(9);
    for (let k = 0; k < 3; k++) {
      const [a, b, c] = lines.slice(3 * k, 3 * k + 3) as [string, string, string];
      expect(a).toBe(LINES[0]?.replace('"a/1"', `"x${k}/a/1"`));
      expect(b).toBe(LINES[1]?.replace('"b"', `"x${k}/b"`));
      expect(JSON.parse(c)).toEqual({ tool: 'edit', session: `x${k}/c`, args: {} });
    }
  });
});
