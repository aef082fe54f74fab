/**
 * Snapshots taken under the hand-tuned default, restored under the shipped (fitted) one. Before the fitted
 * default shipped everywhere, `new LoopDetector()`, LoopEngine, LoopPool and `loopwatch hook` without flags
 * ran the hand-tuned values, and the sessions they saved (a hook's state file, a worker's state) carry those
 * options' fingerprint. The fit changes fields that only decide (a threshold read when a verdict is formed,
 * a signal kind's weight), not what a session's saved state holds or how it is laid out, so such a state
 * means the same under the shipped values: the options' hand-tuned twin (the same options, those fields set
 * back to their hand-tuned values wherever they hold the shipped ones) is a second fingerprint the snapshot
 * may carry. A field not listed here is never swapped: if a later fit changes a window, a state saved under
 * the old one is still refused (and a hook starts that session over).
 */
import { DETECTOR_DEFAULTS, HAND_TUNED_DETECTORS, type BuiltInDetectorOptions } from '../options/detector-options.js';
import { HAND_TUNED_POLICY, POLICY_DEFAULTS, type DetectorsOptions, type PolicyOptions, type ResolvedOptions } from '../options/options.js';

/**
 * Fields of each detector that no saved state depends on. similarArgs: its window of summaries is sized by
 * `window` alone; `threshold` and `similarity` are read only when a call is checked.
 */
const DECISION_ONLY: { readonly [K in keyof BuiltInDetectorOptions]?: readonly (keyof BuiltInDetectorOptions[K])[] } = {
  similarArgs: ['threshold', 'similarity'],
};

/** Policy fields no saved state depends on: `kindWeights` scales a signal's confidence before fusion, nothing more. */
const DECISION_ONLY_POLICY: readonly (keyof PolicyOptions)[] = ['kindWeights'];

/** Whether two option values are the same (plain data: numbers, strings, flat records of numbers). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && (a as Record<string, unknown>)[k] === (b as Record<string, unknown>)[k]);
}

/** `current` with each listed field that holds the shipped value set back to the hand-tuned one; null when none does. */
function swapped<T extends object>(current: T, shipped: T, hand: T, fields: readonly (keyof T)[]): T | null {
  let out: T | null = null;
  for (const f of fields) {
    if (same(shipped[f], hand[f]) || !same(current[f], shipped[f])) continue;
    out ??= { ...current };
    out[f] = hand[f];
  }
  return out;
}

/**
 * The options' hand-tuned twin (see the header): what a session saved with the hand-tuned default under
 * otherwise the same options was resolved to, or null when the options hold no shipped value the fit changed.
 */
export function handTunedTwin(o: ResolvedOptions): ResolvedOptions | null {
  let changed = false;
  const detectors: Record<string, unknown> = { ...o.detectors };
  for (const name of Object.keys(DECISION_ONLY) as (keyof BuiltInDetectorOptions)[]) {
    const current = o.detectors[name];
    if (current === null) continue;
    const twin = swapped<object>(current, DETECTOR_DEFAULTS[name], HAND_TUNED_DETECTORS[name], (DECISION_ONLY[name] ?? []) as never[]);
    if (twin === null) continue;
    detectors[name] = twin;
    changed = true;
  }
  const policy = swapped(o.policy, POLICY_DEFAULTS, HAND_TUNED_POLICY, DECISION_ONLY_POLICY);
  if (!changed && policy === null) return null;
  return { ...o, detectors: detectors as unknown as DetectorsOptions, policy: policy ?? o.policy };
}
