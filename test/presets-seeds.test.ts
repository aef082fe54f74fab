/**
 * The seed designs' published examples, reproduced through the presets.
 */
import { describe, expect, it } from 'vitest';
import { GRADUATED, presets } from '../src/index.js';
import type { Detector, LoopSignal, ObservedCall } from '../src/index.js';
import { fired, run, times } from './helpers/session.js';

describe('presets.chimera (chimera.detection)', () => {
  it('ExactRepeatDetector(window=10, threshold=3): three identical bash ls calls are detected', () => {
    const v = run(presets.chimera({ window: 10, threshold: 3 }), times(3, { tool: 'bash', args: { command: 'ls' } }));
    expect(fired(v)).toEqual([2]);
    expect(v[2]!.kind).toBe('exact_repeat');
    expect(v[2]!.detector).toBe('exact_repeat');
  });

  it('PatternCycleDetector(window=10, threshold=2): read, edit, read, edit is a cycle of period 2 repeated 2 times', () => {
    const read = { tool: 'read_file', args: { path: 'a.py' } };
    const edit = { tool: 'edit_file', args: { path: 'a.py' } };
    const v = run(presets.chimera(), [read, edit, read, edit]);
    expect(fired(v)).toEqual([3]);
    expect(v[3]!.kind).toBe('cycle');
    expect(v[3]!.pattern).toMatch(/period 2/);
    expect(v[3]!.repeatCount).toBe(2);
  });

  it('CompositeDetector returns the first non-None result: exact repeat before pattern cycle', () => {
    const v = run(presets.chimera(), times(4, { tool: 'bash', args: { command: 'ls' } }));
    expect(v[3]!.signals).toHaveLength(1);
    expect(v[3]!.kind).toBe('exact_repeat');
  });

  it('LoopDetector(on_detect=OnDetect.BREAK, window=10, threshold=3): record_and_check returns a result that breaks', () => {
    const ld = presets.chimera({ onDetect: 'break', window: 10, threshold: 3 });
    const results = times(3, { tool: 'bash', args: { command: 'ls' } }).map((e) => ld.check(e));
    expect(results[2]?.action).toBe('break');
    expect(results[2]?.pattern).toContain('bash');
  });

  it('OnDetect ASK and WARN are fixed actions, not a ladder', () => {
    for (const onDetect of ['ask', 'warn'] as const) {
      const v = run(presets.chimera({ onDetect }), times(6, { tool: 'x', args: {} }));
      expect(v.filter(Boolean).every((x) => x!.action === onDetect)).toBe(true);
    }
  });

  it('custom strategies plug in (TokenBudgetDetector)', () => {
    class TokenBudgetDetector implements Detector {
      readonly name = 'token_budget';
      private tokens = 0;
      record(call: ObservedCall): void {
        this.tokens += JSON.stringify(call.args).length;
      }
      check(): LoopSignal | null {
        return this.tokens > 100 ? { kind: 'token_budget', detector: this.name, pattern: 'Token budget exceeded', confidence: 1 } : null;
      }
      reset(): void {
        this.tokens = 0;
      }
    }
    const d = presets.chimera({}, { custom: [new TokenBudgetDetector()] });
    const v = run(d, [{ tool: 'write', args: { text: 'x'.repeat(60) } }, { tool: 'write', args: { text: 'y'.repeat(60) } }]);
    expect(v[1]?.kind).toBe('token_budget');
    expect(v[1]?.pattern).toBe('Token budget exceeded');
  });
});

describe('presets.toolLoop (ToolLoopDetector)', () => {
  it('record then is_stuck: the same call 3+ times is stuck (defaults 3 in 20)', () => {
    const d = presets.toolLoop();
    d.check({ tool: 'search', args: { q: 'x' } });
    d.check({ tool: 'search', args: { q: 'x' } });
    expect(d.isStuck()).toBe(false);
    const v = d.check({ tool: 'search', args: { q: 'x' } });
    expect(d.isStuck()).toBe(true);
    expect(v?.action).toBe('break');
    d.check({ tool: 'other', args: {} });
    expect(d.isStuck()).toBe(true);
    d.reset();
    expect(d.isStuck()).toBe(false);
  });

  it('sort_keys makes {"a": 1, "b": 2} and {"b": 2, "a": 1} the same call', () => {
    const d = presets.toolLoop();
    for (const args of [{ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 1, b: 2 }]) d.check({ tool: 't', args });
    expect(d.isStuck()).toBe(true);
  });

  it('the sliding window keeps the last history_size calls', () => {
    const d = presets.toolLoop({ repeatThreshold: 3, historySize: 20 });
    d.check({ tool: 'a', args: {} });
    d.check({ tool: 'a', args: {} });
    for (let i = 0; i < 19; i++) d.check({ tool: 'filler', args: { i } });
    d.check({ tool: 'a', args: {} });
    expect(d.isStuck()).toBe(false);
  });

  it('known limitation kept: semantic variants are different calls', () => {
    const d = presets.toolLoop();
    for (const c of ['ls', 'ls -a', 'ls -la']) d.check({ tool: 'bash', args: { command: c } });
    expect(d.isStuck()).toBe(false);
  });
});

