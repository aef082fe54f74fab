/**
 * A candidate's signals, emulated from a recording: each recorded signal of a kind whose threshold is
 * emulated (signal-formulas.ts) is kept when its count reaches the candidate's threshold, with the
 * confidence the detector's formula gives for it; other kinds' signals are kept as recorded. Then the
 * candidate's `kindWeights` are applied by the policy's own weighSignal, here rather than in the policy
 * (which then runs with every weight 1, as weighSignal leaves a weight of 1 alone), so that each signal is
 * re-scored and weighed once per threshold and weight instead of once per call and candidate.
 */
import { NO_KIND_WEIGHTS, type PolicyOptions, type ResolvedOptions } from '../options/options.js';
import { type TurnThresholds, turnThresholds } from '../policy/turns.js';
import { weighSignal } from '../policy/verdict-policy.js';
import { historyCapacity } from '../session/build-detectors.js';
import type { LoopSignal } from '../types.js';
import { KIND_FORMULAS, formulaOf } from './signal-formulas.js';

/** A recorded signal, ready to be re-scored. */
export interface SignalEntry {
  readonly signal: LoopSignal;
  /** Index of its kind in KIND_FORMULAS, or -1 for another kind. */
  readonly kind: number;
  /** Whether its threshold is emulated. */
  readonly emulated: boolean;
  /** The count its threshold is compared with. */
  readonly count: number;
  /** The Variants its copies are numbered by (copies made under another numbering are dropped). */
  owner: Variants | null;
  /** Its re-scored, weighed copies (null: weighed 0), by its kind's variant (see Variants). */
  cache: (LoopSignal | null | undefined)[] | null;
  /** The same, each alone in a list (for a call with this one signal). */
  alone: (readonly LoopSignal[] | undefined)[] | null;
}

/**
 * Numbers for the (threshold, weight) pairs of each kind the candidates of one fit use, so that a signal's
 * re-scored copies are found by index.
 */
export class Variants {
  private readonly seen = KIND_FORMULAS.map(() => new Map<string, number>());

  /** The number of `kind`'s pair (t, w). */
  of(kind: number, t: number, w: number): number {
    const m = this.seen[kind] as Map<string, number>;
    const key = `${t}|${w}`;
    let n = m.get(key);
    if (n === undefined) m.set(key, (n = m.size));
    return n;
  }
}

/** The thresholds of a set of detector options, by KIND_FORMULAS index (NaN: not emulated, or off). */
export function thresholdsOf(o: ResolvedOptions): Float64Array {
  const out = new Float64Array(KIND_FORMULAS.length).fill(NaN);
  KIND_FORMULAS.forEach((f, i) => {
    const d = o.detectors[f.detector] as Readonly<Record<string, unknown>> | null;
    if (f.field !== null && d !== null) out[i] = d[f.field] as number;
  });
  return out;
}

/** How a candidate's signals are made from a recording made under `recorded` thresholds. */
export interface Emulation {
  readonly thresholds: Float64Array;
  readonly recorded: Float64Array;
  /** The candidate's kind weights. */
  readonly weights: Readonly<Record<string, number>>;
  /** Each KIND_FORMULAS kind's variant: its threshold and weight, numbered by a Variants. */
  readonly variant: Int32Array;
  /** What numbers the variants. */
  readonly variants: Variants;
  /** Calls the candidate's call log keeps (its windows are the recording's). */
  readonly capacity: number;
  /** The candidate's policy with every weight 1 (the weights are applied here). */
  readonly policy: PolicyOptions;
  /** The turns the candidate's evidence screen asks a kind's repetitions to span (its detectors' thresholds). */
  readonly turns: TurnThresholds;
}

