/**
 * Tool results holding images (a screenshot tool in Claude Code, an Anthropic tool_result with an image
 * block): the text parts are kept and each image becomes a short placeholder with its media type, its size
 * and a fingerprint of its bytes, never its base64; the same image twice reads the same, two different
 * images do not.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { imagePlaceholder } from '../src/formats/image-part.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-image-results');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/** A PNG-like image of `n` bytes whose content depends on `seed`. */
const png = (n: number, seed: number): string => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) & 255)).toString('base64');
const image = (data: string, media_type = 'image/png') => ({ type: 'image', source: { type: 'base64', media_type, data } });
const PLACEHOLDER = /^\[image image\/png, 20,000 bytes, [0-9a-f]{16}\]$/;

describe('tool results with images', () => {
  it('should read a Claude Code screenshot result as its text and a placeholder per image', async () => {
    const base = { sessionId: 's-img', isSidechain: false, userType: 'external', cwd: '/app', version: '2.0.14' };
    const shot = (n: number, data: string) => [
      { ...base, type: 'assistant', uuid: `a${n}`, message: { id: `m${n}`, role: 'assistant', content: [{ type: 'tool_use', id: `t${n}`, name: 'mcp__browser__screenshot', input: { fullPage: true } }] } },
      { ...base, type: 'user', uuid: `u${n}`, parentUuid: `a${n}`, message: { role: 'user', content: [{ tool_use_id: `t${n}`, type: 'tool_result', content: [{ type: 'text', text: 'Took a screenshot.' }, image(data)] }] } },
    ];
    const same = png(20_000, 1);
    const file = write('screens.jsonl', jsonl([...shot(1, same), ...shot(2, same), ...shot(3, png(20_000, 2))]));
    const calls = (await collect([file])).filter((i): i is TraceCall => i.kind === 'call');
    const results = calls.map((c) => c.event.result as string);
    for (const r of results) {
      const [text, placeholder] = r.split('\n');
      expect(text).toBe('Took a screenshot.');
      expect(placeholder).toMatch(PLACEHOLDER);
      expect(r.length).toBeLessThan(100);
    }
    expect(results[0]).toBe(results[1]);
    expect(results[2]).not.toBe(results[0]);
    expect(calls.every((c) => c.errorInfo === 'absent')).toBe(true);
  });

  it('should read an Anthropic tool_result with an image the same way', async () => {
    const file = write('anthropic.jsonl', jsonl([{ id: 'conv', messages: [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'screenshot', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: [image(png(20_000, 1))] }] },
    ] }]));
    const [call] = (await collect([file])).filter((i): i is TraceCall => i.kind === 'call');
    expect(call?.event.result).toMatch(PLACEHOLDER);
  });

  it('should give the decoded size whatever the padding, and name images from other sources', () => {
    for (const n of [1, 2, 3, 4]) expect(imagePlaceholder(image(png(n, 0), 'image/jpeg'))).toMatch(new RegExp(`^\\[image image/jpeg, ${n} bytes, [0-9a-f]{16}\\]$`));
    expect(imagePlaceholder({ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } })).toMatch(/^\[image url, [0-9a-f]{16}\]$/);
    expect(imagePlaceholder({ type: 'image', source: { type: 'base64', data: '' } })).toMatch(/^\[image unknown type, 0 bytes, [0-9a-f]{16}\]$/);
    expect(imagePlaceholder({ type: 'text', text: 'x' })).toBeNull();
    expect(imagePlaceholder({ type: 'image' })).toBeNull();
  });
});
