/**
 * A result given as a value (an object, not a string) is fingerprinted by both engines, but its strings are
 * never part of the call's action text: the semantic detector reads the tool and the args (or description)
 * only (src/text/action-text.ts). The module collects action text while it hashes an encoded value, so the
 * result's walk must not add to it.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';

function verdicts(o: LoopDetectorOptions, events: readonly ToolEvent[]): { ref: string[]; wasm: string[] } {
  const ref = new LoopDetector({ ...o, engine: 'reference' });
  const wasm = new LoopDetector({ ...o, engine: 'wasm' });
  try {
    return { ref: events.map((e) => JSON.stringify(ref.check(e))), wasm: events.map((e) => JSON.stringify(wasm.check(e))) };
  } finally {
    wasm.dispose();
  }
}

const denied = { output: 'permission denied: /tmp/x' };

describe('a result given as a value, in both engines', () => {
  it('should give identical verdicts when different commands get the same failure-looking value (default options)', () => {
    const events = ['ls', 'ls', 'grep x'].map((command): ToolEvent => ({ tool: 'bash', args: { command }, result: denied }));
    const { ref, wasm } = verdicts({}, events);
    expect(wasm).toEqual(ref);
    // the actions "bash ls" and "bash grep x" are not paraphrases: no semantic verdict from either
    expect(wasm.join()).not.toContain('"semantic"');
  });

  it('should keep result strings out of the action text with semantic alone, with a description and with nested values', () => {
    const semanticOnly = { detectors: { exactRepeat: false, frequency: false, cycle: false, resultRepeat: false, deadEnd: false, stateRepeat: false, similarArgs: false, chanting: false, semantic: { minSimilar: 1 } } } as const;
    const nested = { output: { lines: ['permission denied: /tmp/x', 'retry later please'] }, error: 'EACCES open failed' };
    const streams: ToolEvent[][] = [
      ['ls', 'cat a', 'grep x', 'pwd'].map((command) => ({ tool: 'bash', args: { command }, result: denied })),
      ['ls', 'cat a', 'grep x'].map((command) => ({ tool: 'bash', args: { command }, result: nested })),
      ['list the folder', 'show the file', 'find the word'].map((description) => ({ tool: 'bash', args: {}, description, result: nested })),
      ['ls', 'cat a', 'grep x'].map((command) => ({ tool: 'bash', args: JSON.stringify({ command }), result: [denied, 'permission denied again'] })),
    ];
    for (const events of streams) {
      const { ref, wasm } = verdicts(semanticOnly, events);
      expect(wasm).toEqual(ref);
      expect(ref.every((v) => v === 'null')).toBe(true);
    }
  });
});
