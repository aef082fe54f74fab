/**
 * A config file for the library and the CLI alike: configOptions() gives a config's options (its preset
 * with its options laid over, validated), and the notes `loopwatch calibrate` writes in it (`expected`,
 * `fitted`) are accepted and ignored there and by every command's `--config`.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectionOptions } from '../src/cli/detection-options.js';
import { UsageError } from '../src/cli/usage-error.js';
import { CONFIG_PRESETS, LoopDetector, OptionRangeError, OptionTypeError, configOptions, presetOptions } from '../src/index.js';
import { tempDir } from './helpers/cli.js';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const notes = { expected: { twoPhase: { finishedBroken: { rate: 0.01 } } }, fitted: { command: 'loopwatch calibrate runs/', date: '2025-01-01T00:00:00.000Z' } };

describe('config files and their notes', () => {
  it('should give a config its preset with its options laid over, notes left out', () => {
    const options = { policy: { cooldown: 4, kindWeights: { cycle: 0.5 } }, detectors: { frequency: { threshold: 5 } } };
    expect(configOptions({ preset: 'balanced', ...options, ...notes })).toEqual(presetOptions.balanced(options));
    // no preset: the shipped default (fitted, CONFIG_PRESETS.default); hand-tuned: the built-in values
    expect(configOptions({ ...options, ...notes })).toEqual(CONFIG_PRESETS.default?.(options));
    const hand = new LoopDetector(configOptions({ preset: 'hand-tuned', ...options, ...notes })).options;
    expect(hand.detectors.frequency).toEqual({ threshold: 5, window: 20 });
    expect(hand.detectors.similarArgs?.threshold).toBe(3); // the built-in value (the shipped default's is 4)
    expect(hand.policy.cooldown).toBe(4);
    expect(new LoopDetector(configOptions({ preset: 'hand-tuned', ...options, ...notes })).options.policy.kindWeights).toEqual({ cycle: 0.5 });
    expect(new LoopDetector(configOptions({ ...options, ...notes })).options.policy.kindWeights.cycle).toBe(0.5);
  });

  it('should name what is wrong in a config', () => {
    expect(() => configOptions({ polcy: {} })).toThrow(OptionTypeError);
    expect(() => configOptions({ polcy: {} })).toThrow(/config.polcy is not a known option \(did you mean "policy"\?\)/);
    expect(() => configOptions({ preset: 'loud' })).toThrow(OptionRangeError);
    expect(() => configOptions({ preset: 3 })).toThrow(/config.preset must be a string, received 3 \(number\)/);
    expect(() => configOptions({ policy: { kindWeights: { cycle: -1 } } })).toThrow(/options.policy.kindWeights.cycle must be a number in \[0, 10\]/);
    expect(() => configOptions([])).toThrow(/config must be a plain object/);
  });

  it('should let every command read a config holding notes, and still refuse unknown keys', () => {
    const file = join(dir, 'fitted.json');
    writeFileSync(file, JSON.stringify({ preset: 'conservative', policy: { interleavedStep: 0.75 }, ...notes }));
    const options = detectionOptions(undefined, file);
    expect(options).toEqual(presetOptions.conservative({ policy: { interleavedStep: 0.75 } }));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ policy: {}, expectations: {} }));
    expect(() => detectionOptions(undefined, bad)).toThrow(UsageError);
    expect(() => detectionOptions(undefined, bad)).toThrow(/"expectations" is not a config option/);
  });
});