/** The emulation of candidate options `o` over a recording made with `recordedWith`, its variants numbered by `variants`. */
export function emulationOf(o: ResolvedOptions, recordedWith: ResolvedOptions, variants: Variants): Emulation {
  const w = o.policy.kindWeights;
  const thresholds = thresholdsOf(o);
  const recorded = thresholdsOf(recordedWith);
  return {
    thresholds,
    recorded,
    weights: w,
    variant: Int32Array.from(KIND_FORMULAS, (f, i) => variants.of(i, thresholds[i] === recorded[i] ? -1 : (thresholds[i] as number), Object.hasOwn(w, f.kind) ? (w[f.kind] as number) : 1)),
    variants,
    capacity: historyCapacity(o.detectors),
    policy: { ...o.policy, kindWeights: NO_KIND_WEIGHTS },
    turns: turnThresholds(o.detectors),
  };
}

/** A recorded signal as an entry. */
export function entryOf(signal: LoopSignal): SignalEntry {
  const f = formulaOf(signal.kind);
  const kind = f === undefined || signal.detector !== f.kind ? -1 : KIND_FORMULAS.indexOf(f);
  const emulated = f !== undefined && kind >= 0 && f.field !== null;
  return { signal, kind, emulated, count: emulated ? (f as NonNullable<typeof f>).count(signal) : 0, owner: null, cache: null, alone: null };
}

const NONE: readonly LoopSignal[] = Object.freeze([]);

/** The threshold `e` is re-scored for under `em` (-1: as recorded; NaN: dropped). */
function thresholdFor(e: SignalEntry, em: Emulation): number {
  if (!e.emulated) return -1;
  const t = em.thresholds[e.kind] as number;
  if (!(e.count >= t)) return NaN;
  return t === em.recorded[e.kind] ? -1 : t;
}

/** Drops the copies of `e` numbered by other Variants than `em`'s. */
function own(e: SignalEntry, em: Emulation): void {
  if (e.owner === em.variants) return;
  e.owner = em.variants;
  e.cache = null;
  e.alone = null;
}

/** `e` re-scored for threshold `t` (-1: as recorded) and weighed (null: weighed 0), made once per variant. */
function weighed(e: SignalEntry, t: number, em: Emulation): LoopSignal | null {
  own(e, em);
  const v = em.variant[e.kind] as number;
  const cache = (e.cache ??= []);
  let s = cache[v];
  if (s === undefined) {
    const f = KIND_FORMULAS[e.kind];
    const scored = t < 0 || f === undefined ? e.signal : Object.freeze({ ...e.signal, confidence: f.confidence(e.count, t) });
    s = cache[v] = weighSignal(scored, em.weights);
  }
  return s;
}

/** The candidate's signals among the recorded `entries`, in their order. */
export function emulate(entries: readonly SignalEntry[], em: Emulation): readonly LoopSignal[] {
  if (entries.length === 0) return NONE;
  if (entries.length === 1) {
    // most calls with a signal have one: its list is made once per variant
    const e = entries[0] as SignalEntry;
    if (e.kind < 0) {
      const s = weighSignal(e.signal, em.weights);
      return s === null ? NONE : [s];
    }
    const t = thresholdFor(e, em);
    if (Number.isNaN(t)) return NONE;
    own(e, em);
    const alone = (e.alone ??= []);
    const v = em.variant[e.kind] as number;
    let list = alone[v];
    if (list === undefined) {
      const s = weighed(e, t, em);
      list = alone[v] = s === null ? NONE : Object.freeze([s]);
    }
    return list;
  }
  let out: LoopSignal[] | null = null;
  for (const e of entries) {
    const t = thresholdFor(e, em);
    if (Number.isNaN(t)) continue;
    const s = e.kind < 0 ? weighSignal(e.signal, em.weights) : weighed(e, t, em);
    if (s !== null) (out ??= []).push(s);
  }
  return out ?? NONE;
}

/**
 * The candidate's signals among `entries` before weighing (as recorded, their confidence aside): what a
 * proposal's evidence is read from, since a session reads it from its detectors' signals, not the
 * policy's weighed ones.
 */
export function unweighed(entries: readonly SignalEntry[], em: Emulation): readonly LoopSignal[] {
  let out: LoopSignal[] | null = null;
  for (const e of entries) if (!Number.isNaN(thresholdFor(e, em))) (out ??= []).push(e.signal);
  return out ?? NONE;
}
