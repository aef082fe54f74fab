/**
 * Turns what a caller passed to `new LoopDetector(options)` into {@link ResolvedOptions}, validating
 * every value at construction: wrong types and unknown names throw `OptionTypeError` (a TypeError),
 * out-of-range values `OptionRangeError` (a RangeError), each naming the option, the rule and the value.
 */
import type { Detector } from '../detectors/detector.js';
import { StatsAggregate } from '../session/stats.js';
import { OptionRangeError, OptionTypeError } from '../errors.js';
import type { LoopAction, Verdict } from '../types.js';
import { resolveAllow } from './allow-rules.js';
import { bool, describe, func, integer, knownKeys, oneOf, ratio, record, string, stringList } from './checks.js';
import {
  CHANTING_DEFAULTS,
  CYCLE_DEFAULTS,
  DEAD_END_DEFAULTS,
  EXACT_REPEAT_DEFAULTS,
  FREQUENCY_DEFAULTS,
  RESULT_REPEAT_DEFAULTS,
  SEMANTIC_DEFAULTS,
  SIMILAR_ARGS_DEFAULTS,
  STATE_REPEAT_DEFAULTS,
} from './detector-options.js';
import { NO_KIND_WEIGHTS, POLICY_DEFAULTS } from './options.js';
import type { DetectorsOptions, PolicyOptions, ResolvedOptions, ToolRule } from './options.js';

/** A field rule: integers with a minimum (a number or another field's value), ratios, booleans, enums. */
type FieldRule =
  | { readonly t: 'int'; readonly min: number | string; readonly max?: number; readonly times?: string }
  | { readonly t: 'ratio'; readonly openMin: boolean }
  | { readonly t: 'bool' }
  | { readonly t: 'enum'; readonly values: readonly string[] };

/** Largest window or count any detector accepts: bounds the memory one session can take. */
export const MAX_WINDOW = 10_000;
/**
 * Most fields an `ignoreFields` list (top-level or a tool's) and most tools `tools` may name: each session
 * pays for them (a config of 200,000 tool rules cost 130 ms a session, 100,000 ignored fields as much; a
 * 16 MiB config of either took a scan of the traces past ten minutes). Real configs name a handful.
 */
export const MAX_CONFIG_LIST = 1000;

const int = (min: number | string, times?: string): FieldRule => (times ? { t: 'int', min, max: MAX_WINDOW, times } : { t: 'int', min, max: MAX_WINDOW });
const unit: FieldRule = { t: 'ratio', openMin: true };

/** Rules per detector, in declaration order (a field may refer to one declared before it). */
const DETECTOR_RULES: { readonly [K in keyof DetectorsOptions]: { readonly defaults: object; readonly fields: Readonly<Record<string, FieldRule>> } } = {
  exactRepeat: { defaults: EXACT_REPEAT_DEFAULTS, fields: { threshold: int(2), window: int('threshold') } },
  frequency: { defaults: FREQUENCY_DEFAULTS, fields: { threshold: int(2), window: int('threshold') } },
  cycle: {
    defaults: CYCLE_DEFAULTS,
    fields: {
      minPeriod: int(2),
      maxPeriod: int('minPeriod'),
      repetitions: int(2),
      window: int('maxPeriod', 'repetitions'),
      key: { t: 'enum', values: ['call', 'tool'] },
    },
  },
  semantic: {
    defaults: SEMANTIC_DEFAULTS,
    fields: { threshold: unit, window: int(1), minSimilar: int(1), maxTokens: int(1), maxTextLength: int(16), minTokens: int(1), sameTool: { t: 'bool' }, countIdentical: { t: 'bool' }, includeTool: { t: 'bool' }, method: { t: 'enum', values: ['sketch', 'exact'] }, sketchSize: { t: 'int', min: 4, max: 64 } },
  },
  similarArgs: { defaults: SIMILAR_ARGS_DEFAULTS, fields: { similarity: unit, threshold: int(2), window: int(1) } },
  resultRepeat: { defaults: RESULT_REPEAT_DEFAULTS, fields: { threshold: int(2), window: int('threshold'), masked: { t: 'bool' } } },
  deadEnd: { defaults: DEAD_END_DEFAULTS, fields: { threshold: int(2), window: int('threshold'), matchClass: { t: 'bool' } } },
  stateRepeat: { defaults: STATE_REPEAT_DEFAULTS, fields: { threshold: int(2), window: int('threshold') } },
  chanting: { defaults: CHANTING_DEFAULTS, fields: { maxPeriod: { t: 'int', min: 1, max: 4096 }, threshold: int(2), minLength: int(2), longChunk: { t: 'int', min: 1, max: 4096 }, longRepetitions: int(2) } },
};

/** Names of the built-in detectors, in the order they run. */
export const DETECTOR_NAMES = Object.keys(DETECTOR_RULES) as readonly (keyof DetectorsOptions)[];

