/**
 * Option validation: every option of `new LoopDetector(options)` (and of the presets' own parameters) is
 * checked at construction. Wrong types and unknown names throw OptionTypeError (a TypeError), right types
 * out of range throw OptionRangeError (a RangeError); every message names the option's dotted path, the
 * rule, and the value received with its type.
 *
 * One test per option: each asserts the wrong-type rejection(s), the out-of-range rejection(s) where the
 * option has a range, that a valid non-default value is accepted and visible in `detector.options`, and
 * (for detector and policy fields) that an explicit `undefined` means "not given", so the default is used.
 * Every detector window and count is bounded by MAX_WINDOW (10,000), chanting's maxPeriod by 4096.
 */
import { describe, expect, it } from 'vitest';
import {
  CHANTING_DEFAULTS,
  CYCLE_DEFAULTS,
  DEAD_END_DEFAULTS,
  ErrorCode,
  EXACT_REPEAT_DEFAULTS,
  FREQUENCY_DEFAULTS,
  GRADUATED,
  isLoopwatchError,
  LoopDetector,
  OptionRangeError,
  OptionTypeError,
  POLICY_DEFAULTS,
  presetOptions,
  presets,
  RESULT_REPEAT_DEFAULTS,
  resolveOptions,
  SEMANTIC_DEFAULTS,
  SIMILAR_ARGS_DEFAULTS,
  STATE_REPEAT_DEFAULTS,
  StatsAggregate,
} from '../src/index.js';
import type {
  ChimeraParams,
  Detector,
  ErrorCodeValue,
  LoopAction,
  LoopDetectorOptions,
  MultiResolutionParams,
  ResolvedOptions,
  ToolLoopParams,
} from '../src/index.js';
import { MAX_WINDOW } from '../src/options/resolve-options.js';
import { thrown } from './helpers/thrown.js';

// ---------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------

type Options = Record<string, unknown>;
type DetectorName = keyof ResolvedOptions['detectors'];

/** Builds a detector from options that may deliberately not type-check. */
const build = (options: unknown): LoopDetector => new LoopDetector(options as LoopDetectorOptions);

/** Default options of every built-in detector, by name. */
const DEFAULTS: Readonly<Record<DetectorName, object>> = {
  exactRepeat: EXACT_REPEAT_DEFAULTS,
  frequency: FREQUENCY_DEFAULTS,
  cycle: CYCLE_DEFAULTS,
  semantic: SEMANTIC_DEFAULTS,
  similarArgs: SIMILAR_ARGS_DEFAULTS,
  resultRepeat: RESULT_REPEAT_DEFAULTS,
  deadEnd: DEAD_END_DEFAULTS,
  stateRepeat: STATE_REPEAT_DEFAULTS,
  chanting: CHANTING_DEFAULTS,
};
const DETECTOR_NAMES = Object.keys(DEFAULTS) as DetectorName[];

/** How `describe()` renders a number in messages. */
const num = (n: number): string => `${n} (number)`;
/** How `describe()` renders a string in messages. */
const str = (s: string): string => `${JSON.stringify(s)} (string)`;

const INT = 'an integer';
/** The rule of a detector's integer field: from `min` (with the field it comes from, if any) to MAX_WINDOW. */
const upTo = (min: number, why = ''): string => `an integer from ${min} to ${MAX_WINDOW}${why}`;
/** The rule of every option that takes an options object. */
const PLAIN = 'a plain object';
const FINITE = 'a finite number';
const BOOL = 'a boolean';
const FUNC = 'a function';
const UNIT_OPEN = 'a number in (0, 1]';
const UNIT_CLOSED = 'a number in [0, 1]';
const oneOfRule = (...values: string[]): string => `one of ${values.map((v) => `"${v}"`).join(', ')}`;

/** Returns what `fn` throws (fails the test when it does not throw). */
function thrownBy(fn: () => unknown): Error {
  const e = thrown(fn);
  if (e === undefined) throw new Error('expected the call to throw');
  return e as Error;
}

/** Asserts `fn` throws an OptionTypeError for `option` whose message is `<option> must be <rule>, received <received>`. */
function expectTypeError(fn: () => unknown, option: string, rule: string, received: string): void {
  expect(fn).toThrow(OptionTypeError);
  const e = thrownBy(fn);
  expect(e).toBeInstanceOf(TypeError);
  expect(e).toMatchObject({ name: 'OptionTypeError', code: ErrorCode.OPTION_TYPE, option });
  expect(e.message).toContain(option);
  expect(e.message).toContain(`received ${received}`);
  expect(e.message).toBe(`${option} must be ${rule}, received ${received}`);
  expect(isLoopwatchError(e)).toBe(true);
}

/** Asserts `fn` throws an OptionRangeError for `option` whose message is `<option> must be <rule>, received <received>`. */
function expectRangeError(fn: () => unknown, option: string, rule: string, received: string): void {
  expect(fn).toThrow(OptionRangeError);
  const e = thrownBy(fn);
  expect(e).toBeInstanceOf(RangeError);
  expect(e).not.toBeInstanceOf(TypeError);
  expect(e).toMatchObject({ name: 'OptionRangeError', code: ErrorCode.OPTION_RANGE, option });
  expect(e.message).toContain(option);
  expect(e.message).toContain(`received ${received}`);
  expect(e.message).toBe(`${option} must be ${rule}, received ${received}`);
  expect(isLoopwatchError(e)).toBe(true);
}

/** Asserts `fn` throws an unknown-option OptionTypeError for `option`, suggesting `suggestion` (or nothing). */
function expectUnknownOption(fn: () => unknown, option: string, suggestion: string | null): void {
  expect(fn).toThrow(OptionTypeError);
  const e = thrownBy(fn);
  expect(e).toMatchObject({ name: 'OptionTypeError', code: ErrorCode.UNKNOWN_OPTION, option });
  expect(isLoopwatchError(e)).toBe(true);
  if (suggestion === null) {
    expect(e.message).toContain(`${option} is not a known option; known options of `);
    expect(e.message).not.toContain('did you mean');
  } else {
    expect(e.message).toContain(`${option} is not a known option (did you mean "${suggestion}"?); known options of `);
  }
}

/** A rejected value: the value (or options, by context), the rule broken, how the value is described, and the option named when it is not the row's own path. */
type Reject = readonly [value: unknown, rule: string, received: string, option?: string];

// ---------------------------------------------------------------------------------------------------------
// Built-in detectors' fields
// ---------------------------------------------------------------------------------------------------------

interface DetectorFieldRow {
  readonly detector: DetectorName;
  readonly field: string;
  /** Wrong-typed values of the field alone. */
  readonly wrongType: readonly Reject[];
  /** Whole detector settings that put the field out of range (cross-field minimums need the other fields). */
  readonly outOfRange: readonly Reject[];
  /** A valid detector setting with a non-default value of the field. */
  readonly valid: Options;
}

const ER = EXACT_REPEAT_DEFAULTS;
const FR = FREQUENCY_DEFAULTS;
const CY = CYCLE_DEFAULTS;
const RR = RESULT_REPEAT_DEFAULTS;
const DE = DEAD_END_DEFAULTS;
const SR = STATE_REPEAT_DEFAULTS;

