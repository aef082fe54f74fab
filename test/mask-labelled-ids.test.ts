/**
 * A word labelled an id (`ID: <word>`) is volatile: Codex 0.118 heads a running command's output with
 * `Chunk ID: <random hex>` and `Wall time: ...`, so polls of a command that prints nothing new must read
 * the same once masked, in the TypeScript twin and in the WebAssembly module, and the result repeat
 * detector (which compares masked results) must see them as the same answer in both engines.
 */
import { describe, expect, it } from 'vitest';
import { type Engine, LoopDetector } from '../src/index.js';
import { maskVolatile } from '../src/text/mask-volatile.js';
import { ALL_OFF } from './helpers/session.js';

/** A write_stdin poll's output as Codex writes it while the command runs. */
const poll = (chunk: string, wall: string, body = '[translate] chunk 1/27: chunk_0000\n') => `Chunk ID: ${chunk}\nWall time: ${wall} seconds\nProcess running with session ID 52328\nOriginal token count: 9\nOutput:\n${body}`;

describe('labelled ids are masked', () => {
  it('should mask the word after "ID:" whole, whatever it holds, and nothing else differently', () => {
    expect(maskVolatile(poll('f800eb', '1.0024'))).toBe('Chunk ID: <id> Wall time: <n>.<n> seconds Process running with session ID <n> Original token count: <n> Output: [translate] chunk <path> chunk_<n>');
    for (const [a, b] of [['f800eb', '6e6db0'], ['abcdef', '123456'], ['a1', 'deadbeefcafe']]) expect(maskVolatile(poll(a!, '1.0024'))).toBe(maskVolatile(poll(b!, '30.0031')));
    expect(maskVolatile('request id: 7Hq2xZ failed')).toBe('request id: <id> failed');
    expect(maskVolatile('Id:\tx/y')).toBe('Id: <id>');
    expect(maskVolatile('ID: "quoted"')).toBe('ID: <q>');
    expect(maskVolatile('ID:')).toBe('ID:');
    expect(maskVolatile('ID:  ')).toBe('ID:');
    expect(maskVolatile('UUID: abc and ID:x')).toBe('UUID: abc and ID:x');
    expect(maskVolatile(poll('f800eb', '1.0', 'building...'))).not.toBe(maskVolatile(poll('f800eb', '1.0', 'done')));
  });

  for (const engine of ['wasm', 'reference'] as const satisfies readonly Engine[]) {
    it(`should let result repeat see polls that differ only in their header as the same answer (${engine})`, () => {
      const d = new LoopDetector({ engine, detectors: { ...ALL_OFF, resultRepeat: true }, policy: { ladder: ['warn'], minConfidence: 0, progress: 'ignore' } });
      const chunks = ['f800eb', '6e6db0', 'abcdef', '0c1d2e'];
      // a newline sent each time: an empty poll is a wait the policy drops within its bounds (evidence-screen.ts waitWithinBounds)
      const verdicts = chunks.map((c, i) => d.check({ tool: 'write_stdin', args: { session_id: 52328, chars: '\n' }, result: poll(c, `${5 + i}.00${i}`) }));
      d.dispose();
      expect(verdicts.map((v) => v?.kind ?? null)).toEqual([null, null, 'result_repeat', 'result_repeat']);
    });
  }
});
