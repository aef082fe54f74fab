/**
 * The search space bound to a starting point: the parameters that apply (a detector the starting point
 * turns off has none), each parameter's values with the starting value among them, and the translation
 * of a point (one value index per parameter) into detection options laid over the starting ones.
 */
import type { DetectorsOptions, LoopDetectorOptions, ResolvedOptions } from '../options/options.js';
import { resolveOptions } from '../options/resolve-options.js';
import { type Param, type ParamValue, SEARCH_SPACE, sameValue } from './search-space.js';

/** A point of the space: a value index per parameter. */
export type Point = readonly number[];

/** The space of one fit. */
export interface Space {
  readonly params: readonly Param[];
  /** The starting point. */
  readonly start: Point;
}

/** The options a fit writes over the starting ones: policy fields and detector fields. */
export interface Fitted {
  readonly policy: Readonly<Record<string, unknown>>;
  readonly detectors: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

function startValue(p: Param, o: ResolvedOptions): ParamValue | undefined {
  const at = p.at;
  if ('policy' in at) return (o.policy as unknown as Record<string, ParamValue>)[at.policy];
  if ('weight' in at) return Object.hasOwn(o.policy.kindWeights, at.weight) ? o.policy.kindWeights[at.weight] : 1;
  const d = o.detectors[at.detector] as Readonly<Record<string, number>> | null;
  return d === null ? undefined : d[at.field];
}

/** Whether a parameter applies to the starting options (its detector is on). */
function applies(p: Param, o: ResolvedOptions): boolean {
  if ('policy' in p.at) return true;
  const detector = 'weight' in p.at ? SEARCH_SPACE.find((q) => q.kind === p.kind && 'detector' in q.at) : p;
  if (detector !== undefined && 'detector' in detector.at) return o.detectors[detector.at.detector] !== null;
  return true;
}

/** A kind weight's values at or above the floor when the kind starts above 0 (the starting value always kept). */
function floored(p: Param, v: ParamValue, minKindWeight: number): readonly ParamValue[] {
  if (!('weight' in p.at) || typeof v !== 'number' || v <= 0) return p.values;
  const least = Math.min(minKindWeight, v);
  return p.values.filter((x) => (x as number) >= least);
}

/**
 * The space of a fit starting from `start`: its parameters and where it starts. A kind the starting point
 * weighs above 0 is tried only at weights of at least `minKindWeight` (or its starting weight when lower;
 * see DEFAULT_MIN_KIND_WEIGHT); 0, the default here, leaves every weight free.
 */
export function spaceFor(start: LoopDetectorOptions, space: readonly Param[] = SEARCH_SPACE, minKindWeight = 0): Space {
  const o = resolveOptions(start);
  const params: Param[] = [];
  const point: number[] = [];
  for (const p of space) {
    if (!applies(p, o)) continue;
    const v = startValue(p, o);
    if (v === undefined) continue;
    let values = floored(p, v, minKindWeight);
    let at = values.findIndex((x) => sameValue(x, v));
    if (at < 0) {
      // the starting value joins the values tried, in order when it is a number
      values = typeof v === 'number' ? [...values, v].sort((a, b) => (a as number) - (b as number)) : [...values, v];
      at = values.findIndex((x) => sameValue(x, v));
    }
    params.push({ ...p, values });
    point.push(at);
  }
  return { params, start: point };
}

/** The fitted options of `point`. */
export function fittedOf(space: Space, point: Point): Fitted {
  const policy: Record<string, unknown> = {};
  const weights: Record<string, number> = {};
  const detectors: Record<string, Record<string, number>> = {};
  space.params.forEach((p, i) => {
    const v = p.values[point[i] as number] as ParamValue;
    const at = p.at;
    if ('policy' in at) policy[at.policy] = v;
    else if ('weight' in at) weights[at.weight] = v as number;
    else (detectors[at.detector] ??= {})[at.field] = v as number;
  });
  if (Object.keys(weights).length !== 0) policy.kindWeights = weights;
  return { policy, detectors };
}

/**
 * `fitted` laid over `start`: policy fields replace the starting ones, detector fields change only the
 * fields they name (a detector the starting point turns off stays off).
 */
export function withFitted(start: LoopDetectorOptions, fitted: Fitted): LoopDetectorOptions {
  const detectors: Record<string, unknown> = { ...start.detectors };
  for (const [name, fields] of Object.entries(fitted.detectors)) {
    const before = detectors[name];
    if (before === false) continue;
    detectors[name] = typeof before === 'object' && before !== null ? { ...before, ...fields } : { ...fields };
  }
  return { ...start, detectors: detectors as LoopDetectorOptions['detectors'], policy: { ...start.policy, ...fitted.policy } };
}

/** The thresholds a recording is made with: each emulated one at the lowest of its values and its start. */
export function permissiveOptions(start: LoopDetectorOptions, space: Space): LoopDetectorOptions {
  const detectors: Record<string, Record<string, number>> = {};
  for (const p of space.params) {
    if (!('detector' in p.at)) continue;
    const lowest = Math.min(...p.values.map((v) => v as number));
    (detectors[p.at.detector as keyof DetectorsOptions] ??= {})[p.at.field] = lowest;
  }
  return withFitted(start, { policy: {}, detectors });
}