/** Names of the top-level detection options. */
export const TOP_KEYS = [
  'engine', 'sessionId', 'detectors', 'custom', 'tools', 'ignoreFields', 'allow', 'normalizeVolatile', 'maxDepth',
  'redactSecrets', 'strictValues', 'policy', 'onDetection', 'stats',
] as const;
const POLICY_KEYS = Object.keys(POLICY_DEFAULTS);
const TOOL_RULE_KEYS = ['ignoreFields', 'identity', 'exempt', 'changesWorkspace'];
const ACTIONS: readonly LoopAction[] = ['warn', 'ask', 'break'];

function resolveDetector(name: keyof DetectorsOptions, value: unknown): object | null {
  const path = `options.detectors.${name}`;
  const { defaults, fields } = DETECTOR_RULES[name];
  if (value === undefined || value === true) return defaults;
  if (value === false) return null;
  const given = record(path, value);
  knownKeys(path, given, Object.keys(fields));
  const out: Record<string, unknown> = { ...defaults };
  for (const [field, rule] of Object.entries(fields)) {
    const fpath = `${path}.${field}`;
    const v = given[field] !== undefined ? given[field] : (defaults as Record<string, unknown>)[field];
    switch (rule.t) {
      case 'int': {
        let min = typeof rule.min === 'number' ? rule.min : (out[rule.min] as number);
        let why = typeof rule.min === 'number' ? '' : ` (${rule.min})`;
        if (rule.times !== undefined) {
          min *= out[rule.times] as number;
          why = ` (${rule.min as string} * ${rule.times})`;
        }
        out[field] = integer(fpath, v, min, rule.max, why);
        break;
      }
      case 'ratio':
        out[field] = ratio(fpath, v, 0, 1, rule.openMin);
        break;
      case 'bool':
        out[field] = bool(fpath, v);
        break;
      case 'enum':
        out[field] = oneOf(fpath, v, rule.values);
        break;
    }
  }
  return Object.freeze(out);
}

/** Largest weight a signal kind may have (`policy.kindWeights`). */
export const MAX_KIND_WEIGHT = 10;

/** `policy.kindWeights`: a plain object of weights from 0 to MAX_KIND_WEIGHT by kind name, frozen (`{}`: no kind weighed). */
function resolveKindWeights(path: string, value: unknown): Readonly<Record<string, number>> {
  if (value === POLICY_DEFAULTS.kindWeights || value === NO_KIND_WEIGHTS) return value as Readonly<Record<string, number>>;
  const given = record(path, value);
  const out: Record<string, number> = {};
  for (const [kind, weight] of Object.entries(given)) {
    if (kind.length === 0) throw new OptionRangeError(path, `${path} must name kinds by non-empty strings, received an empty name`);
    if (weight === undefined) continue;
    out[kind] = ratio(`${path}.${kind}`, weight, 0, MAX_KIND_WEIGHT);
  }
  return Object.keys(out).length === 0 ? NO_KIND_WEIGHTS : Object.freeze(out);
}

function resolvePolicy(value: unknown): PolicyOptions {
  if (value === undefined) return POLICY_DEFAULTS;
  const path = 'options.policy';
  const p = record(path, value);
  knownKeys(path, p, POLICY_KEYS);
  const get = (k: keyof PolicyOptions): unknown => (p[k] !== undefined ? p[k] : POLICY_DEFAULTS[k]);
  const ladderRaw = get('ladder');
  if (!Array.isArray(ladderRaw) || ladderRaw.length === 0) {
    throw new OptionTypeError(`${path}.ladder`, `${path}.ladder must be a non-empty array of "warn" | "ask" | "break", received ${describe(ladderRaw)}`);
  }
  const ladder = Object.freeze(ladderRaw.map((a, i) => oneOf(`${path}.ladder[${i}]`, a, ACTIONS)));
  const onDetect = get('onDetect');
  return Object.freeze({
    ladder,
    fusion: oneOf(`${path}.fusion`, get('fusion'), ['fuse', 'first'] as const),
    primary: oneOf(`${path}.primary`, get('primary'), ['specific', 'confident'] as const),
    agreementBonus: ratio(`${path}.agreementBonus`, get('agreementBonus')),
    minConfidence: ratio(`${path}.minConfidence`, get('minConfidence')),
    progress: oneOf(`${path}.progress`, get('progress'), ['suppress', 'slow', 'ignore'] as const),
    noProgressStep: integer(`${path}.noProgressStep`, get('noProgressStep'), 1, 100),
    interleavedStep: ratio(`${path}.interleavedStep`, get('interleavedStep'), 0, 100, true),
    kindWeights: resolveKindWeights(`${path}.kindWeights`, get('kindWeights')),
    recommend: oneOf(`${path}.recommend`, get('recommend'), ['ladder', 'confidence'] as const),
    escalateConfidence: ratio(`${path}.escalateConfidence`, get('escalateConfidence')),
    escalateRepeats: integer(`${path}.escalateRepeats`, get('escalateRepeats'), 1),
    cooldown: integer(`${path}.cooldown`, get('cooldown'), 0),
    stopAfter: integer(`${path}.stopAfter`, get('stopAfter'), 1, 1000),
    onDetect: onDetect === undefined ? undefined : func<PolicyOptions['onDetect']>(`${path}.onDetect`, onDetect),
  });
}