const DETECTOR_FIELDS: readonly DetectorFieldRow[] = [
  // exactRepeat
  {
    detector: 'exactRepeat',
    field: 'threshold',
    wrongType: [['3', INT, str('3')], [2.5, INT, num(2.5)]],
    outOfRange: [[{ threshold: 1 }, upTo(2), num(1)], [{ threshold: 0 }, upTo(2), num(0)], [{ threshold: MAX_WINDOW + 1 }, upTo(2), num(MAX_WINDOW + 1)]],
    valid: { threshold: 2 },
  },
  {
    detector: 'exactRepeat',
    field: 'window',
    wrongType: [['10', INT, str('10')], [null, INT, 'null']],
    outOfRange: [
      [{ window: ER.threshold - 1 }, upTo(ER.threshold, ' (threshold)'), num(ER.threshold - 1)],
      [{ threshold: 6, window: 5 }, upTo(6, ' (threshold)'), num(5)],
      [{ window: MAX_WINDOW + 1 }, upTo(ER.threshold, ' (threshold)'), num(MAX_WINDOW + 1)],
    ],
    valid: { window: ER.threshold },
  },
  // frequency
  {
    detector: 'frequency',
    field: 'threshold',
    wrongType: [[true, INT, 'true (boolean)'], [3.5, INT, num(3.5)]],
    outOfRange: [[{ threshold: 1 }, upTo(2), num(1)], [{ threshold: MAX_WINDOW + 1 }, upTo(2), num(MAX_WINDOW + 1)]],
    valid: { threshold: 2 },
  },
  {
    detector: 'frequency',
    field: 'window',
    wrongType: [[[20], INT, 'an array of length 1'], [Infinity, INT, num(Infinity)]],
    outOfRange: [
      [{ window: FR.threshold - 1 }, upTo(FR.threshold, ' (threshold)'), num(FR.threshold - 1)],
      [{ threshold: 8, window: 7 }, upTo(8, ' (threshold)'), num(7)],
      [{ window: MAX_WINDOW + 1 }, upTo(FR.threshold, ' (threshold)'), num(MAX_WINDOW + 1)],
    ],
    valid: { threshold: 4, window: 4 },
  },
  // cycle
  {
    detector: 'cycle',
    field: 'minPeriod',
    wrongType: [['2', INT, str('2')], [2.5, INT, num(2.5)]],
    outOfRange: [[{ minPeriod: 1 }, upTo(2), num(1)], [{ minPeriod: MAX_WINDOW + 1 }, upTo(2), num(MAX_WINDOW + 1)]],
    valid: { minPeriod: 3 },
  },
  {
    detector: 'cycle',
    field: 'maxPeriod',
    wrongType: [[null, INT, 'null'], [{}, INT, 'an object']],
    outOfRange: [
      [{ maxPeriod: 1 }, upTo(CY.minPeriod, ' (minPeriod)'), num(1)],
      [{ minPeriod: 4, maxPeriod: 3 }, upTo(4, ' (minPeriod)'), num(3)],
      [{ maxPeriod: MAX_WINDOW + 1 }, upTo(CY.minPeriod, ' (minPeriod)'), num(MAX_WINDOW + 1)],
    ],
    valid: { maxPeriod: CY.minPeriod },
  },
  {
    detector: 'cycle',
    field: 'repetitions',
    wrongType: [[true, INT, 'true (boolean)'], [2.1, INT, num(2.1)]],
    outOfRange: [[{ repetitions: 1 }, upTo(2), num(1)], [{ repetitions: MAX_WINDOW + 1 }, upTo(2), num(MAX_WINDOW + 1)]],
    valid: { repetitions: 3 },
  },
  {
    detector: 'cycle',
    field: 'window',
    wrongType: [[20.5, INT, num(20.5)], ['20', INT, str('20')]],
    outOfRange: [
      [{ window: CY.maxPeriod * CY.repetitions - 1 }, upTo(CY.maxPeriod * CY.repetitions, ' (maxPeriod * repetitions)'), num(CY.maxPeriod * CY.repetitions - 1)],
      [{ maxPeriod: 4, repetitions: 3, window: 11 }, upTo(12, ' (maxPeriod * repetitions)'), num(11)],
      // raising maxPeriod alone pushes the default window below its minimum
      [{ maxPeriod: CY.window }, upTo(CY.window * CY.repetitions, ' (maxPeriod * repetitions)'), num(CY.window)],
      [{ window: MAX_WINDOW + 1 }, upTo(CY.maxPeriod * CY.repetitions, ' (maxPeriod * repetitions)'), num(MAX_WINDOW + 1)],
    ],
    valid: { window: CY.maxPeriod * CY.repetitions },
  },
  {
    detector: 'cycle',
    field: 'key',
    wrongType: [
      [1, oneOfRule('call', 'tool'), num(1)],
      [null, oneOfRule('call', 'tool'), 'null'],
      [Symbol('tool'), oneOfRule('call', 'tool'), 'Symbol(tool) (symbol)'],
    ],
    outOfRange: [
      [{ key: 'args' }, oneOfRule('call', 'tool'), str('args')],
      [{ key: 'Tool' }, oneOfRule('call', 'tool'), str('Tool')],
    ],
    valid: { key: 'tool' },
  },
  // semantic
  {
    detector: 'semantic',
    field: 'threshold',
    wrongType: [['0.5', FINITE, str('0.5')], [NaN, FINITE, num(NaN)]],
    outOfRange: [
      [{ threshold: 0 }, UNIT_OPEN, num(0)],
      [{ threshold: -0.5 }, UNIT_OPEN, num(-0.5)],
      [{ threshold: 1.01 }, UNIT_OPEN, num(1.01)],
    ],
    valid: { threshold: 1 },
  },
  {
    detector: 'semantic',
    field: 'window',
    wrongType: [[[], INT, 'an array of length 0'], [1.5, INT, num(1.5)]],
    outOfRange: [[{ window: 0 }, upTo(1), num(0)], [{ window: MAX_WINDOW + 1 }, upTo(1), num(MAX_WINDOW + 1)]],
    valid: { window: 1 },
  },
  {
    detector: 'semantic',
    field: 'minSimilar',
    wrongType: [[{}, INT, 'an object'], ['2', INT, str('2')]],
    outOfRange: [[{ minSimilar: 0 }, upTo(1), num(0)], [{ minSimilar: MAX_WINDOW + 1 }, upTo(1), num(MAX_WINDOW + 1)]],
    valid: { minSimilar: 1 },
  },
  {
    detector: 'semantic',
    field: 'maxTokens',
    wrongType: [[256n, INT, '256 (bigint)'], [12.5, INT, num(12.5)]],
    outOfRange: [[{ maxTokens: 0 }, upTo(1), num(0)], [{ maxTokens: MAX_WINDOW + 1 }, upTo(1), num(MAX_WINDOW + 1)]],
    valid: { maxTokens: 1 },
  },
  {
    detector: 'semantic',
    field: 'maxTextLength',
    wrongType: [[NaN, INT, num(NaN)], ['4096', INT, str('4096')]],
    outOfRange: [[{ maxTextLength: 15 }, upTo(16), num(15)], [{ maxTextLength: MAX_WINDOW + 1 }, upTo(16), num(MAX_WINDOW + 1)]],
    valid: { maxTextLength: 16 },
  },
  {
    detector: 'semantic',
    field: 'minTokens',
    wrongType: [[-Infinity, INT, num(-Infinity)], [false, INT, 'false (boolean)']],
    outOfRange: [[{ minTokens: 0 }, upTo(1), num(0)], [{ minTokens: MAX_WINDOW + 1 }, upTo(1), num(MAX_WINDOW + 1)]],
    valid: { minTokens: 1 },
  },
  {
    detector: 'semantic',
    field: 'sameTool',
    wrongType: [['true', BOOL, str('true')], [1, BOOL, num(1)]],
    outOfRange: [],
    valid: { sameTool: false },
  },
  {
    detector: 'semantic',
    field: 'countIdentical',
    wrongType: [['yes', BOOL, str('yes')], [0, BOOL, num(0)], [Symbol('x'), BOOL, 'Symbol(x) (symbol)']],
    outOfRange: [],
    valid: { countIdentical: true },
  },
  {
    detector: 'semantic',
    field: 'includeTool',
    wrongType: [['no', BOOL, str('no')], [1, BOOL, num(1)]],
    outOfRange: [],
    valid: { includeTool: false },
  },
  {
    detector: 'semantic',
    field: 'method',
    wrongType: [[1, 'one of "sketch", "exact"', num(1)]],
    outOfRange: [[{ method: 'minhash' }, 'one of "sketch", "exact"', str('minhash')]],
    valid: { method: 'exact' },
  },
  {
    detector: 'semantic',
    field: 'sketchSize',
    wrongType: [['16', INT, str('16')], [16.5, INT, num(16.5)]],
    outOfRange: [[{ sketchSize: 3 }, 'an integer from 4 to 64', num(3)], [{ sketchSize: 65 }, 'an integer from 4 to 64', num(65)]],
    valid: { sketchSize: 32 },
  },
  // similarArgs
  {
    detector: 'similarArgs',
    field: 'similarity',
    wrongType: [[null, FINITE, 'null'], [Infinity, FINITE, num(Infinity)]],
    outOfRange: [[{ similarity: 0 }, UNIT_OPEN, num(0)], [{ similarity: 2 }, UNIT_OPEN, num(2)]],
    valid: { similarity: 1 },
  },
  {
    detector: 'similarArgs',
    field: 'threshold',
    wrongType: [['3', INT, str('3')], [2.5, INT, num(2.5)]],
    outOfRange: [[{ threshold: 1 }, upTo(2), num(1)], [{ threshold: MAX_WINDOW + 1 }, upTo(2), num(MAX_WINDOW + 1)]],
    valid: { threshold: 2 },
  },
  {
    detector: 'similarArgs',
    field: 'window',
    wrongType: [[1.5, INT, num(1.5)], [() => 10, INT, 'a function']],
    outOfRange: [[{ window: 0 }, upTo(1), num(0)], [{ window: MAX_WINDOW + 1 }, upTo(1), num(MAX_WINDOW + 1)]],
    valid: { window: 1 },
  },
  // resultRepeat
  {
    detector: 'resultRepeat',
    field: 'threshold',
    wrongType: [['3', INT, str('3')], [3.000001, INT, num(3.000001)]],
    outOfRange: [[{ threshold: 1 }, upTo(2), num(1)], [{ threshold: MAX_WINDOW + 1 }, upTo(2), num(MAX_WINDOW + 1)]],
    valid: { threshold: 2 },
  },
  {
    detector: 'resultRepeat',
    field: 'window',
    wrongType: [[null, INT, 'null'], ['10', INT, str('10')]],
    outOfRange: [
      [{ window: RR.threshold - 1 }, upTo(RR.threshold, ' (threshold)'), num(RR.threshold - 1)],
      [{ threshold: 5, window: 4 }, upTo(5, ' (threshold)'), num(4)],
      [{ window: MAX_WINDOW + 1 }, upTo(RR.threshold, ' (threshold)'), num(MAX_WINDOW + 1)],
    ],
    valid: { window: RR.threshold },
  },
  {
    detector: 'resultRepeat',
    field: 'masked',
    wrongType: [['yes', BOOL, str('yes')], [1, BOOL, num(1)]],
    outOfRange: [],
    valid: { masked: false },
  },
  // deadEnd
  {
    detector: 'deadEnd',
    field: 'threshold',
    wrongType: [['3', INT, str('3')], [2.5, INT, num(2.5)]],
    outOfRange: [[{ threshold: 1 }, upTo(2), num(1)], [{ threshold: MAX_WINDOW + 1 }, upTo(2), num(MAX_WINDOW + 1)]],
    valid: { threshold: 2 },
  },
  {
    detector: 'deadEnd',
    field: 'window',
    wrongType: [[15.5, INT, num(15.5)], [{}, INT, 'an object']],
    outOfRange: [
      [{ window: DE.threshold - 1 }, upTo(DE.threshold, ' (threshold)'), num(DE.threshold - 1)],
      [{ threshold: 7, window: 6 }, upTo(7, ' (threshold)'), num(6)],
      [{ window: MAX_WINDOW + 1 }, upTo(DE.threshold, ' (threshold)'), num(MAX_WINDOW + 1)],
    ],
    valid: { window: DE.threshold },
  },
  {
    detector: 'deadEnd',
    field: 'matchClass',
    wrongType: [['false', BOOL, str('false')], [0, BOOL, num(0)]],
    outOfRange: [],
    valid: { matchClass: false },
  },
  // stateRepeat
  {
    detector: 'stateRepeat',
    field: 'threshold',
    wrongType: [['3', INT, str('3')], [2.5, INT, num(2.5)]],
    outOfRange: [[{ threshold: 1 }, upTo(2), num(1)], [{ threshold: MAX_WINDOW + 1 }, upTo(2), num(MAX_WINDOW + 1)]],
    valid: { threshold: 2 },
  },
  {
    detector: 'stateRepeat',
    field: 'window',
    wrongType: [['500', INT, str('500')], [499.5, INT, num(499.5)]],
    outOfRange: [
      [{ window: SR.threshold - 1 }, upTo(SR.threshold, ' (threshold)'), num(SR.threshold - 1)],
      [{ threshold: 10, window: 9 }, upTo(10, ' (threshold)'), num(9)],
      [{ window: MAX_WINDOW + 1 }, upTo(SR.threshold, ' (threshold)'), num(MAX_WINDOW + 1)],
    ],
    valid: { window: SR.threshold },
  },
  // chanting
  {
    detector: 'chanting',
    field: 'maxPeriod',
    wrongType: [['200', INT, str('200')], [200.5, INT, num(200.5)]],
    outOfRange: [
      [{ maxPeriod: 0 }, 'an integer from 1 to 4096', num(0)],
      [{ maxPeriod: 4097 }, 'an integer from 1 to 4096', num(4097)],
    ],
    valid: { maxPeriod: 4096 },
  },
  {
    detector: 'chanting',
    field: 'threshold',
    wrongType: [['10', INT, str('10')], [true, INT, 'true (boolean)']],
    outOfRange: [[{ threshold: 1 }, upTo(2), num(1)], [{ threshold: MAX_WINDOW + 1 }, upTo(2), num(MAX_WINDOW + 1)]],
    valid: { threshold: 2 },
  },
  {
    detector: 'chanting',
    field: 'minLength',
    wrongType: [['100', INT, str('100')], [99.9, INT, num(99.9)]],
    outOfRange: [[{ minLength: 1 }, upTo(2), num(1)], [{ minLength: MAX_WINDOW + 1 }, upTo(2), num(MAX_WINDOW + 1)]],
    valid: { minLength: 2 },
  },
  {
    detector: 'chanting',
    field: 'longChunk',
    wrongType: [['50', INT, str('50')], [50.5, INT, num(50.5)]],
    outOfRange: [
      [{ longChunk: 0 }, 'an integer from 1 to 4096', num(0)],
      [{ longChunk: 4097 }, 'an integer from 1 to 4096', num(4097)],
    ],
    valid: { longChunk: 4096 },
  },
  {
    detector: 'chanting',
    field: 'longRepetitions',
    wrongType: [['3', INT, str('3')], [false, INT, 'false (boolean)']],
    outOfRange: [[{ longRepetitions: 1 }, upTo(2), num(1)], [{ longRepetitions: MAX_WINDOW + 1 }, upTo(2), num(MAX_WINDOW + 1)]],
    valid: { longRepetitions: 2 },
  },
];

