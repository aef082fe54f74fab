/**
 * A config's `families` section (what `loopwatch calibrate --per-family` writes): options fitted for one
 * family of agents, laid over the config's own (pooled) options for the sessions of that family.
 *
 * ```json
 * { "policy": { ... pooled ... }, "detectors": { ... },
 *   "families": { "claude-code": { "policy": { "minConfidence": 0.8 } }, "codex": { ... } } }
 * ```
 *
 * A family is named as eval names it (eval/families.ts: the label's agent through the built-in rules, e.g.
 * `claude-code`, `codex`, `gemini-cli`, `OpenHands`). A reader that knows the agent (eval and calibrate: the
 * label's; scan: the label's, else its transcript format's; a hook: its `--agent`; serve: a call's `agent` or
 * its hook route's; the library, a LoopPool: `configOptions(config, { agent })`) uses the family's options;
 * any other session, the pooled ones. Each family's options are laid over the
 * pooled ones as a preset's extra options are (policy fields one by one, a detector's fields one by one).
 */
import { OptionRangeError, OptionTypeError } from '../errors.js';
import { type FamilyOverride, familyOf } from './agent-families.js';
import { describe, record } from '../options/checks.js';
import type { LoopDetectorOptions } from '../options/options.js';
import { MAX_CONFIG_LIST, resolveOptions } from '../options/resolve-options.js';
import { merge } from './presets.js';

/** The member of a config holding per-family options. */
export const FAMILIES_KEY = 'families';

/** The pooled options of a config and each family's (pooled with the family's laid over). */
export interface FamilyOptions {
  /** Options for a session of no family named in the config. */
  readonly pooled: LoopDetectorOptions;
  /** Options per family name. */
  readonly families: ReadonlyMap<string, LoopDetectorOptions>;
}

/**
 * Each family's options of a config's `families` member (undefined: none) over `pooled`, validated.
 * Throws OptionTypeError naming the family (a family that is not an object of options, an unknown key in it)
 * and OptionRangeError for a value out of range or more than {@link MAX_CONFIG_LIST} families.
 */
export function familyOptions(pooled: LoopDetectorOptions, families: unknown): FamilyOptions {
  const out = new Map<string, LoopDetectorOptions>();
  if (families !== undefined) {
    const all = record(`config.${FAMILIES_KEY}`, families);
    // each family's options are resolved here and may get an engine of their own (serve): bounded
    const count = Object.keys(all).length;
    if (count > MAX_CONFIG_LIST) throw new OptionRangeError(`config.${FAMILIES_KEY}`, `config.${FAMILIES_KEY} must name at most ${MAX_CONFIG_LIST} families, received ${count}`);
    for (const [name, extra] of Object.entries(all)) {
      if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) {
        throw new OptionTypeError(`config.${FAMILIES_KEY}.${name}`, `config.${FAMILIES_KEY}.${name} must be an object of options, received ${describe(extra)}`);
      }
      for (const key of Object.keys(extra)) {
        if (key !== 'policy' && key !== 'detectors') {
          throw new OptionTypeError(`config.${FAMILIES_KEY}.${name}.${key}`, `config.${FAMILIES_KEY}.${name} holds policy and detectors only, received "${key}"`);
        }
      }
      const options = merge(pooled, extra as LoopDetectorOptions);
      resolveOptions(options);
      out.set(name, options);
    }
  }
  return { pooled, families: out };
}

/** The options for a session of `agent` (its family by eval's rules, `overrides` first), else the pooled ones. */
export function optionsForAgent(f: FamilyOptions, agent: string | undefined, overrides: readonly FamilyOverride[] = []): LoopDetectorOptions {
  if (f.families.size === 0 || agent === undefined) return f.pooled;
  return f.families.get(familyOf(agent, overrides)) ?? f.pooled;
}