function resolveTools(value: unknown): ReadonlyMap<string, ToolRule> {
  const tools = new Map<string, ToolRule>();
  if (value === undefined) return tools;
  const all = record('options.tools', value);
  const count = Object.keys(all).length;
  if (count > MAX_CONFIG_LIST) throw new OptionRangeError('options.tools', `options.tools must name at most ${MAX_CONFIG_LIST} tools, received ${count}`);
  for (const [name, ruleValue] of Object.entries(all)) {
    const path = `options.tools[${JSON.stringify(name)}]`;
    const r = record(path, ruleValue);
    knownKeys(path, r, TOOL_RULE_KEYS);
    const rule: ToolRule = Object.freeze({
      ignoreFields: r.ignoreFields === undefined ? [] : stringList(`${path}.ignoreFields`, r.ignoreFields, MAX_CONFIG_LIST),
      identity: r.identity === undefined ? undefined : func<ToolRule['identity']>(`${path}.identity`, r.identity),
      exempt: r.exempt === undefined ? false : bool(`${path}.exempt`, r.exempt),
      changesWorkspace: r.changesWorkspace === undefined ? false : bool(`${path}.changesWorkspace`, r.changesWorkspace),
    });
    tools.set(name, rule);
  }
  return tools;
}

function resolveCustom(value: unknown): readonly Detector[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new OptionTypeError('options.custom', `options.custom must be an array of detectors, received ${describe(value)}`);
  const names = new Set<string>();
  value.forEach((d: unknown, i) => {
    const path = `options.custom[${i}]`;
    if (typeof d !== 'object' || d === null) throw new OptionTypeError(path, `${path} must be a detector object, received ${describe(d)}`);
    const obj = d as Record<string, unknown>;
    const name = string(`${path}.name`, obj.name);
    if (name.length === 0) throw new OptionRangeError(`${path}.name`, `${path}.name must be a non-empty string, received ${describe(name)}`);
    if (names.has(name)) throw new OptionRangeError(`${path}.name`, `${path}.name must be unique among custom detectors, received ${describe(name)} twice`);
    names.add(name);
    for (const m of ['record', 'check', 'reset']) func(`${path}.${m}`, obj[m]);
  });
  return Object.freeze([...(value as Detector[])]);
}

/** Validates `input` and fills in every default. Throws OptionTypeError / OptionRangeError. */
export function resolveOptions(input: unknown = {}): ResolvedOptions {
  if (isResolved(input)) return input;
  const o = record('options', input);
  knownKeys('options', o, TOP_KEYS);
  const detectorsIn = o.detectors === undefined ? {} : record('options.detectors', o.detectors);
  knownKeys('options.detectors', detectorsIn, DETECTOR_NAMES);
  const detectors = {} as Record<keyof DetectorsOptions, object | null>;
  for (const name of DETECTOR_NAMES) detectors[name] = resolveDetector(name, detectorsIn[name]);
  if (o.stats !== undefined && !(o.stats instanceof StatsAggregate)) {
    throw new OptionTypeError('options.stats', `options.stats must be a StatsAggregate, received ${describe(o.stats)}`);
  }
  const resolved: ResolvedOptions = Object.freeze({
    engine: o.engine === undefined ? 'wasm' : oneOf('options.engine', o.engine, ['wasm', 'reference'] as const),
    sessionId: o.sessionId === undefined ? '' : string('options.sessionId', o.sessionId),
    detectors: Object.freeze(detectors) as unknown as DetectorsOptions,
    custom: resolveCustom(o.custom),
    tools: resolveTools(o.tools),
    ignoreFields: o.ignoreFields === undefined ? [] : stringList('options.ignoreFields', o.ignoreFields, MAX_CONFIG_LIST),
    allow: resolveAllow(o.allow),
    normalizeVolatile: o.normalizeVolatile === undefined ? false : bool('options.normalizeVolatile', o.normalizeVolatile),
    maxDepth: o.maxDepth === undefined ? 64 : integer('options.maxDepth', o.maxDepth, 1, 1024),
    redactSecrets: o.redactSecrets === undefined ? true : bool('options.redactSecrets', o.redactSecrets),
    strictValues: o.strictValues === undefined ? false : bool('options.strictValues', o.strictValues),
    policy: resolvePolicy(o.policy),
    onDetection: o.onDetection === undefined ? undefined : func<(v: Verdict) => void>('options.onDetection', o.onDetection),
    stats: o.stats as StatsAggregate | undefined,
  });
  RESOLVED.add(resolved);
  return resolved;
}

/** Every options object resolveOptions() has returned. */
const RESOLVED = new WeakSet<object>();

/** Whether `o` came from resolveOptions() (so it can be shared by many sessions as it is). */
export function isResolved(o: unknown): o is ResolvedOptions {
  return typeof o === 'object' && o !== null && RESOLVED.has(o);
}
