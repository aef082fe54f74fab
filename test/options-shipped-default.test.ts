/**
 * One shipped default everywhere (issue 27): `new LoopDetector()`, LoopEngine and LoopPool run the `default`
 * preset's values (the hand-tuned ones with src/options/fitted-default.ts laid over: similar args at 4
 * similar calls, a cycle weighed 0.8), as `scan`, `eval`, `serve` and the hook do; preset `hand-tuned` gives
 * the built-in values. Fails when the library fills in the hand-tuned values (the 4-retry search below is
 * warned at its 3rd call instead of its 4th) or when `hand-tuned` gives the fitted ones.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector, LoopEngine, LoopPool, POLICY_DEFAULTS, SIMILAR_ARGS_DEFAULTS } from '../src/index.js';
import type { LoopDetectorOptions, ResolvedOptions, ToolEvent } from '../src/index.js';
import { DETECTOR_DEFAULTS, HAND_TUNED_DETECTORS } from '../src/options/detector-options.js';
import { FITTED_DEFAULT } from '../src/options/fitted-default.js';
import { HAND_TUNED_OPTIONS, HAND_TUNED_POLICY } from '../src/options/options.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { CONFIG_PRESETS, configOptions } from '../src/presets/config-options.js';
import { presetOptions } from '../src/presets/presets.js';

const handTuned = (o?: LoopDetectorOptions): LoopDetectorOptions => (CONFIG_PRESETS['hand-tuned'] as (e?: LoopDetectorOptions) => LoopDetectorOptions)(o);
/** What decides detection (stats, callbacks and the session id are per caller). */
const detection = (o: ResolvedOptions): object => ({ detectors: o.detectors, policy: o.policy, tools: o.tools, allow: o.allow, ignoreFields: o.ignoreFields, normalizeVolatile: o.normalizeVolatile });
/** The fit laid over the hand-tuned values, as `loopwatch scan --preset default` has run it since it shipped. */
const FITTED = resolveOptions(configOptions({ preset: 'hand-tuned', detectors: FITTED_DEFAULT.detectors, policy: FITTED_DEFAULT.policy }));

/** Five misspelled retries of a search that finds nothing. */
const RETRIES: ToolEvent[] = ['handleSubmitForm', 'handleSubmitFrom', 'handleSubmtForm', 'handleSubmitFom', 'handelSubmitForm'].map((pattern) => ({
  tool: 'grep',
  args: { pattern, path: 'src/' },
  result: 'No matches found.',
}));
const shown = (v: { kind: string; action: string } | null): string => (v === null ? '-' : `${v.kind}:${v.action}`);

describe('the shipped default', () => {
  it('should be what new LoopDetector(), LoopEngine and LoopPool resolve with no options', async () => {
    expect(detection(new LoopDetector().options)).toEqual(detection(FITTED));
    const engine = new LoopEngine();
    expect(detection(engine.options.detection)).toEqual(detection(FITTED));
    engine.close();
    const pool = new LoopPool({ workers: 1 });
    try {
      expect(detection(pool.options.detection)).toEqual(detection(FITTED));
    } finally {
      await pool.close();
    }
    expect(detection(resolveOptions(configOptions({})))).toEqual(detection(FITTED));
    expect(detection(resolveOptions(configOptions(FITTED_DEFAULT)))).toEqual(detection(FITTED));
  });

  it('should export the fitted values as the defaults, and they should pass validation', () => {
    expect(SIMILAR_ARGS_DEFAULTS.threshold).toBe(4);
    expect(POLICY_DEFAULTS.kindWeights.cycle).toBe(0.8);
    const checked = resolveOptions({ detectors: { ...DETECTOR_DEFAULTS }, policy: POLICY_DEFAULTS });
    expect(checked.detectors).toEqual(FITTED.detectors);
    expect(checked.policy).toEqual(FITTED.policy);
    expect(Object.isFrozen(SIMILAR_ARGS_DEFAULTS) && Object.isFrozen(POLICY_DEFAULTS) && Object.isFrozen(POLICY_DEFAULTS.kindWeights)).toBe(true);
  });

  it('should give the built-in values under preset hand-tuned, a detector set to true included', () => {
    const hand = resolveOptions(handTuned());
    expect(hand.detectors).toEqual(HAND_TUNED_DETECTORS);
    expect(hand.policy).toEqual(HAND_TUNED_POLICY);
    expect(hand.detectors.similarArgs?.threshold).toBe(3);
    expect(hand.policy.kindWeights).toEqual({});
    expect(resolveOptions(HAND_TUNED_OPTIONS).detectors).toEqual(hand.detectors);
    expect(resolveOptions(handTuned({ detectors: { similarArgs: true } })).detectors.similarArgs?.threshold).toBe(3);
    expect(resolveOptions({ detectors: { similarArgs: true } }).detectors.similarArgs?.threshold).toBe(4);
    // a caller's fields are laid over the hand-tuned ones
    expect(resolveOptions(handTuned({ detectors: { similarArgs: { window: 12 } }, policy: { cooldown: 3 } })).detectors.similarArgs).toEqual({ similarity: 0.8, threshold: 3, window: 12 });
  });

  it('should read kindWeights {} as no kind weighed, under either', () => {
    expect(resolveOptions({ policy: { kindWeights: {} } }).policy.kindWeights).toEqual({});
    expect(resolveOptions(handTuned({ policy: { kindWeights: {} } })).policy.kindWeights).toEqual({});
  });

  it('should keep the seed presets on the hand-tuned values they were measured with (no fitted weights)', () => {
    for (const o of [presetOptions.balanced(), presetOptions.conservative(), presetOptions.aggressive(), presetOptions.chimera(), presetOptions.toolLoop(), presetOptions.multiResolution()]) {
      expect(resolveOptions(o).policy.kindWeights).toEqual({});
    }
  });

  it('should warn a search retried with misspellings at its 4th call in the library, the engine and a pool (hand-tuned: the 3rd)', async () => {
    const detector = new LoopDetector();
    expect(RETRIES.map((e) => shown(detector.check(e)))).toEqual(['-', '-', '-', 'similar_args:warn', 'similar_args:warn']);
    const engine = new LoopEngine();
    expect(RETRIES.map((e) => shown(engine.check('s', e)))).toEqual(['-', '-', '-', 'similar_args:warn', 'similar_args:warn']);
    engine.close();
    const pool = new LoopPool({ workers: 1 });
    try {
      const out: string[] = [];
      for (const e of RETRIES) out.push(shown(await pool.check('s', e)));
      expect(out).toEqual(['-', '-', '-', 'similar_args:warn', 'similar_args:warn']);
    } finally {
      await pool.close();
    }
    const hand = new LoopDetector(handTuned());
    expect(RETRIES.map((e) => shown(hand.check(e)))).toEqual(['-', '-', 'similar_args:warn', 'similar_args:warn', 'similar_args:break']);
  });
});
