/**
 * A config file's options for the library: what `--config FILE` stands for in every command, so a config
 * written by `loopwatch calibrate` (or by hand) gives a LoopDetector, a LoopEngine or a LoopPool the same
 * detection: `new LoopDetector(configOptions(JSON.parse(text)))`. A config is a JSON object of the
 * plain-data detection options, optionally naming a `preset` its options refine, and optionally holding
 * notes that describe it (`expected`, `fitted`: what calibrate writes), which are ignored.
 */
import { OptionRangeError, OptionTypeError } from '../errors.js';
import { describe, knownKeys, record } from '../options/checks.js';
import { HAND_TUNED_DETECTORS } from '../options/detector-options.js';
import { HAND_TUNED_OPTIONS, type LoopDetectorOptions } from '../options/options.js';
import { TOP_KEYS, resolveOptions } from '../options/resolve-options.js';
import { FAMILIES_KEY, familyOptions, optionsForAgent } from './config-families.js';
import { merge, presetOptions } from './presets.js';

/**
 * The hand-tuned built-in values with `extra` laid over as every preset lays it; a detector set to `true`
 * keeps its hand-tuned values (in the other presets `true` means the default's).
 */
function handTuned(extra: LoopDetectorOptions | undefined): LoopDetectorOptions {
  const detectors = extra?.detectors;
  if (detectors === undefined || detectors === null || typeof detectors !== 'object') return merge(HAND_TUNED_OPTIONS, extra);
  const named: Record<string, unknown> = { ...detectors };
  for (const [name, setting] of Object.entries(named)) if (setting === true && Object.hasOwn(HAND_TUNED_DETECTORS, name)) delete named[name];
  return merge(HAND_TUNED_OPTIONS, { ...extra, detectors: named });
}

/**
 * Preset names a config (and the CLI's `--preset`) takes, and what each builds over extra options. The
 * `default` is what `new LoopDetector()` runs: the hand-tuned values with the fitted ones laid over
 * (src/options/shipped-default.ts). `node scripts/fit-default.mjs` fits them from `hand-tuned` (the
 * built-in values) on the public traces and the devset, held out, and writes them as
 * src/options/fitted-default.ts (docs/evaluation.md, "The shipped default, fitted").
 */
export const CONFIG_PRESETS: Readonly<Record<string, (extra: LoopDetectorOptions | undefined) => LoopDetectorOptions>> = {
  default: (extra) => extra ?? {},
  'hand-tuned': handTuned,
  balanced: (extra) => presetOptions.balanced(extra),
  conservative: (extra) => presetOptions.conservative(extra),
  aggressive: (extra) => presetOptions.aggressive(extra),
  chimera: (extra) => presetOptions.chimera({}, extra),
  'tool-loop': (extra) => presetOptions.toolLoop({}, extra),
  'multi-resolution': (extra) => presetOptions.multiResolution({}, extra),
};

/** Members of a config that describe it rather than set options (`loopwatch calibrate` writes them): ignored. */
export const CONFIG_NOTES: readonly string[] = ['expected', 'fitted'];

/** Option keys a config may hold: the plain-data detection options (not engine, sessionId, custom, onDetection, stats). */
export const CONFIG_OPTION_KEYS: readonly string[] = TOP_KEYS.filter((k) => !['engine', 'sessionId', 'custom', 'onDetection', 'stats'].includes(k));

/** What a reader knows of the session a config's options are for. */
export interface ConfigReader {
  /** The agent's name (`claude-code`, `codex`, `gemini-cli`, or a label's agent): its family's options when the config has them. */
  readonly agent?: string | undefined;
}

/**
 * The detection options of a parsed config: its preset (default: `default`) with its options laid over,
 * its notes left out, validated; for `reader.agent`, its family's options when the config holds them
 * (config-families.ts), else the pooled ones. Throws OptionTypeError (a wrong type, an unknown key) or
 * OptionRangeError (an unknown preset, a value out of range), naming the option.
 */
export function configOptions(config: unknown, reader: ConfigReader = {}): LoopDetectorOptions {
  const c = record('config', config);
  knownKeys('config', c, [...CONFIG_OPTION_KEYS, 'preset', FAMILIES_KEY, ...CONFIG_NOTES]);
  const { preset = 'default', [FAMILIES_KEY]: families, ...rest } = c;
  if (typeof preset !== 'string') throw new OptionTypeError('config.preset', `config.preset must be a string, received ${describe(preset)}`);
  const build = Object.hasOwn(CONFIG_PRESETS, preset) ? CONFIG_PRESETS[preset] : undefined;
  if (build === undefined) throw new OptionRangeError('config.preset', `config.preset must be one of ${Object.keys(CONFIG_PRESETS).join(', ')}, received ${describe(preset)}`);
  for (const note of CONFIG_NOTES) delete rest[note];
  const options = build(rest as LoopDetectorOptions);
  resolveOptions(options);
  return optionsForAgent(familyOptions(options, families), reader.agent);
}

/**
 * A preset built from a config (a fitted one: what `loopwatch calibrate -o FILE` writes, kept as a module
 * by `scripts/preset-from-config.mjs`): the config's options (its own preset with its options laid over,
 * its notes left out), with a caller's extra options laid over them as every preset lays them (policy
 * fields one by one, a detector's fields one by one). The config is checked once, here; the shipped
 * default's options are `presetFromConfig(FITTED_DEFAULT)()` (the library fills them in without it). Its
 * `families` are not used (a preset has no agent). Throws as configOptions.
 */
export function presetFromConfig(config: unknown): (extra?: LoopDetectorOptions) => LoopDetectorOptions {
  const base = configOptions(config);
  return (extra) => (extra === undefined ? base : merge(base, extra));
}
