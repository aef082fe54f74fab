/**
 * The detection options of a CLI run: a named preset, a JSON config file, or both (the file's options
 * refine the preset's). Everything is validated before a call is read; an error names the file, the
 * option, the rule and the value received.
 */
import { resolve } from 'node:path';
import { isLoopwatchError } from '../errors.js';
import { jsonErrorMessage } from '../formats/json-value.js';
import { readBoundedFile, readFailure } from '../formats/regular-file.js';
import type { LoopDetectorOptions } from '../options/options.js';
import { resolveOptions } from '../options/resolve-options.js';
import { FAMILIES_KEY, type FamilyOptions, familyOptions } from '../presets/config-families.js';
import { CONFIG_NOTES, CONFIG_OPTION_KEYS, CONFIG_PRESETS } from '../presets/config-options.js';
import { UsageError } from './usage-error.js';

/** Preset names the CLI takes, and what each builds. */
export const PRESETS = CONFIG_PRESETS;

export { CONFIG_NOTES };

/** Top-level keys a config file may hold: the plain-data detection options, `preset`, and its notes. */
export const CONFIG_KEYS: readonly string[] = [...CONFIG_OPTION_KEYS, 'preset', FAMILIES_KEY, ...CONFIG_NOTES];

/** Largest config file read (16 MiB; a FIFO, a device or a bigger file is refused, not read for ever). */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/** A config file's preset, options (its notes left out) and per-family section (unchecked); a relative `path` is read from `cwd` when given (named as given). Throws UsageError. */
export function readConfig(path: string, cwd?: string): { preset: string | undefined; options: LoopDetectorOptions; families?: unknown } {
  let text: string;
  try {
    text = readBoundedFile(cwd === undefined ? path : resolve(cwd, path), MAX_CONFIG_BYTES).toString('utf8');
  } catch (e) {
    throw new UsageError(`--config ${path}: cannot read the file (${readFailure(e)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${path}: not valid JSON (${jsonErrorMessage(e)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${path}: must hold a JSON object of options, received ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`);
  }
  const { preset, [FAMILIES_KEY]: families, ...options } = value as Record<string, unknown>;
  for (const key of Object.keys(options)) {
    if (!CONFIG_KEYS.includes(key)) throw new UsageError(`${path}: "${key}" is not a config option (known: ${CONFIG_KEYS.join(', ')})`);
    if (CONFIG_NOTES.includes(key)) delete options[key];
  }
  if (preset !== undefined && typeof preset !== 'string') throw new UsageError(`${path}: "preset" must be a string, received ${JSON.stringify(preset)}`);
  return { preset, options: options as LoopDetectorOptions, ...(families === undefined ? {} : { families }) };
}

/**
 * The detection options for `--preset` and `--config` (either may be absent), validated. Throws UsageError
 * naming the file, the option, the rule and the value.
 */
export function detectionOptions(preset: string | undefined, configPath: string | undefined, cwd?: string): LoopDetectorOptions {
  return familyDetection(preset, configPath, cwd).pooled;
}

/**
 * The detection options for `--preset` and `--config`, pooled and per family (a config's `families`,
 * config-families.ts), validated. Throws UsageError naming the file, the option, the rule and the value.
 */
export function familyDetection(preset: string | undefined, configPath: string | undefined, cwd?: string): FamilyOptions {
  const config = configPath === undefined ? undefined : readConfig(configPath, cwd);
  const name = preset ?? config?.preset ?? 'default';
  const build = Object.hasOwn(PRESETS, name) ? PRESETS[name] : undefined;
  if (build === undefined) {
    const where = preset === undefined ? `${configPath}: "preset"` : '--preset';
    throw new UsageError(`${where} must be one of ${Object.keys(PRESETS).join(', ')}, received "${name}"`);
  }
  try {
    const options = build(config?.options);
    resolveOptions(options);
    return familyOptions(options, config?.families);
  } catch (e) {
    if (isLoopwatchError(e)) throw new UsageError(`${configPath ?? '--preset'}: ${e.message}`);
    throw e;
  }
}
