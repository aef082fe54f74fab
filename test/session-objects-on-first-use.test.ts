/**
 * What a session makes only when first needed (issue 29: a session's JavaScript side of at most ~1 KB): a
 * quiet session has no verdict policy, evidence screen, ladder or stats tally beyond its two counts, its
 * call log no args, held or reference columns, and its call facts live in the log's words (with WebAssembly, a block of the thread's shared chunks); the
 * module's reading of a call, the reused host call and the outcome facts are the thread's. Making them
 * later changes no verdict, stat or snapshot byte (the snapshot, retention and live tests hold those).
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import type { CallLog } from '../src/state/call-log.js';

const CORE: LoopDetectorOptions = { detectors: { exactRepeat: true, frequency: true, cycle: true, resultRepeat: true } };
const ENGINES = ['wasm', 'reference'] as const;

interface Inside {
  verdicts: unknown;
  tallied: unknown;
  facts: { holder: unknown };
  pipeline: Record<string, unknown> & { log: CallLog };
}
const inside = (d: LoopDetector): Inside => d as unknown as Inside;
const columns = (log: CallLog): Record<string, unknown> => log as unknown as Record<string, unknown>;

/** Two letters for `i` (results told apart by letters: result repeat masks numbers). */
const letters = (i: number): string => String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26));
/** `n` calls that never repeat, nor do their results: no detector has anything to say. */
const quiet = (n: number): ToolEvent[] => Array.from({ length: n }, (_, i) => ({ tool: `tool-${letters(i)}`, args: { path: `src/${letters(i)}.ts` }, result: `the page on ${letters(i)}` }));

describe('a session\'s objects, made on first use', () => {
  for (const engine of ENGINES) {
    it(`should make no policy, tally, args or reference column in a quiet session (${engine})`, () => {
      const d = new LoopDetector({ ...CORE, engine });
      for (const e of quiet(100)) expect(d.check(e)).toBeNull();
      const s = inside(d);
      expect(s.verdicts).toBeNull();
      expect(s.tallied).toBeNull();
      expect(d.stats().checks).toBe(100);
      const log = columns(s.pipeline.log);
      for (const c of ['args', 'held', 'previews', 'refs']) expect(log[c] ?? null).toBeNull();
      // the facts' words are the log's, read through it (in a block of the thread's shared chunks with WebAssembly)
      expect(s.facts.holder).toBe(s.pipeline.log);
      d.dispose();
    });

    it(`should make the policy and tally by the first signal, and keep no references or args after (${engine})`, () => {
      const d = new LoopDetector({ ...CORE, engine });
      const same: ToolEvent = { tool: 'read', args: { path: 'a.ts' }, result: 'same' };
      const verdicts = [same, same, same, same, same].map((e) => d.check(e));
      expect(verdicts.some((v) => v !== null)).toBe(true);
      const s = inside(d);
      expect(s.verdicts).not.toBeNull();
      expect(s.tallied).not.toBeNull();
      const log = s.pipeline.log;
      // a reference is built when read, equal each time, and not kept
      expect(log.ref(4)).toEqual(log.ref(4));
      expect(log.ref(4)).not.toBe(log.ref(4));
      for (const c of ['args', 'held', 'refs']) expect(columns(log)[c] ?? null).toBeNull();
      d.dispose();
    });
  }

  it('should keep no per-session reading, host call or outcome object in a WebAssembly pipeline', () => {
    const d = new LoopDetector({ ...CORE, engine: 'wasm' });
    const same: ToolEvent = { tool: 'read', args: { path: 'a.ts' }, result: 'same' };
    for (let i = 0; i < 5; i++) d.check(same);
    const own = Object.keys(inside(d).pipeline);
    for (const f of ['reading', 'internalCall', 'lastTool', 'lastWalk', 'readsAck', 'summarizeInWalk', 'undoBytes']) expect(own).not.toContain(f);
    expect(Object.keys(d)).not.toContain('outcome');
    d.dispose();
  });
});