describe('built-in detector options', () => {
  it('should cover every field of every built-in detector', () => {
    const covered = DETECTOR_FIELDS.map((r) => `${r.detector}.${r.field}`).sort();
    const all = DETECTOR_NAMES.flatMap((name) => Object.keys(DEFAULTS[name]).map((f) => `${name}.${f}`)).sort();
    expect(covered).toEqual(all);
  });

  it.each(DETECTOR_FIELDS.map((r) => [`options.detectors.${r.detector}.${r.field}`, r] as const))('should reject a bad %s and accept a valid one', (path, row) => {
    const withSetting = (setting: Options): Options => ({ detectors: { [row.detector]: setting } });

    for (const [value, rule, received, option = path] of row.wrongType) {
      expectTypeError(() => build(withSetting({ [row.field]: value })), option, rule, received);
    }
    for (const [setting, rule, received, option = path] of row.outOfRange) {
      expectRangeError(() => build(withSetting(setting as Options)), option, rule, received);
    }

    const defaults = DEFAULTS[row.detector] as Options;
    expect(row.valid[row.field]).not.toEqual(defaults[row.field]);
    const d = build(withSetting(row.valid));
    expect(d.options.detectors[row.detector]).toEqual({ ...defaults, ...row.valid });
    // the other detectors keep their defaults
    for (const other of DETECTOR_NAMES.filter((n) => n !== row.detector)) expect(d.options.detectors[other]).toEqual(DEFAULTS[other]);

    // an explicit undefined means "not given": the default is used, alone or next to the valid value's fields
    expect(build(withSetting({ [row.field]: undefined })).options.detectors[row.detector]).toEqual(defaults);
    const others = Object.fromEntries(Object.keys(row.valid).filter((k) => k !== row.field).map((k) => [k, row.valid[k]]));
    expect(build(withSetting({ ...others, [row.field]: undefined })).options.detectors[row.detector]).toEqual({ ...defaults, ...others });
  });

  it.each(DETECTOR_NAMES)('should turn %s off with false (resolved to null)', (name) => {
    const d = build({ detectors: { [name]: false } });
    expect(d.options.detectors[name]).toBeNull();
    for (const other of DETECTOR_NAMES.filter((n) => n !== name)) expect(d.options.detectors[other]).toEqual(DEFAULTS[other]);
  });

  it.each(DETECTOR_NAMES)('should give %s its defaults for true, {} and when left out', (name) => {
    expect(build({ detectors: { [name]: true } }).options.detectors[name]).toEqual(DEFAULTS[name]);
    expect(build({ detectors: { [name]: {} } }).options.detectors[name]).toEqual(DEFAULTS[name]);
    expect(build({ detectors: {} }).options.detectors[name]).toEqual(DEFAULTS[name]);
    expect(build({}).options.detectors[name]).toEqual(DEFAULTS[name]);
  });

  it.each(DETECTOR_NAMES)('should reject a setting for %s that is not a plain object or a boolean', (name) => {
    const path = `options.detectors.${name}`;
    expectTypeError(() => build({ detectors: { [name]: 1 } }), path, PLAIN, num(1));
    expectTypeError(() => build({ detectors: { [name]: 'off' } }), path, PLAIN, str('off'));
    expectTypeError(() => build({ detectors: { [name]: null } }), path, PLAIN, 'null');
    expectTypeError(() => build({ detectors: { [name]: [] } }), path, PLAIN, 'an array of length 0');
    expectTypeError(() => build({ detectors: { [name]: [1, 2] } }), path, PLAIN, 'an array of length 2');
    expectTypeError(() => build({ detectors: { [name]: new Date(0) } }), path, PLAIN, 'a Date');
    expectTypeError(() => build({ detectors: { [name]: new Map([['window', 5]]) } }), path, PLAIN, 'a Map');
    expectTypeError(() => build({ detectors: { [name]: Symbol('on') } }), path, PLAIN, 'Symbol(on) (symbol)');
  });

  it('should reject detectors: { cycle: new Date() } with an OptionTypeError', () => {
    const e = thrownBy(() => build({ detectors: { cycle: new Date() } }));
    expect(e).toBeInstanceOf(OptionTypeError);
    expect(e).toMatchObject({ code: ErrorCode.OPTION_TYPE, option: 'options.detectors.cycle' });
    expect(e.message).toBe('options.detectors.cycle must be a plain object, received a Date');
  });

  it('should accept a detector setting with no prototype', () => {
    const setting = Object.assign(Object.create(null) as Options, { window: 30, key: 'tool' });
    expect(build({ detectors: { cycle: setting } }).options.detectors.cycle).toEqual({ ...CYCLE_DEFAULTS, window: 30, key: 'tool' });
  });

  it('should treat an explicit undefined detector setting as not given', () => {
    const d = build({ detectors: { cycle: undefined, semantic: undefined } });
    expect(d.options.detectors.cycle).toEqual(CYCLE_DEFAULTS);
    expect(d.options.detectors.semantic).toEqual(SEMANTIC_DEFAULTS);
  });

  it('should check a cross-field minimum against the default when the other field is explicitly undefined', () => {
    expectRangeError(
      () => build({ detectors: { frequency: { threshold: FR.window + 1, window: undefined } } }),
      'options.detectors.frequency.window',
      upTo(FR.window + 1, ' (threshold)'),
      num(FR.window),
    );
    expect(build({ detectors: { frequency: { threshold: FR.window, window: undefined } } }).options.detectors.frequency).toEqual({ threshold: FR.window, window: FR.window });
  });

  it('should turn cycle off with detectors: { cycle: false } and keep every other detector', () => {
    const d = new LoopDetector({ detectors: { cycle: false } });
    expect(d.options.detectors.cycle).toBeNull();
    expect(d.options.detectors.exactRepeat).toEqual(EXACT_REPEAT_DEFAULTS);
    expect(new LoopDetector({ detectors: { cycle: true } }).options.detectors.cycle).toEqual(CYCLE_DEFAULTS);
  });

  it('should turn every detector off at once', () => {
    const off = Object.fromEntries(DETECTOR_NAMES.map((n) => [n, false]));
    const d = build({ detectors: off });
    for (const name of DETECTOR_NAMES) expect(d.options.detectors[name]).toBeNull();
  });

  it('should reject an unknown detector name, suggesting the closest known one', () => {
    expectUnknownOption(() => build({ detectors: { cycel: {} } }), 'options.detectors.cycel', 'cycle');
    expectUnknownOption(() => build({ detectors: { exactrepeat: false } }), 'options.detectors.exactrepeat', 'exactRepeat');
    expectUnknownOption(() => build({ detectors: { deadEnds: true } }), 'options.detectors.deadEnds', 'deadEnd');
    expectUnknownOption(() => build({ detectors: { loop: {} } }), 'options.detectors.loop', null);
    const e = thrownBy(() => build({ detectors: { loop: {} } }));
    expect(e.message).toContain(`known options of options.detectors: ${DETECTOR_NAMES.join(', ')}`);
  });

  it('should reject an unknown detector field, suggesting the closest known one', () => {
    expectUnknownOption(() => build({ detectors: { cycle: { maxPeriode: 3 } } }), 'options.detectors.cycle.maxPeriode', 'maxPeriod');
    expectUnknownOption(() => build({ detectors: { semantic: { treshold: 0.5 } } }), 'options.detectors.semantic.treshold', 'threshold');
    expectUnknownOption(() => build({ detectors: { frequency: { windw: 5 } } }), 'options.detectors.frequency.windw', 'window');
    expectUnknownOption(() => build({ detectors: { semantic: { countIdentic: true } } }), 'options.detectors.semantic.countIdentic', 'countIdentical');
    // a known name with a suffix added is suggested even when the edit distance is large
    expectUnknownOption(() => build({ detectors: { cycle: { windowSize: 30 } } }), 'options.detectors.cycle.windowSize', 'window');
    expectUnknownOption(() => build({ detectors: { stateRepeat: { windowSize: 30 } } }), 'options.detectors.stateRepeat.windowSize', 'window');
    expectUnknownOption(() => build({ detectors: { chanting: { somethingElse: 1 } } }), 'options.detectors.chanting.somethingElse', null);
    const e = thrownBy(() => build({ detectors: { cycle: { maxPeriode: 3 } } }));
    expect(e.message).toContain(`known options of options.detectors.cycle: ${Object.keys(CYCLE_DEFAULTS).join(', ')}`);
  });

  it('should reject an unknown field even when the detector is otherwise valid', () => {
    expectUnknownOption(() => build({ detectors: { exactRepeat: { threshold: 4, window: 8, extra: true } } }), 'options.detectors.exactRepeat.extra', null);
  });

  it('should check a cross-field minimum against the default of the field not given', () => {
    // threshold above the default window: the window (left at its default) is named
    expectRangeError(
      () => build({ detectors: { exactRepeat: { threshold: ER.window + 1 } } }),
      'options.detectors.exactRepeat.window',
      upTo(ER.window + 1, ' (threshold)'),
      num(ER.window),
    );
    expectRangeError(
      () => build({ detectors: { cycle: { minPeriod: CY.maxPeriod + 1 } } }),
      'options.detectors.cycle.maxPeriod',
      upTo(CY.maxPeriod + 1, ' (minPeriod)'),
      num(CY.maxPeriod),
    );
    expectRangeError(
      () => build({ detectors: { cycle: { repetitions: CY.window } } }),
      'options.detectors.cycle.window',
      upTo(CY.maxPeriod * CY.window, ' (maxPeriod * repetitions)'),
      num(CY.window),
    );
  });

  it(`should bound every detector window and count by MAX_WINDOW (${MAX_WINDOW})`, () => {
    expect(MAX_WINDOW).toBe(10_000);
    const at = MAX_WINDOW;
    const d = build({
      detectors: {
        exactRepeat: { threshold: at, window: at },
        frequency: { threshold: at, window: at },
        cycle: { minPeriod: at / 2, maxPeriod: at / 2, repetitions: 2, window: at },
        semantic: { window: at, minSimilar: at, maxTokens: at, maxTextLength: at, minTokens: at },
        similarArgs: { threshold: at, window: at },
        resultRepeat: { threshold: at, window: at },
        deadEnd: { threshold: at, window: at },
        stateRepeat: { threshold: at, window: at },
        chanting: { threshold: at, minLength: at },
      },
    });
    expect(d.options.detectors.exactRepeat).toEqual({ threshold: at, window: at });
    expect(d.options.detectors.cycle).toEqual({ ...CYCLE_DEFAULTS, minPeriod: at / 2, maxPeriod: at / 2, repetitions: 2, window: at });
    expect(d.options.detectors.semantic).toEqual({ ...SEMANTIC_DEFAULTS, window: at, minSimilar: at, maxTokens: at, maxTextLength: at, minTokens: at });
    expect(d.options.detectors.chanting).toEqual({ ...CHANTING_DEFAULTS, threshold: at, minLength: at });
    // the most repetitions of the shortest unit that fit the largest window
    expect(build({ detectors: { cycle: { minPeriod: 2, maxPeriod: 2, repetitions: at / 2, window: at } } }).options.detectors.cycle?.repetitions).toBe(at / 2);
    // a cross-field minimum above MAX_WINDOW can never be met
    const e = thrownBy(() => build({ detectors: { cycle: { maxPeriod: at / 2, repetitions: 3, window: at } } }));
    expect(e).toBeInstanceOf(OptionRangeError);
    expect(e).toMatchObject({ code: ErrorCode.OPTION_RANGE, option: 'options.detectors.cycle.window' });
  });

  const WINDOWED = DETECTOR_NAMES.filter((name) => 'window' in DEFAULTS[name]);

  it.each(WINDOWED.flatMap((name) => [[name, 1e12, '1000000000000'], [name, 2 ** 31, '2147483648']] as const))(
    'should reject %s.window: %d with an OptionRangeError naming the option, not a raw RangeError',
    (name, window, printed) => {
      const option = `options.detectors.${name}.window`;
      const e = thrownBy(() => build({ detectors: { [name]: { window } } }));
      expect(e).toBeInstanceOf(OptionRangeError);
      expect(e).toMatchObject({ name: 'OptionRangeError', code: ErrorCode.OPTION_RANGE, option });
      expect(isLoopwatchError(e)).toBe(true);
      expect(e.message).toMatch(new RegExp(`^${option.replace(/\./g, '\\.')} must be an integer from \\d+ to ${MAX_WINDOW}`));
      expect(e.message).toContain(`received ${printed} (number)`);
      expect(e.message).not.toContain('Invalid typed array length');
      expect(e.message).not.toContain('Array buffer allocation failed');
    },
  );

  it('should accept every cross-field minimum exactly at its bound', () => {
    const d = build({
      detectors: {
        exactRepeat: { threshold: 7, window: 7 },
        frequency: { threshold: 9, window: 9 },
        cycle: { minPeriod: 3, maxPeriod: 3, repetitions: 4, window: 12 },
        resultRepeat: { threshold: 4, window: 4 },
        deadEnd: { threshold: 5, window: 5 },
        stateRepeat: { threshold: 6, window: 6 },
      },
    });
    expect(d.options.detectors.exactRepeat).toEqual({ threshold: 7, window: 7 });
    expect(d.options.detectors.frequency).toEqual({ threshold: 9, window: 9 });
    expect(d.options.detectors.cycle).toEqual({ ...CYCLE_DEFAULTS, minPeriod: 3, maxPeriod: 3, repetitions: 4, window: 12 });
    expect(d.options.detectors.resultRepeat).toEqual({ ...RESULT_REPEAT_DEFAULTS, threshold: 4, window: 4 });
    expect(d.options.detectors.deadEnd).toEqual({ ...DEAD_END_DEFAULTS, threshold: 5, window: 5 });
    expect(d.options.detectors.stateRepeat).toEqual({ threshold: 6, window: 6 });
  });

  it('should freeze a resolved detector setting', () => {
    const d = build({ detectors: { cycle: { key: 'tool' } } });
    expect(Object.isFrozen(d.options.detectors.cycle)).toBe(true);
    expect(Object.isFrozen(d.options.detectors)).toBe(true);
  });

  it.each(DETECTOR_NAMES)('should freeze the %s defaults so no caller can change them for every later detector', (name) => {
    const defaults = DEFAULTS[name] as Options;
    expect(Object.isFrozen(defaults)).toBe(true);
    const [field] = Object.keys(defaults);
    const before = { ...defaults };
    // ES modules run in strict mode: writing to a frozen object throws a TypeError
    expect(() => {
      defaults[field as string] = 1;
    }).toThrow(TypeError);
    expect(() => {
      defaults.extra = 1;
    }).toThrow(TypeError);
    expect(defaults).toEqual(before);
    expect(new LoopDetector().options.detectors[name]).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Top-level options
// ---------------------------------------------------------------------------------------------------------

const noopDetector = (name: string): Detector => ({ name, record: () => undefined, check: () => null, reset: () => undefined });
const onDetection = (): void => undefined;
const stats = new StatsAggregate();

interface TopRow {
  readonly option: string;
  /** Whole options objects with a wrong-typed value. */
  readonly wrongType: readonly Reject[];
  /** Whole options objects with an out-of-range value. */
  readonly outOfRange: readonly Reject[];
  /** Valid options with a non-default value. */
  readonly valid: Options;
  /** Asserts the valid value is visible in the resolved options. */
  readonly accepted: (o: ResolvedOptions) => void;
}

const TOP_LEVEL: readonly TopRow[] = [
  {
    option: 'engine',
    wrongType: [
      [{ engine: 1 }, 'one of "wasm", "reference"', num(1)],
      [{ engine: null }, 'one of "wasm", "reference"', 'null'],
    ],
    outOfRange: [[{ engine: 'js' }, 'one of "wasm", "reference"', str('js')]],
    valid: { engine: 'reference' },
    accepted: (o) => expect(o.engine).toBe('reference'),
  },
  {
    option: 'sessionId',
    wrongType: [
      [{ sessionId: 42 }, 'a string', num(42)],
      [{ sessionId: null }, 'a string', 'null'],
      [{ sessionId: ['a'] }, 'a string', 'an array of length 1'],
      [{ sessionId: Symbol('s') }, 'a string', 'Symbol(s) (symbol)'],
      [{ sessionId: Symbol() }, 'a string', 'Symbol() (symbol)'],
    ],
    outOfRange: [],
    valid: { sessionId: 'agent-7' },
    accepted: (o) => expect(o.sessionId).toBe('agent-7'),
  },
  {
    option: 'detectors',
    wrongType: [
      [{ detectors: 'all' }, PLAIN, str('all')],
      [{ detectors: [] }, PLAIN, 'an array of length 0'],
      [{ detectors: null }, PLAIN, 'null'],
      [{ detectors: false }, PLAIN, 'false (boolean)'],
      [{ detectors: new Map([['cycle', false]]) }, PLAIN, 'a Map'],
    ],
    outOfRange: [],
    valid: { detectors: { cycle: false, semantic: { window: 5 } } },
    accepted: (o) => {
      expect(o.detectors.cycle).toBeNull();
      expect(o.detectors.semantic).toEqual({ ...SEMANTIC_DEFAULTS, window: 5 });
    },
  },
  {
    option: 'custom',
    wrongType: [
      [{ custom: {} }, 'an array of detectors', 'an object'],
      [{ custom: noopDetector('x') }, 'an array of detectors', 'an object'],
      [{ custom: [42] }, 'a detector object', num(42), 'options.custom[0]'],
      [{ custom: ['cycle'] }, 'a detector object', str('cycle'), 'options.custom[0]'],
      [{ custom: [noopDetector('a'), null] }, 'a detector object', 'null', 'options.custom[1]'],
      [{ custom: [noopDetector('a'), undefined] }, 'a detector object', 'undefined', 'options.custom[1]'],
      [{ custom: [{ ...noopDetector('a'), name: 1 }] }, 'a string', num(1), 'options.custom[0].name'],
      [{ custom: [{ ...noopDetector('a'), name: Symbol('a') }] }, 'a string', 'Symbol(a) (symbol)', 'options.custom[0].name'],
      [{ custom: [{ name: 'a', check: () => null, reset: () => undefined }] }, FUNC, 'undefined', 'options.custom[0].record'],
      [{ custom: [{ ...noopDetector('a'), check: 'yes' }] }, FUNC, str('yes'), 'options.custom[0].check'],
      [{ custom: [{ ...noopDetector('a'), reset: {} }] }, FUNC, 'an object', 'options.custom[0].reset'],
    ],
    outOfRange: [
      [{ custom: [noopDetector('')] }, 'a non-empty string', str(''), 'options.custom[0].name'],
      [{ custom: [noopDetector('a'), noopDetector('')] }, 'a non-empty string', str(''), 'options.custom[1].name'],
      [{ custom: [noopDetector('a'), noopDetector('a')] }, 'unique among custom detectors', `${str('a')} twice`, 'options.custom[1].name'],
      [{ custom: [noopDetector('a'), noopDetector('b'), noopDetector('b')] }, 'unique among custom detectors', `${str('b')} twice`, 'options.custom[2].name'],
    ],
    valid: { custom: [noopDetector('mine'), noopDetector('Mine')] },
    accepted: (o) => {
      expect(o.custom).toHaveLength(2);
      expect(o.custom.map((d) => d.name)).toEqual(['mine', 'Mine']);
    },
  },
  {
    option: 'tools',
    wrongType: [
      [{ tools: 'search' }, PLAIN, str('search')],
      [{ tools: [] }, PLAIN, 'an array of length 0'],
      [{ tools: new Map([['search', { exempt: true }]]) }, PLAIN, 'a Map'],
      [{ tools: { search: true } }, PLAIN, 'true (boolean)', 'options.tools["search"]'],
      [{ tools: { search: null } }, PLAIN, 'null', 'options.tools["search"]'],
      [{ tools: { search: new Date(0) } }, PLAIN, 'a Date', 'options.tools["search"]'],
    ],
    outOfRange: [],
    valid: { tools: { search: { ignoreFields: ['requestId'] } } },
    accepted: (o) => expect(o.tools.get('search')).toEqual({ ignoreFields: ['requestId'], identity: undefined, exempt: false, changesWorkspace: false }),
  },
  {
    option: 'ignoreFields',
    wrongType: [
      [{ ignoreFields: 'id' }, 'an array of strings', str('id')],
      [{ ignoreFields: { id: true } }, 'an array of strings', 'an object'],
      [{ ignoreFields: ['id', 7] }, 'a non-empty string', num(7), 'options.ignoreFields[1]'],
      [{ ignoreFields: [''] }, 'a non-empty string', str(''), 'options.ignoreFields[0]'],
    ],
    outOfRange: [],
    valid: { ignoreFields: ['requestId', 'timestamp'] },
    accepted: (o) => expect(o.ignoreFields).toEqual(['requestId', 'timestamp']),
  },
  {
    option: 'allow',
    wrongType: [
      [{ allow: { tool: 'Bash' } }, 'an array of rules', 'an object'],
      [{ allow: ['Bash'] }, 'a plain object', str('Bash'), 'options.allow[0]'],
      [{ allow: [{ tool: 3 }] }, 'a string', num(3), 'options.allow[0].tool'],
      [{ allow: [{}] }, 'a rule naming a tool, a command, or both', 'an empty rule', 'options.allow[0]'],
    ],
    outOfRange: [
      [{ allow: [{ tool: '' }] }, 'a non-empty string', str(''), 'options.allow[0].tool'],
      [{ allow: [{ command: '' }] }, 'a regular expression of 1 to 512 characters', str(''), 'options.allow[0].command'],
      [{ allow: Array.from({ length: 257 }, () => ({ tool: 'x' })) }, 'an array of at most 256 rules', 'an array of length 257'],
    ],
    valid: { allow: [{ tool: 'Bash', command: '^npm test$' }, { tool: 'job_status' }] },
    accepted: (o) => {
      expect(o.allow.map((r) => [r.tool, r.command?.source])).toEqual([['Bash', '^npm test$'], ['job_status', undefined]]);
      expect(Object.isFrozen(o.allow)).toBe(true);
    },
  },
  {
    option: 'normalizeVolatile',
    wrongType: [
      [{ normalizeVolatile: 1 }, BOOL, num(1)],
      [{ normalizeVolatile: 'true' }, BOOL, str('true')],
    ],
    outOfRange: [],
    valid: { normalizeVolatile: true },
    accepted: (o) => expect(o.normalizeVolatile).toBe(true),
  },
  {
    option: 'maxDepth',
    wrongType: [
      [{ maxDepth: 8.5 }, INT, num(8.5)],
      [{ maxDepth: '64' }, INT, str('64')],
      [{ maxDepth: NaN }, INT, num(NaN)],
      [{ maxDepth: 64n }, INT, '64 (bigint)'],
    ],
    outOfRange: [
      [{ maxDepth: 0 }, 'an integer from 1 to 1024', num(0)],
      [{ maxDepth: -1 }, 'an integer from 1 to 1024', num(-1)],
      [{ maxDepth: 1025 }, 'an integer from 1 to 1024', num(1025)],
    ],
    valid: { maxDepth: 1024 },
    accepted: (o) => expect(o.maxDepth).toBe(1024),
  },
  {
    option: 'redactSecrets',
    wrongType: [
      [{ redactSecrets: 'no' }, BOOL, str('no')],
      [{ redactSecrets: 0 }, BOOL, num(0)],
    ],
    outOfRange: [],
    valid: { redactSecrets: false },
    accepted: (o) => expect(o.redactSecrets).toBe(false),
  },
  {
    option: 'strictValues',
    wrongType: [
      [{ strictValues: 'yes' }, BOOL, str('yes')],
      [{ strictValues: 1 }, BOOL, num(1)],
    ],
    outOfRange: [],
    valid: { strictValues: true },
    accepted: (o) => expect(o.strictValues).toBe(true),
  },
  {
    option: 'policy',
    wrongType: [
      [{ policy: 'strict' }, PLAIN, str('strict')],
      [{ policy: null }, PLAIN, 'null'],
      [{ policy: [] }, PLAIN, 'an array of length 0'],
      [{ policy: new Map([['cooldown', 0]]) }, PLAIN, 'a Map'],
    ],
    outOfRange: [],
    valid: { policy: { cooldown: 0 } },
    accepted: (o) => expect(o.policy).toEqual({ ...POLICY_DEFAULTS, cooldown: 0 }),
  },
  {
    option: 'onDetection',
    wrongType: [
      [{ onDetection: 'log' }, FUNC, str('log')],
      [{ onDetection: {} }, FUNC, 'an object'],
      [{ onDetection: null }, FUNC, 'null'],
    ],
    outOfRange: [],
    valid: { onDetection },
    accepted: (o) => expect(o.onDetection).toBe(onDetection),
  },
  {
    option: 'stats',
    wrongType: [
      [{ stats: {} }, 'a StatsAggregate', 'an object'],
      [{ stats: { tally: {}, join: () => undefined, snapshot: () => ({}) } }, 'a StatsAggregate', 'an object'],
      [{ stats: true }, 'a StatsAggregate', 'true (boolean)'],
      [{ stats: null }, 'a StatsAggregate', 'null'],
    ],
    outOfRange: [],
    valid: { stats },
    accepted: (o) => expect(o.stats).toBe(stats),
  },
];

describe('top-level options', () => {
  it('should cover every top-level option', () => {
    expect(TOP_LEVEL.map((r) => r.option).sort()).toEqual(Object.keys(resolveOptions()).sort());
  });

  it.each(TOP_LEVEL.map((r) => [`options.${r.option}`, r] as const))('should reject a bad %s and accept a valid one', (path, row) => {
    for (const [options, rule, received, option = path] of row.wrongType) expectTypeError(() => build(options), option, rule, received);
    for (const [options, rule, received, option = path] of row.outOfRange) expectRangeError(() => build(options), option, rule, received);
    row.accepted(build(row.valid).options);
  });

  it('should fill in every default when options are left out or explicitly undefined', () => {
    const allUndefined = Object.fromEntries(Object.keys(resolveOptions()).map((k) => [k, undefined]));
    for (const o of [new LoopDetector().options, new LoopDetector({}).options, build(undefined).options, build(allUndefined).options]) {
      expect(o.sessionId).toBe('');
      expect(o.custom).toEqual([]);
      expect(o.tools.size).toBe(0);
      expect(o.ignoreFields).toEqual([]);
      expect(o.normalizeVolatile).toBe(false);
      expect(o.maxDepth).toBe(64);
      expect(o.redactSecrets).toBe(true);
      expect(o.strictValues).toBe(false);
      expect(o.policy).toEqual(POLICY_DEFAULTS);
      expect(o.onDetection).toBeUndefined();
      expect(o.stats).toBeUndefined();
      for (const name of DETECTOR_NAMES) expect(o.detectors[name]).toEqual(DEFAULTS[name]);
    }
  });

  it('should reject options that are not a plain object', () => {
    expectTypeError(() => build(null), 'options', PLAIN, 'null');
    expectTypeError(() => build('fast'), 'options', PLAIN, str('fast'));
    expectTypeError(() => build(3), 'options', PLAIN, num(3));
    expectTypeError(() => build([]), 'options', PLAIN, 'an array of length 0');
    expectTypeError(() => build([{ maxDepth: 3 }, {}, {}]), 'options', PLAIN, 'an array of length 3');
    expectTypeError(() => build(() => ({})), 'options', PLAIN, 'a function');
    expectTypeError(() => build(Symbol('opts')), 'options', PLAIN, 'Symbol(opts) (symbol)');
  });

  it('should reject a Map, a Date or a class instance given as options', () => {
    class Settings {
      maxDepth = 3;
    }
    expectTypeError(() => build(new Map()), 'options', PLAIN, 'a Map');
    expectTypeError(() => build(new Map([['maxDepth', 3]])), 'options', PLAIN, 'a Map');
    expectTypeError(() => build(new Date(0)), 'options', PLAIN, 'a Date');
    expectTypeError(() => build(new Settings()), 'options', PLAIN, 'a Settings');
    expect(() => new LoopDetector(new Map() as unknown as LoopDetectorOptions)).toThrow(OptionTypeError);
    expect(() => resolveOptions(new Map())).toThrow(OptionTypeError);
  });

  it('should reject tools: new Map(...) with an OptionTypeError', () => {
    const e = thrownBy(() => build({ tools: new Map([['search', { ignoreFields: ['id'] }]]) }));
    expect(e).toBeInstanceOf(OptionTypeError);
    expect(e).toMatchObject({ code: ErrorCode.OPTION_TYPE, option: 'options.tools' });
    expect(e.message).toBe('options.tools must be a plain object, received a Map');
  });

  it('should accept plain objects without a prototype at every level', () => {
    const bare = <T extends object>(o: T): T => Object.assign(Object.create(null) as T, o);
    const d = build(
      bare({
        sessionId: 'bare',
        detectors: bare({ cycle: bare({ key: 'tool' }) }),
        tools: bare({ search: bare({ exempt: true }) }),
        policy: bare({ cooldown: 1 }),
      }),
    );
    expect(d.options.sessionId).toBe('bare');
    expect(d.options.detectors.cycle).toEqual({ ...CYCLE_DEFAULTS, key: 'tool' });
    expect(d.options.tools.get('search')).toEqual({ ignoreFields: [], identity: undefined, exempt: true, changesWorkspace: false });
    expect(d.options.policy.cooldown).toBe(1);
  });

  it('should accept a custom detector that is a class instance', () => {
    class Quiet implements Detector {
      readonly name = 'quiet';
      record(): void {}
      check(): null {
        return null;
      }
      reset(): void {}
    }
    const quiet = new Quiet();
    const d = new LoopDetector({ custom: [quiet] });
    expect(d.options.custom).toEqual([quiet]);
    expect(d.options.custom[0]).toBe(quiet);
  });

  it('should name the duplicate custom detector name and say it must be unique', () => {
    const e = thrownBy(() => build({ custom: [noopDetector('dup'), noopDetector('other'), noopDetector('dup')] }));
    expect(e).toBeInstanceOf(OptionRangeError);
    expect(e).toMatchObject({ code: ErrorCode.OPTION_RANGE, option: 'options.custom[2].name' });
    expect(e.message).toContain('unique');
    expect(e.message).toContain(str('dup'));
  });

  it('should reject an unknown top-level option, suggesting the closest known one', () => {
    expectUnknownOption(() => build({ redactSecret: true }), 'options.redactSecret', 'redactSecrets');
    expectUnknownOption(() => build({ sesionId: 'a' }), 'options.sesionId', 'sessionId');
    expectUnknownOption(() => build({ detector: {} }), 'options.detector', 'detectors');
    expectUnknownOption(() => build({ maxdepth: 3 }), 'options.maxdepth', 'maxDepth');
    expectUnknownOption(() => build({ zzzzzzzzzz: 1 }), 'options.zzzzzzzzzz', null);
    // a known name cut short (or with a suffix added) is suggested even when the edit distance is large
    expectUnknownOption(() => build({ onDetect: () => undefined }), 'options.onDetect', 'onDetection');
    expectUnknownOption(() => build({ ignoreFieldsList: ['id'] }), 'options.ignoreFieldsList', 'ignoreFields');
    const e = thrownBy(() => build({ redactSecret: true }));
    expect(e.message).toBe(
      'options.redactSecret is not a known option (did you mean "redactSecrets"?); known options of options: ' +
        'engine, sessionId, detectors, custom, tools, ignoreFields, allow, normalizeVolatile, maxDepth, redactSecrets, strictValues, policy, onDetection, stats',
    );
  });

  it('should truncate a long string value in the message', () => {
    const long = 'x'.repeat(60);
    expectTypeError(() => build({ redactSecrets: long }), 'options.redactSecrets', BOOL, `"${'x'.repeat(40)}…" (string)`);
  });

  it('should validate the same way through resolveOptions', () => {
    expect(() => resolveOptions({ maxDepth: 0 })).toThrow(OptionRangeError);
    expect(() => resolveOptions({ maxDepth: '1' })).toThrow(OptionTypeError);
    expect(resolveOptions({ maxDepth: 2 }).maxDepth).toBe(2);
  });

  it('should freeze the resolved options', () => {
    const d = build({ sessionId: 's', ignoreFields: ['id'], policy: { cooldown: 3 } });
    expect(Object.isFrozen(d.options)).toBe(true);
    expect(Object.isFrozen(d.options.ignoreFields)).toBe(true);
    expect(Object.isFrozen(d.options.policy)).toBe(true);
    expect(Object.isFrozen(d.options.policy.ladder)).toBe(true);
  });

  it('should copy option arrays so later changes to the caller\'s arrays do not leak in', () => {
    const ignoreFields = ['id'];
    const ladder: ('warn' | 'ask' | 'break')[] = ['warn', 'break'];
    const custom = [noopDetector('a')];
    const d = new LoopDetector({ ignoreFields, custom, policy: { ladder } });
    ignoreFields.push('ts');
    ladder.push('ask');
    custom.push(noopDetector('b'));
    expect(d.options.ignoreFields).toEqual(['id']);
    expect(d.options.policy.ladder).toEqual(['warn', 'break']);
    expect(d.options.custom).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Policy
// ---------------------------------------------------------------------------------------------------------

interface PolicyRow {
  readonly field: keyof typeof POLICY_DEFAULTS;
  /** Wrong-typed values of the field. */
  readonly wrongType: readonly Reject[];
  /** Out-of-range values of the field. */
  readonly outOfRange: readonly Reject[];
  /** A valid non-default value. */
  readonly valid: unknown;
}

const LADDER_RULE = 'a non-empty array of "warn" | "ask" | "break"';
const ACTION_RULE = oneOfRule('warn', 'ask', 'break');
const onDetect = (): null => null;

const POLICY_FIELDS: readonly PolicyRow[] = [
  {
    field: 'ladder',
    wrongType: [
      ['warn', LADDER_RULE, str('warn')],
      [null, LADDER_RULE, 'null'],
      [{ 0: 'warn' }, LADDER_RULE, 'an object'],
      // an empty ladder is reported as a type error (the rule is "a non-empty array")
      [[], LADDER_RULE, 'an array of length 0'],
      [[1], ACTION_RULE, num(1), 'options.policy.ladder[0]'],
      [['warn', null], ACTION_RULE, 'null', 'options.policy.ladder[1]'],
    ],
    outOfRange: [
      [['warn', 'stop'], ACTION_RULE, str('stop'), 'options.policy.ladder[1]'],
      [['WARN'], ACTION_RULE, str('WARN'), 'options.policy.ladder[0]'],
    ],
    valid: ['ask', 'break'],
  },
  {
    field: 'fusion',
    wrongType: [[0, oneOfRule('fuse', 'first'), num(0)], [true, oneOfRule('fuse', 'first'), 'true (boolean)']],
    outOfRange: [['merge', oneOfRule('fuse', 'first'), str('merge')]],
    valid: 'first',
  },
  {
    field: 'primary',
    wrongType: [
      [1, oneOfRule('specific', 'confident'), num(1)],
      [null, oneOfRule('specific', 'confident'), 'null'],
      [Symbol('specific'), oneOfRule('specific', 'confident'), 'Symbol(specific) (symbol)'],
    ],
    outOfRange: [
      ['confidence', oneOfRule('specific', 'confident'), str('confidence')],
      ['Specific', oneOfRule('specific', 'confident'), str('Specific')],
    ],
    valid: 'confident',
  },
  {
    field: 'agreementBonus',
    wrongType: [['0.1', FINITE, str('0.1')], [NaN, FINITE, num(NaN)], [Infinity, FINITE, num(Infinity)]],
    outOfRange: [[-0.1, UNIT_CLOSED, num(-0.1)], [1.5, UNIT_CLOSED, num(1.5)]],
    valid: 0,
  },
  {
    field: 'minConfidence',
    wrongType: [['0.5', FINITE, str('0.5')], [null, FINITE, 'null']],
    outOfRange: [[-1, UNIT_CLOSED, num(-1)], [1.01, UNIT_CLOSED, num(1.01)]],
    valid: 1,
  },
  {
    field: 'progress',
    wrongType: [[1, oneOfRule('suppress', 'slow', 'ignore'), num(1)]],
    outOfRange: [['skip', oneOfRule('suppress', 'slow', 'ignore'), str('skip')]],
    valid: 'slow',
  },
  {
    field: 'noProgressStep',
    wrongType: [[1.5, INT, num(1.5)], ['2', INT, str('2')]],
    outOfRange: [[0, 'an integer from 1 to 100', num(0)], [101, 'an integer from 1 to 100', num(101)]],
    valid: 100,
  },
  {
    field: 'interleavedStep',
    wrongType: [['0.5', FINITE, str('0.5')], [NaN, FINITE, num(NaN)]],
    outOfRange: [[0, 'a number in (0, 100]', num(0)], [-1, 'a number in (0, 100]', num(-1)], [101, 'a number in (0, 100]', num(101)]],
    valid: 1,
  },
  {
    field: 'kindWeights',
    wrongType: [
      ['exact_repeat', PLAIN, str('exact_repeat')],
      [[1], PLAIN, 'an array of length 1'],
      [{ frequency: '1' }, FINITE, str('1'), 'options.policy.kindWeights.frequency'],
      [{ cycle: null }, FINITE, 'null', 'options.policy.kindWeights.cycle'],
    ],
    outOfRange: [
      [{ frequency: -0.5 }, 'a number in [0, 10]', num(-0.5), 'options.policy.kindWeights.frequency'],
      [{ my_kind: 11 }, 'a number in [0, 10]', num(11), 'options.policy.kindWeights.my_kind'],
    ],
    valid: { frequency: 0.5, chanting: 0 },
  },
  {
    field: 'recommend',
    wrongType: [[null, oneOfRule('ladder', 'confidence'), 'null']],
    outOfRange: [['always', oneOfRule('ladder', 'confidence'), str('always')]],
    valid: 'confidence',
  },
  {
    field: 'escalateConfidence',
    wrongType: [['high', FINITE, str('high')], [-Infinity, FINITE, num(-Infinity)]],
    outOfRange: [[-0.01, UNIT_CLOSED, num(-0.01)], [2, UNIT_CLOSED, num(2)]],
    valid: 1,
  },
  {
    field: 'escalateRepeats',
    wrongType: [[5.5, INT, num(5.5)], ['5', INT, str('5')]],
    outOfRange: [[0, 'an integer >= 1', num(0)], [-3, 'an integer >= 1', num(-3)]],
    valid: 1,
  },
  {
    field: 'cooldown',
    wrongType: [[Infinity, INT, num(Infinity)], [0.5, INT, num(0.5)]],
    outOfRange: [[-1, 'an integer >= 0', num(-1)]],
    valid: 0,
  },
  {
    field: 'stopAfter',
    wrongType: [[Infinity, INT, num(Infinity)], [1.5, INT, num(1.5)]],
    outOfRange: [[0, 'an integer from 1 to 1000', num(0)], [1001, 'an integer from 1 to 1000', num(1001)]],
    valid: 1,
  },
  {
    field: 'onDetect',
    wrongType: [['break', FUNC, str('break')], [null, FUNC, 'null'], [{}, FUNC, 'an object']],
    outOfRange: [],
    valid: onDetect,
  },
];

describe('policy options', () => {
  it('should cover every policy field', () => {
    expect(POLICY_FIELDS.map((r) => r.field).sort()).toEqual(Object.keys(POLICY_DEFAULTS).sort());
  });

  it.each(POLICY_FIELDS.map((r) => [`options.policy.${r.field}`, r] as const))('should reject a bad %s and accept a valid one', (path, row) => {
    for (const [value, rule, received, option = path] of row.wrongType) {
      expectTypeError(() => build({ policy: { [row.field]: value } }), option, rule, received);
    }
    for (const [value, rule, received, option = path] of row.outOfRange) {
      expectRangeError(() => build({ policy: { [row.field]: value } }), option, rule, received);
    }
    expect(row.valid).not.toEqual(POLICY_DEFAULTS[row.field]);
    const d = build({ policy: { [row.field]: row.valid } });
    expect(d.options.policy).toEqual({ ...POLICY_DEFAULTS, [row.field]: row.valid });
    // an explicit undefined means "not given": the default is used
    expect(build({ policy: { [row.field]: undefined } }).options.policy).toEqual(POLICY_DEFAULTS);
    expect(build({ policy: { [row.field]: undefined, cooldown: 3 } }).options.policy).toEqual({ ...POLICY_DEFAULTS, cooldown: 3 });
  });

  it('should default policy.primary to "specific" and set it to "confident" in the multiResolution preset', () => {
    expect(POLICY_DEFAULTS.primary).toBe('specific');
    expect(new LoopDetector().options.policy.primary).toBe('specific');
    expect(new LoopDetector({ policy: { primary: 'confident' } }).options.policy.primary).toBe('confident');
    expect(presets.multiResolution().options.policy.primary).toBe('confident');
    expect(presets.balanced().options.policy.primary).toBe('specific');
  });

  it('should freeze POLICY_DEFAULTS and its ladder', () => {
    expect(Object.isFrozen(POLICY_DEFAULTS)).toBe(true);
    expect(Object.isFrozen(POLICY_DEFAULTS.ladder)).toBe(true);
    const writable = POLICY_DEFAULTS as unknown as Options & { ladder: LoopAction[] };
    // ES modules run in strict mode: changing a frozen object throws a TypeError
    expect(() => writable.ladder.push('ask')).toThrow(TypeError);
    expect(() => {
      writable.ladder[0] = 'break';
    }).toThrow(TypeError);
    expect(() => {
      writable.cooldown = 0;
    }).toThrow(TypeError);
    expect(POLICY_DEFAULTS.ladder).toEqual(['warn', 'warn', 'break']);
    expect(POLICY_DEFAULTS.cooldown).toBe(10);
  });

  it('should not let a caller push to new LoopDetector().options.policy.ladder', () => {
    const d = new LoopDetector();
    const ladder = d.options.policy.ladder as LoopAction[];
    expect(() => ladder.push('ask')).toThrow(TypeError);
    expect(d.options.policy.ladder).toEqual(['warn', 'warn', 'break']);
    // nor the ladder of a detector built with its own ladder, nor of the next detector
    const own = new LoopDetector({ policy: { ladder: ['warn', 'break'] } }).options.policy.ladder as LoopAction[];
    expect(() => own.push('ask')).toThrow(TypeError);
    expect(new LoopDetector().options.policy.ladder).toEqual(['warn', 'warn', 'break']);
  });

  it('should accept every policy field changed at once', () => {
    const policy = {
      ladder: ['warn', 'ask', 'ask', 'break'],
      fusion: 'first',
      primary: 'confident',
      agreementBonus: 0.25,
      minConfidence: 0.3,
      progress: 'ignore',
      noProgressStep: 1,
      interleavedStep: 0.75,
      kindWeights: { dead_end: 1.5 },
      recommend: 'confidence',
      escalateConfidence: 0.7,
      escalateRepeats: 9,
      cooldown: 25,
      stopAfter: 3,
      onDetect,
    } as const;
    expect(new LoopDetector({ policy }).options.policy).toEqual(policy);
  });

  it('should reject an unknown policy field, suggesting the closest known one', () => {
    expectUnknownOption(() => build({ policy: { minConfidance: 0.3 } }), 'options.policy.minConfidance', 'minConfidence');
    expectUnknownOption(() => build({ policy: { ladders: ['warn'] } }), 'options.policy.ladders', 'ladder');
    expectUnknownOption(() => build({ policy: { coolDown: 3 } }), 'options.policy.coolDown', 'cooldown');
    expectUnknownOption(() => build({ policy: { strategy: 'x' } }), 'options.policy.strategy', null);
    expectUnknownOption(() => build({ policy: { primery: 'specific' } }), 'options.policy.primery', 'primary');
    expectUnknownOption(() => build({ policy: { onDetection: () => null } }), 'options.policy.onDetection', 'onDetect');
  });
});

// ---------------------------------------------------------------------------------------------------------
// Tool rules
// ---------------------------------------------------------------------------------------------------------

describe('tool rules', () => {
  const rule = (r: unknown): Options => ({ tools: { search: r } });
  const path = 'options.tools["search"]';

  it('should reject a bad tools[name].ignoreFields and accept a valid one', () => {
    expectTypeError(() => build(rule({ ignoreFields: 'id' })), `${path}.ignoreFields`, 'an array of strings', str('id'));
    expectTypeError(() => build(rule({ ignoreFields: { id: 1 } })), `${path}.ignoreFields`, 'an array of strings', 'an object');
    expectTypeError(() => build(rule({ ignoreFields: ['id', 1] })), `${path}.ignoreFields[1]`, 'a non-empty string', num(1));
    expectTypeError(() => build(rule({ ignoreFields: [''] })), `${path}.ignoreFields[0]`, 'a non-empty string', str(''));
    const d = build(rule({ ignoreFields: ['id', 'ts'] }));
    expect(d.options.tools.get('search')).toEqual({ ignoreFields: ['id', 'ts'], identity: undefined, exempt: false, changesWorkspace: false });
  });

  it('should reject a bad tools[name].identity and accept a valid one', () => {
    expectTypeError(() => build(rule({ identity: 'args.query' })), `${path}.identity`, FUNC, str('args.query'));
    expectTypeError(() => build(rule({ identity: null })), `${path}.identity`, FUNC, 'null');
    const identity = (args: unknown): unknown => (args as { q: string }).q;
    const d = build(rule({ identity }));
    expect(d.options.tools.get('search')?.identity).toBe(identity);
  });

  it('should reject a bad tools[name].exempt and accept a valid one', () => {
    expectTypeError(() => build(rule({ exempt: 'yes' })), `${path}.exempt`, BOOL, str('yes'));
    expectTypeError(() => build(rule({ exempt: 1 })), `${path}.exempt`, BOOL, num(1));
    const d = build(rule({ exempt: true }));
    expect(d.options.tools.get('search')).toEqual({ ignoreFields: [], identity: undefined, exempt: true, changesWorkspace: false });
  });

  it('should reject an unknown tool rule field, suggesting the closest known one', () => {
    expectUnknownOption(() => build(rule({ exemt: true })), `${path}.exemt`, 'exempt');
    expectUnknownOption(() => build(rule({ ignoreField: ['id'] })), `${path}.ignoreField`, 'ignoreFields');
    expectUnknownOption(() => build(rule({ identify: () => 1 })), `${path}.identify`, 'identity');
    expectUnknownOption(() => build(rule({ normalise: true })), `${path}.normalise`, null);
  });

  it('should name the offending tool in the path, quoted', () => {
    expectTypeError(() => build({ tools: { ok: {}, 'web.fetch': { exempt: 'no' } } }), 'options.tools["web.fetch"].exempt', BOOL, str('no'));
  });

  it('should resolve a rule for every tool given, with defaults for the fields left out', () => {
    const d = build({ tools: { a: {}, b: { exempt: true }, c: { ignoreFields: ['x'] } } });
    expect([...d.options.tools.keys()]).toEqual(['a', 'b', 'c']);
    expect(d.options.tools.get('a')).toEqual({ ignoreFields: [], identity: undefined, exempt: false, changesWorkspace: false });
    expect(Object.isFrozen(d.options.tools.get('c'))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------------------

describe('option errors', () => {
  it('should give a type error the code ERR_LOOPWATCH_OPTION_TYPE and the option path', () => {
    const e = thrownBy(() => build({ detectors: { cycle: { maxPeriod: '5' } } }));
    expect(e).toBeInstanceOf(OptionTypeError);
    expect(e).toBeInstanceOf(TypeError);
    expect(e).toBeInstanceOf(Error);
    expect((e as OptionTypeError).code).toBe('ERR_LOOPWATCH_OPTION_TYPE');
    expect((e as OptionTypeError).code).toBe(ErrorCode.OPTION_TYPE);
    expect((e as OptionTypeError).option).toBe('options.detectors.cycle.maxPeriod');
    expect(e.name).toBe('OptionTypeError');
    expect(isLoopwatchError(e)).toBe(true);
  });

  it('should give a range error the code ERR_LOOPWATCH_OPTION_RANGE and the option path', () => {
    const e = thrownBy(() => build({ detectors: { cycle: { maxPeriod: 1 } } }));
    expect(e).toBeInstanceOf(OptionRangeError);
    expect(e).toBeInstanceOf(RangeError);
    expect((e as OptionRangeError).code).toBe('ERR_LOOPWATCH_OPTION_RANGE');
    expect((e as OptionRangeError).option).toBe('options.detectors.cycle.maxPeriod');
    expect(e.name).toBe('OptionRangeError');
    expect(e.message).toBe('options.detectors.cycle.maxPeriod must be an integer from 2 to 10000 (minPeriod), received 1 (number)');
    expect(isLoopwatchError(e)).toBe(true);
  });

  it('should give an unknown option the code ERR_LOOPWATCH_UNKNOWN_OPTION and its path', () => {
    const e = thrownBy(() => build({ policy: { treshold: 1 } }));
    expect(e).toBeInstanceOf(OptionTypeError);
    expect((e as OptionTypeError).code).toBe<ErrorCodeValue>('ERR_LOOPWATCH_UNKNOWN_OPTION');
    expect((e as OptionTypeError).option).toBe('options.policy.treshold');
    expect(isLoopwatchError(e)).toBe(true);
  });

  it('should not take other errors for loopwatch errors', () => {
    expect(isLoopwatchError(new TypeError('options.x must be a string'))).toBe(false);
    expect(isLoopwatchError(new RangeError('x'))).toBe(false);
    expect(isLoopwatchError({ code: ErrorCode.OPTION_TYPE, message: 'x' })).toBe(false);
    expect(isLoopwatchError(null)).toBe(false);
    expect(isLoopwatchError('ERR_LOOPWATCH_OPTION_TYPE')).toBe(false);
  });

  it('should throw before calling any callback or joining the stats aggregate', () => {
    let called = false;
    const stats2 = new StatsAggregate();
    expect(() => build({ sessionId: 1, maxDepth: 0, stats: stats2, onDetection: () => (called = true) })).toThrow(OptionTypeError);
    expect(called).toBe(false);
    expect(stats2.snapshot().sessions).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Presets' own parameters
// ---------------------------------------------------------------------------------------------------------

describe('preset parameters', () => {
  const chimera = (p: unknown): LoopDetector => presets.chimera(p as ChimeraParams);
  const toolLoop = (p: unknown): LoopDetector => presets.toolLoop(p as ToolLoopParams);
  const multi = (p: unknown): LoopDetector => presets.multiResolution(p as MultiResolutionParams);
  /** A preset called with extra options that may deliberately not type-check. */
  const withExtra = (extra: unknown): LoopDetectorOptions => extra as LoopDetectorOptions;
  const C = 'presets.chimera() options';
  const T = 'presets.toolLoop() options';
  const M = 'presets.multiResolution() options';
  const X = 'preset extra options';

  it('should reject presets.chimera() parameters that are not a plain object, or unknown', () => {
    expectTypeError(() => chimera(5), C, PLAIN, num(5));
    expectTypeError(() => chimera('x'), C, PLAIN, str('x'));
    expectTypeError(() => chimera(new Map([['window', 10]])), C, PLAIN, 'a Map');
    expectUnknownOption(() => chimera({ windw: 10 }), `${C}.windw`, 'window');
    expectUnknownOption(() => chimera({ cycleThreshhold: 3 }), `${C}.cycleThreshhold`, 'cycleThreshold');
    expectUnknownOption(() => chimera({ sessionId: 'a' }), `${C}.sessionId`, null);
    // presetOptions validates the same parameters without building a detector
    expect(() => presetOptions.chimera({ windw: 10 } as unknown as ChimeraParams)).toThrow(OptionTypeError);
  });

  it('should reject a bad presets.chimera() window and accept a valid one', () => {
    expectTypeError(() => chimera({ window: '10' }), `${C}.window`, INT, str('10'));
    // null is a value, not "left out"
    expectTypeError(() => chimera({ window: null }), `${C}.window`, INT, 'null');
    expectRangeError(() => chimera({ window: 3 }), `${C}.window`, 'an integer from 4 to 10000', num(3));
    expectRangeError(() => chimera({ window: MAX_WINDOW + 1 }), `${C}.window`, 'an integer from 4 to 10000', num(MAX_WINDOW + 1));
    // the cycle needs at least two periods of 2 calls per repetition inside the window
    expectRangeError(() => chimera({ window: 5, cycleThreshold: 3 }), `${C}.window`, 'at least 2 * cycleThreshold (6)', num(5));
    expectRangeError(() => chimera({ window: 9, threshold: 3, cycleThreshold: 5 }), `${C}.window`, 'at least 2 * cycleThreshold (10)', num(9));
    const o = chimera({ window: 12 }).options;
    expect(o.detectors.exactRepeat).toEqual({ threshold: 3, window: 12 });
    expect(o.detectors.cycle).toEqual({ minPeriod: 2, maxPeriod: 6, repetitions: 2, window: 12, key: 'call' });
    expect(chimera({ window: undefined }).options.detectors.exactRepeat).toEqual({ threshold: 3, window: 10 });
  });

  it('should reject a bad presets.chimera() threshold and accept a valid one', () => {
    expectTypeError(() => chimera({ threshold: 2.5 }), `${C}.threshold`, INT, num(2.5));
    expectTypeError(() => chimera({ threshold: null }), `${C}.threshold`, INT, 'null');
    expectRangeError(() => chimera({ threshold: 1 }), `${C}.threshold`, 'an integer from 2 to 10 (window)', num(1));
    expectRangeError(() => chimera({ window: 6, threshold: 7 }), `${C}.threshold`, 'an integer from 2 to 6 (window)', num(7));
    expect(chimera({ threshold: 10 }).options.detectors.exactRepeat).toEqual({ threshold: 10, window: 10 });
  });

  it('should reject a bad presets.chimera() cycleThreshold and accept a valid one', () => {
    expectTypeError(() => chimera({ cycleThreshold: '2' }), `${C}.cycleThreshold`, INT, str('2'));
    expectTypeError(() => chimera({ cycleThreshold: null }), `${C}.cycleThreshold`, INT, 'null');
    expectRangeError(() => chimera({ cycleThreshold: 1 }), `${C}.cycleThreshold`, 'an integer from 2 to 10000', num(1));
    expectRangeError(() => chimera({ cycleThreshold: MAX_WINDOW + 1 }), `${C}.cycleThreshold`, 'an integer from 2 to 10000', num(MAX_WINDOW + 1));
    expect(chimera({ cycleThreshold: 3, window: 12 }).options.detectors.cycle).toEqual({ minPeriod: 2, maxPeriod: 4, repetitions: 3, window: 12, key: 'call' });
  });

  it('should reject a bad presets.chimera() onDetect and accept a valid one', () => {
    expectTypeError(() => chimera({ onDetect: 1 }), `${C}.onDetect`, ACTION_RULE, num(1));
    expectTypeError(() => chimera({ onDetect: null }), `${C}.onDetect`, ACTION_RULE, 'null');
    expectRangeError(() => chimera({ onDetect: 'stop' }), `${C}.onDetect`, ACTION_RULE, str('stop'));
    const o = chimera({ onDetect: 'ask' }).options;
    expect(o.policy.ladder).toEqual(['ask']);
    expect(o.policy.fusion).toBe('first');
  });

  it('should reject presets.toolLoop() parameters that are not a plain object, or unknown', () => {
    expectTypeError(() => toolLoop([]), T, PLAIN, 'an array of length 0');
    expectUnknownOption(() => toolLoop({ historysize: 5 }), `${T}.historysize`, 'historySize');
    expectUnknownOption(() => toolLoop({ threshold: 5 }), `${T}.threshold`, 'repeatThreshold');
    expectUnknownOption(() => toolLoop({ zz: 5 }), `${T}.zz`, null);
  });

  it('should reject a bad presets.toolLoop() repeatThreshold and accept a valid one', () => {
    expectTypeError(() => toolLoop({ repeatThreshold: '3' }), `${T}.repeatThreshold`, INT, str('3'));
    expectTypeError(() => toolLoop({ repeatThreshold: null }), `${T}.repeatThreshold`, INT, 'null');
    expectRangeError(() => toolLoop({ repeatThreshold: 1 }), `${T}.repeatThreshold`, 'an integer from 2 to 10000', num(1));
    expect(() => presets.toolLoop({ repeatThreshold: 1 })).toThrow(RangeError);
    const o = toolLoop({ repeatThreshold: 5 }).options;
    expect(o.detectors.frequency).toEqual({ threshold: 5, window: 20 });
    expect(o.policy.ladder).toEqual(['break']);
  });

  it('should reject a bad presets.toolLoop() historySize and accept a valid one', () => {
    expectTypeError(() => toolLoop({ historySize: 20.5 }), `${T}.historySize`, INT, num(20.5));
    expectTypeError(() => toolLoop({ historySize: null }), `${T}.historySize`, INT, 'null');
    expectRangeError(() => toolLoop({ historySize: 2 }), `${T}.historySize`, 'an integer from 3 to 10000 (repeatThreshold)', num(2));
    expectRangeError(() => toolLoop({ repeatThreshold: 6, historySize: 5 }), `${T}.historySize`, 'an integer from 6 to 10000 (repeatThreshold)', num(5));
    expectRangeError(() => toolLoop({ historySize: 2 ** 31 }), `${T}.historySize`, 'an integer from 3 to 10000 (repeatThreshold)', num(2 ** 31));
    expect(toolLoop({ repeatThreshold: 4, historySize: 4 }).options.detectors.frequency).toEqual({ threshold: 4, window: 4 });
  });

  it('should reject presets.multiResolution() parameters that are not a plain object, or unknown', () => {
    expectTypeError(() => multi(true), M, PLAIN, 'true (boolean)');
    expectUnknownOption(() => multi({ jacardThreshold: 0.5 }), `${M}.jacardThreshold`, 'jaccardThreshold');
  });

  it('should reject a bad presets.multiResolution() exactThreshold and accept a valid one', () => {
    const rule = 'an integer from 2 to 500 (the 500-state window)';
    expectTypeError(() => multi({ exactThreshold: '3' }), `${M}.exactThreshold`, INT, str('3'));
    expectTypeError(() => multi({ exactThreshold: null }), `${M}.exactThreshold`, INT, 'null');
    expectRangeError(() => multi({ exactThreshold: 1 }), `${M}.exactThreshold`, rule, num(1));
    expectRangeError(() => multi({ exactThreshold: 501 }), `${M}.exactThreshold`, rule, num(501));
    expect(multi({ exactThreshold: 4 }).options.detectors.stateRepeat).toEqual({ threshold: 4, window: 500 });
    expect(multi({ exactThreshold: 500 }).options.detectors.stateRepeat).toEqual({ threshold: 500, window: 500 });
  });

  it('should reject a bad presets.multiResolution() jaccardThreshold and accept a valid one', () => {
    expectTypeError(() => multi({ jaccardThreshold: NaN }), `${M}.jaccardThreshold`, FINITE, num(NaN));
    expectTypeError(() => multi({ jaccardThreshold: null }), `${M}.jaccardThreshold`, FINITE, 'null');
    expectRangeError(() => multi({ jaccardThreshold: 0 }), `${M}.jaccardThreshold`, UNIT_OPEN, num(0));
    expectRangeError(() => multi({ jaccardThreshold: 1.2 }), `${M}.jaccardThreshold`, UNIT_OPEN, num(1.2));
    const semantic = multi({ jaccardThreshold: 0.9 }).options.detectors.semantic;
    expect(semantic?.threshold).toBe(0.9);
    // corteX's Jaccard detector also fires on identical actions
    expect(semantic?.countIdentical).toBe(true);
  });

  it('should reject a bad presets.multiResolution() oscillationMinCycles and accept a valid one', () => {
    const rule = 'an integer from 2 to 5 (4 * cycles within the 20-call window)';
    expectTypeError(() => multi({ oscillationMinCycles: 2.5 }), `${M}.oscillationMinCycles`, INT, num(2.5));
    expectTypeError(() => multi({ oscillationMinCycles: null }), `${M}.oscillationMinCycles`, INT, 'null');
    expectRangeError(() => multi({ oscillationMinCycles: 1 }), `${M}.oscillationMinCycles`, rule, num(1));
    expectRangeError(() => multi({ oscillationMinCycles: 6 }), `${M}.oscillationMinCycles`, rule, num(6));
    expect(multi({ oscillationMinCycles: 5 }).options.detectors.cycle).toEqual({ minPeriod: 2, maxPeriod: 4, repetitions: 5, window: 20, key: 'tool' });
  });

  it('should reject a bad presets.multiResolution() deadEndThreshold and accept a valid one', () => {
    const rule = 'an integer from 2 to 15 (the 15-call window)';
    expectTypeError(() => multi({ deadEndThreshold: false }), `${M}.deadEndThreshold`, INT, 'false (boolean)');
    expectTypeError(() => multi({ deadEndThreshold: null }), `${M}.deadEndThreshold`, INT, 'null');
    expectRangeError(() => multi({ deadEndThreshold: 1 }), `${M}.deadEndThreshold`, rule, num(1));
    expectRangeError(() => multi({ deadEndThreshold: 16 }), `${M}.deadEndThreshold`, rule, num(16));
    expect(multi({ deadEndThreshold: 15 }).options.detectors.deadEnd).toEqual({ threshold: 15, window: 15, matchClass: true });
  });

  it('should treat a preset parameter given as undefined as left out', () => {
    expect(chimera({ window: undefined, threshold: undefined, cycleThreshold: undefined, onDetect: undefined }).options).toEqual(presets.chimera().options);
    expect(toolLoop({ repeatThreshold: undefined, historySize: undefined }).options).toEqual(presets.toolLoop().options);
    expect(multi({ exactThreshold: undefined, deadEndThreshold: undefined }).options).toEqual(presets.multiResolution().options);
  });

  it.each(['balanced', 'conservative', 'aggressive'] as const)('should build the %s preset from valid options', (name) => {
    const g = GRADUATED[name];
    const o = presets[name]().options;
    expect(o.policy.ladder).toEqual(g.ladder);
    expect(o.detectors.frequency).toEqual({ threshold: g.maxDuplicates + 1, window: g.window + 1 });
    expect(o.detectors.cycle).toMatchObject({ minPeriod: g.minPattern, maxPeriod: g.maxPattern, repetitions: g.repetitions });
    expect(o.detectors.exactRepeat).toBeNull();
  });

  it('should validate the extra options a preset is given like any other options', () => {
    expectRangeError(() => presets.balanced({ maxDepth: 0 }), 'options.maxDepth', 'an integer from 1 to 1024', num(0));
    expectTypeError(() => presets.conservative({ policy: { ladder: [] } }), 'options.policy.ladder', LADDER_RULE, 'an array of length 0');
    expectUnknownOption(() => presets.aggressive({ sessionID: 'a' } as unknown as LoopDetectorOptions), 'options.sessionID', 'sessionId');
    expectTypeError(() => presets.chimera({}, { sessionId: 1 } as unknown as LoopDetectorOptions), 'options.sessionId', 'a string', num(1));
    expectRangeError(() => presets.chimera({}, { detectors: { cycle: { window: 9 } } }), 'options.detectors.cycle.window', upTo(10, ' (maxPeriod * repetitions)'), num(9));
    expect(presets.toolLoop({}, { sessionId: 'run-1' }).options.sessionId).toBe('run-1');
  });

  it('should reject extra options that are not a plain object before merging them', () => {
    expectTypeError(() => presets.balanced(withExtra(5)), X, PLAIN, num(5));
    expectTypeError(() => presets.balanced(withExtra(null)), X, PLAIN, 'null');
    expectTypeError(() => presets.conservative(withExtra('strict')), X, PLAIN, str('strict'));
    expectTypeError(() => presets.aggressive(withExtra([])), X, PLAIN, 'an array of length 0');
    expectTypeError(() => presets.chimera({}, withExtra(new Map())), X, PLAIN, 'a Map');
    expectTypeError(() => presets.toolLoop({}, withExtra(true)), X, PLAIN, 'true (boolean)');
    expectTypeError(() => presets.multiResolution({}, withExtra(7)), X, PLAIN, num(7));
    expect(() => presetOptions.balanced(withExtra(5))).toThrow(OptionTypeError);
    // left out, or explicitly undefined: the preset as it is
    expect(presets.balanced(undefined).options).toEqual(presets.balanced().options);
  });

  it('should reject extra detectors or policy that are not a plain object before merging them', () => {
    expectTypeError(() => presets.balanced(withExtra({ detectors: 5 })), `${X}.detectors`, PLAIN, num(5));
    expectTypeError(() => presets.balanced(withExtra({ detectors: null })), `${X}.detectors`, PLAIN, 'null');
    expectTypeError(() => presets.chimera({}, withExtra({ detectors: [] })), `${X}.detectors`, PLAIN, 'an array of length 0');
    expectTypeError(() => presets.balanced(withExtra({ policy: null })), `${X}.policy`, PLAIN, 'null');
    expectTypeError(() => presets.toolLoop({}, withExtra({ policy: 'strict' })), `${X}.policy`, PLAIN, str('strict'));
    expectTypeError(() => presets.multiResolution({}, withExtra({ policy: new Map() })), `${X}.policy`, PLAIN, 'a Map');
  });

  it('should merge an extra detector setting field by field into the preset\'s', () => {
    const cycle = presets.chimera({}, { detectors: { cycle: { window: 30 } } }).options.detectors.cycle;
    // chimera's cycle: maxPeriod floor(10 / 2) = 5, repetitions 2 (cycleThreshold); only the window changes
    expect(cycle).toEqual({ minPeriod: 2, maxPeriod: 5, repetitions: 2, window: 30, key: 'call' });
    // the preset's options spell out the hand-tuned fields it does not set (key), as the seeds were measured
    expect(presetOptions.chimera({}, { detectors: { cycle: { window: 30 } } }).detectors?.cycle).toEqual({ minPeriod: 2, maxPeriod: 5, repetitions: 2, window: 30, key: 'call' });
    // the preset's other detectors are left as they were
    expect(presets.chimera({}, { detectors: { cycle: { window: 30 } } }).options.detectors.exactRepeat).toEqual({ threshold: 3, window: 10 });
    const g = GRADUATED.balanced;
    expect(presets.balanced({ detectors: { frequency: { threshold: 5 } } }).options.detectors.frequency).toEqual({ threshold: 5, window: g.window + 1 });
    expect(presets.multiResolution({}, { detectors: { cycle: { key: 'call' } } }).options.detectors.cycle).toEqual({ minPeriod: 2, maxPeriod: 4, repetitions: 2, window: 20, key: 'call' });
  });

  it('should still let an extra detector setting turn a detector off, or on where the preset had it off', () => {
    expect(presets.chimera({}, { detectors: { cycle: false } }).options.detectors.cycle).toBeNull();
    // semantic is off in chimera: an object turns it on, over the library defaults
    expect(presets.chimera({}, { detectors: { semantic: { window: 5 } } }).options.detectors.semantic).toEqual({ ...SEMANTIC_DEFAULTS, window: 5 });
  });

  it('should merge extra policy fields one by one into the preset\'s', () => {
    const policy = presets.chimera({ onDetect: 'ask' }, { policy: { cooldown: 4 } }).options.policy;
    expect(policy.ladder).toEqual(['ask']);
    expect(policy.fusion).toBe('first');
    expect(policy.cooldown).toBe(4);
    expect(presets.multiResolution({}, { policy: { primary: 'specific' } }).options.policy).toMatchObject({ primary: 'specific', recommend: 'confidence', fusion: 'fuse' });
  });

  it('should not change the preset tables when extra options are merged', () => {
    const before = JSON.stringify(GRADUATED);
    presets.balanced({ detectors: { cycle: { window: 40 } }, policy: { ladder: ['break'] } });
    presets.chimera({}, { detectors: { cycle: { window: 30 } } });
    expect(JSON.stringify(GRADUATED)).toBe(before);
    expect(presets.balanced().options.detectors.cycle?.window).toBe(Math.max(GRADUATED.balanced.window, GRADUATED.balanced.maxPattern * GRADUATED.balanced.repetitions));
    expect(presets.balanced().options.policy.ladder).toEqual(GRADUATED.balanced.ladder);
  });
});
