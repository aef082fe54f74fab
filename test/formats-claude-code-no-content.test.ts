/**
 * Claude Code 1.0.31 and 2.0.29-2.0.31 write a "(no content)" text block where a message had empty text.
 * It is no narration: the calls of such messages have no text, so twelve empty turns are not read as the
 * same sentence said twelve times.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_CONTENT } from '../src/formats/claude-code.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-no-content');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

// the shape of 2.0.29's lines (LilLeapo e10914de): the placeholder on its own line, the tool_use on the next
const base = { sessionId: 's-nc', isSidechain: false, version: '2.0.29', type: 'assistant' };
const line = (n: number, content: unknown[]) => ({ ...base, uuid: `a${n}-${content.length}`, message: { id: `msg_2025103021${n}`, role: 'assistant', type: 'message', content } });
const read = (n: number) => ({ id: `tooluse_${n}`, name: 'Read', type: 'tool_use', input: { file_path: `src/page${n}.tsx` } });

describe('Claude Code "(no content)" placeholders', () => {
  it('should give calls no text from a "(no content)" block, and keep real text beside it', async () => {
    const turns = [0, 1, 2, 3].flatMap((n) => [line(n, [{ type: 'text', text: NO_CONTENT }]), line(n, [read(n)])]);
    const file = write('no-content.jsonl', jsonl([...turns, line(9, [{ type: 'text', text: NO_CONTENT }, { type: 'text', text: 'Now the form.' }, read(9)])]));
    const calls = (await collect([file])).filter((i): i is TraceCall => i.kind === 'call');
    expect(calls.map((c) => [c.event.tool, c.event.text])).toEqual([
      ['Read', undefined],
      ['Read', undefined],
      ['Read', undefined],
      ['Read', undefined],
      ['Read', 'Now the form.'],
    ]);
  });
});
