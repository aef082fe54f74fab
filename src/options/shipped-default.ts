/**
 * The shipped default: the fitted values (fitted-default.ts, written by `node scripts/fit-default.mjs`)
 * laid over the hand-tuned built-in values, field by field. Every default options object (each detector's
 * `*_DEFAULTS`, `POLICY_DEFAULTS`) is built here, once, so `new LoopDetector()`, LoopEngine, LoopPool, the
 * adapters, the hook, `serve`, `scan` and `eval` all run the same values; preset `hand-tuned` names the
 * built-in values themselves (HAND_TUNED_OPTIONS).
 *
 * Only fields the built-in object has are taken from the fit (an unknown one is left to the validation
 * test, test/options-shipped-default.test.ts, which checks the result resolves and matches the `default`
 * preset). This file sits on the options floor and imports only data, so presets above it read it too.
 */
import { FITTED_DEFAULT } from './fitted-default.js';

/** A plain object's entries, or none for anything else (a missing section of the fit). */
function section(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `value` frozen, arrays and plain objects copied first (the fit's data is shared by every caller). */
function frozen(value: unknown): unknown {
  if (Array.isArray(value)) return Object.freeze([...value]);
  if (typeof value === 'object' && value !== null) return Object.freeze({ ...value });
  return value;
}

/** `builtIn` with the fitted fields of `fitted` laid over it (fields `builtIn` does not have are ignored), frozen. */
export function shippedValues<T extends object>(builtIn: T, fitted: unknown): T {
  const over = section(fitted);
  const out: Record<string, unknown> = { ...(builtIn as Record<string, unknown>) };
  for (const key of Object.keys(builtIn)) if (over[key] !== undefined) out[key] = frozen(over[key]);
  return Object.freeze(out) as T;
}

/** The fitted options of detector `name` (its section of FITTED_DEFAULT.detectors; none when not fitted). */
export function fittedDetector(name: string): unknown {
  return section(FITTED_DEFAULT.detectors)[name];
}

/** The fitted policy fields (FITTED_DEFAULT.policy). */
export function fittedPolicy(): unknown {
  return FITTED_DEFAULT.policy;
}