describe('presets.balanced / conservative / aggressive (graduated LoopDetectorConfig)', () => {
  const A = { tool: 'read', args: { p: 'a' } };
  const B = { tool: 'write', args: { p: 'b' } };

  it('test_exact_duplicate_detection: 3 identical calls trigger detection (balanced, max_duplicates 2)', () => {
    expect(fired(run(presets.balanced(), times(3, A)))).toEqual([2]);
  });

  it('test_pattern_detection: A -> B -> A -> B is detected', () => {
    const v = run(presets.balanced(), [A, B, A, B]);
    expect(fired(v)).toEqual([3]);
    expect(v[3]!.kind).toBe('cycle');
  });

  it('test_no_false_positives: different calls do not trigger', () => {
    expect(fired(run(presets.balanced(), Array.from({ length: 30 }, (_, i) => ({ tool: 'read', args: { p: `f${i}` } }))))).toEqual([]);
  });

  it('test_graduated_response: Warn -> Warn -> Terminate', () => {
    const v = run(presets.balanced(), times(6, A));
    expect(v.filter(Boolean).map((x) => x!.action)).toEqual(['warn', 'warn', 'break', 'break']);
    expect(v.filter(Boolean).map((x) => x!.detectionCount)).toEqual([1, 2, 3, 4]);
  });

  it('test_clear_resets_state: clear() resets the detection count', () => {
    const d = presets.balanced();
    run(d, times(5, A));
    d.reset();
    const v = run(d, times(3, A));
    expect(v[2]!.detectionCount).toBe(1);
    expect(v[2]!.action).toBe('warn');
  });

  it('test_window_size_limit: old calls are discarded', () => {
    const others = Array.from({ length: GRADUATED.balanced.window }, (_, i) => ({ tool: 'other', args: { i } }));
    expect(fired(run(presets.balanced(), [A, ...others, A, A]))).toEqual([]);
  });

  it('aggressive (max_duplicates 1): the first duplicate is flagged, then Warn -> Terminate', () => {
    const v = run(presets.aggressive(), times(3, A));
    expect(v.map((x) => x?.action ?? null)).toEqual([null, 'warn', 'break']);
  });

  it('conservative (max_duplicates 4, patterns of 3..5 repeated 3 times): Warn x3 then Terminate', () => {
    const v = run(presets.conservative(), times(9, A));
    expect(fired(v)[0]).toBe(4);
    expect(v.filter(Boolean).map((x) => x!.action)).toEqual(['warn', 'warn', 'warn', 'break', 'break']);
    const C = { tool: 'c', args: {} };
    expect(fired(run(presets.conservative(), [A, B, A, B, A, B]))).toEqual([]);
    expect(fired(run(presets.conservative(), [A, B, C, A, B, C, A, B, C]))).toEqual([8]);
  });
});

describe('presets.multiResolution (corteX MultiResolutionLoopDetector)', () => {
  it('the usage example: the same code_write step three times is a loop, fused and recommended "replan"', () => {
    const d = presets.multiResolution();
    const step = { tool: 'code_write', description: 'Writing user model', result: 'class User(Model): ...' };
    const v = run(d, times(3, step));
    expect(fired(v)).toEqual([2]);
    const e = v[2]!;
    // state hash 0.5 + 0.15 * (3 - 3) and Jaccard 0.4 + 0.2 * 2 similar, fused: mean + 0.1 * (2 - 1)
    expect(e.signals.map((s) => [s.kind, s.confidence])).toEqual([
      ['semantic', 0.8],
      ['state_repeat', 0.5],
    ]);
    expect(e.confidence).toBeCloseTo(0.75, 6);
    expect(e.kind).toBe('semantic'); // primary loop type: highest confidence
    expect(e.recommended).toBe('replan');
  });

  it('oscillation of action types A -> B -> A -> B (periods 2..4)', () => {
    const v = run(presets.multiResolution(), [
      { tool: 'code_write', description: 'write the parser module', result: 'v1' },
      { tool: 'test_run', description: 'run unit tests for parser', result: 'fail 1' },
      { tool: 'code_write', description: 'rewrite tokenizer class', result: 'v2' },
      { tool: 'test_run', description: 'execute integration suite', result: 'fail 2' },
    ]);
    expect(v[3]?.signals.map((s) => s.kind)).toContain('cycle');
    expect(v[3]?.signals.find((s) => s.kind === 'cycle')?.confidence).toBe(0.5);
  });

  it('dead end: the same error 3 times in 15 recommends backtrack', () => {
    const steps = ['push build to production', 'sync static assets', 'upload release bundle'];
    const v = run(presets.multiResolution(), steps.map((description) => ({ tool: 'deploy', description, error: 'PermissionError: access denied to bucket prod-assets' })));
    expect(v[2]?.kind).toBe('dead_end');
    expect(v[2]?.signals[0]?.confidence).toBe(0.6);
    expect(v[2]?.recommended).toBe('backtrack');
  });

  it.each(['wasm', 'reference'] as const)('compares descriptions only, as corteX does: paraphrases through differently named tools match (%s engine)', (engine) => {
    const steps = [
      { tool: 'web_search', args: { q: 'a' }, description: 'find the release date of the Pixel 9 phone' },
      { tool: 'kb_lookup', args: { q: 'b' }, description: 'release date of the Pixel 9 phone' },
      { tool: 'news_search', args: { q: 'c' }, description: 'find Pixel 9 phone release date' },
    ];
    const v = run(presets.multiResolution({}, { engine }), steps);
    expect(v[2]?.signals.map((s) => s.kind)).toContain('semantic');
    // different questions through the same differently named tools stay apart
    const other = run(presets.multiResolution({}, { engine }), [steps[0]!, { ...steps[1]!, description: 'weather in Lyon tomorrow' }, { ...steps[2]!, description: 'price of the Pixel 9 in euros' }]);
    expect(other.every((x) => x === null)).toBe(true);
  });

  it('escalates above confidence 0.85 or more than 5 repeats', () => {
    const v = run(presets.multiResolution(), times(8, { tool: 'code_write', description: 'Writing user model', result: 'same' }));
    expect(v[4]!.recommended).toBe('escalate');
  });
});
