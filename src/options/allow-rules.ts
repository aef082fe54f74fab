/**
 * The `allow` option: calls meant to repeat (a type check after each edit, a status poll), recorded like
 * any call but never warned, asked about, denied or stopped for repeating. A rule names a `tool`, a
 * `command` pattern, or both:
 *
 * ```
 *   { "tool": "Bash", "command": "^npx tsc --noEmit$" }   Bash calls whose command matches
 *   { "command": "^npm (run )?test\\b" }                  any tool's command that matches
 *   { "tool": "job_status" }                              every call of the tool
 * ```
 *
 * `command` is a regular expression (JavaScript syntax, searched anywhere in the command: anchor it with
 * `^` and `$`), tested against the call's `command` argument (a string, or an array of strings joined by
 * spaces), at most MAX_COMMAND_TEXT characters of it. Patterns come from files people and tools write
 * (`.loopwatch.json`, `--config`), so they are made safe before they are used: at most MAX_PATTERN
 * characters; no backreferences or lookarounds, and no quantified group holding a quantifier or an
 * alternation (`(a+)+`, `(a|ab)*`: the shapes whose backtracking grows exponentially); and, where Node's
 * V8 has it, compiled for V8's linear-time engine (the `l` flag), which matches in time linear in the text
 * whatever the pattern. Without it, a pattern may hold at most two unbounded quantifiers.
 */
import { setFlagsFromString } from 'node:v8';
import { OptionRangeError, OptionTypeError } from '../errors.js';
import { EncodedArgs } from '../wasm/encoded-args.js';
import { parseArgs } from '../fingerprint/signature.js';
import { describe, knownKeys, record, string } from './checks.js';

/** One rule of the `allow` option, as callers write it (see the header). */
export interface AllowRule {
  /** The tool's name, exactly; absent: any tool. */
  readonly tool?: string;
  /** A regular expression searched in the call's command; absent: any call of `tool`. */
  readonly command?: string;
}

/** A rule as the detector uses it: the pattern compiled. */
export interface ResolvedAllowRule {
  readonly tool: string | undefined;
  readonly command: RegExp | undefined;
}

/** Longest `command` pattern, in characters. */
export const MAX_PATTERN = 512;
/** Characters of a call's command a pattern sees (its head). */
export const MAX_COMMAND_TEXT = 4096;
/** Most rules one `allow` option holds. */
export const MAX_ALLOW_RULES = 256;

const RULE_KEYS = ['tool', 'command'];

let linear: boolean | undefined;

/** Whether V8's linear-time engine takes patterns (turned on once if it is not). */
function linearEngine(): boolean {
  if (linear !== undefined) return linear;
  try {
    new RegExp('a', 'l');
    return (linear = true);
  } catch {
    // off by default: turning it on changes nothing for patterns without the `l` flag
  }
  try {
    setFlagsFromString('--enable-experimental-regexp-engine');
    new RegExp('a', 'l');
    linear = true;
  } catch {
    linear = false;
  }
  return linear;
}

/**
 * Why `source` may take more than linear time to match, or null when it cannot: a backreference, a
 * lookaround, a quantified group holding a quantifier or an alternation; without the linear engine, more
 * than two unbounded quantifiers.
 */
export function unsafePattern(source: string, linearTime = linearEngine()): string | null {
  // for each open group: whether it holds a quantifier or an alternation
  const groups: boolean[] = [];
  let unbounded = 0;
  let lastGroupRisky = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    let quantifier = false;
    let risky = false;
    if (c === '\\') {
      const n = source[i + 1] ?? '';
      if (/[1-9]/.test(n) || (n === 'k' && source[i + 2] === '<')) return 'a backreference';
      i++;
    } else if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
    } else if (c === '(') {
      if (/^\(\?<?[=!]/.test(source.slice(i, i + 4))) return 'a lookaround';
      groups.push(false);
    } else if (c === ')') {
      risky = groups.pop() === true;
      if (risky && groups.length !== 0) groups[groups.length - 1] = true;
    } else if (c === '|') {
      if (groups.length !== 0) groups[groups.length - 1] = true;
    } else if (c === '*' || c === '+' || c === '?' || (c === '{' && /^\{\d+(,\d*)?\}/.test(source.slice(i)))) {
      quantifier = true;
      if (c === '*' || c === '+' || (c === '{' && /^\{\d+,\}/.test(source.slice(i)))) unbounded++;
      if (c === '{') i = source.indexOf('}', i);
      if (source[i + 1] === '?') i++; // lazy
    }
    if (quantifier) {
      if (lastGroupRisky) return 'a quantified group that holds a quantifier or an alternation';
      if (groups.length !== 0) groups[groups.length - 1] = true;
    }
    lastGroupRisky = c === ')' ? risky : false;
  }
  if (!linearTime && unbounded > 2) return 'more than two unbounded quantifiers';
  return null;
}

/** Compiles a rule's pattern (see the header). Throws OptionTypeError / OptionRangeError naming `path`. */
function compile(path: string, value: unknown): RegExp {
  const source = string(path, value);
  if (source.length === 0 || source.length > MAX_PATTERN) {
    throw new OptionRangeError(path, `${path} must be a regular expression of 1 to ${MAX_PATTERN} characters, received ${describe(source)}`);
  }
  const unsafe = unsafePattern(source);
  if (unsafe !== null) throw new OptionRangeError(path, `${path} must match in linear time, but ${describe(source)} has ${unsafe}`);
  try {
    return new RegExp(source, linearEngine() ? 'l' : '');
  } catch (e) {
    throw new OptionRangeError(path, `${path} must be a regular expression (JavaScript syntax): ${(e as Error).message}`);
  }
}

/** Validates the `allow` option. Throws OptionTypeError / OptionRangeError naming the rule. */
export function resolveAllow(value: unknown): readonly ResolvedAllowRule[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new OptionTypeError('options.allow', `options.allow must be an array of rules, received ${describe(value)}`);
  if (value.length > MAX_ALLOW_RULES) throw new OptionRangeError('options.allow', `options.allow must be an array of at most ${MAX_ALLOW_RULES} rules, received ${describe(value)}`);
  return Object.freeze(
    value.map((v: unknown, i) => {
      const path = `options.allow[${i}]`;
      const r = record(path, v);
      knownKeys(path, r, RULE_KEYS);
      if (r.tool === undefined && r.command === undefined) throw new OptionTypeError(path, `${path} must be a rule naming a tool, a command, or both, received an empty rule`);
      const tool = r.tool === undefined ? undefined : string(`${path}.tool`, r.tool);
      if (tool === '') throw new OptionRangeError(`${path}.tool`, `${path}.tool must be a non-empty string, received ${describe(tool)}`);
      return Object.freeze({ tool, command: r.command === undefined ? undefined : compile(`${path}.command`, r.command) });
    }),
  );
}

/**
 * The call's command as patterns see it (its head), or undefined when its args have none. Only `command`,
 * as `allow` is documented; workspace-changes.ts's commandText also reads `cmd` (Codex) for its own tests.
 */
export function commandText(args: unknown): string | undefined {
  const a = EncodedArgs.is(args) ? args.value() : parseArgs(args);
  if (typeof a !== 'object' || a === null || Array.isArray(a)) return undefined;
  const c = (a as { command?: unknown }).command;
  const text = typeof c === 'string' ? c : Array.isArray(c) && c.every((x) => typeof x === 'string') ? c.join(' ') : undefined;
  return text === undefined ? undefined : text.slice(0, MAX_COMMAND_TEXT);
}

/** Whether a call of `tool` with `args` is allowed to repeat by one of `rules`. */
export function allowedToRepeat(rules: readonly ResolvedAllowRule[], tool: string, args: unknown): boolean {
  let command: string | undefined | null = null; // null: not read yet
  for (const r of rules) {
    if (r.tool !== undefined && r.tool !== tool) continue;
    if (r.command === undefined) return true;
    if (command === null) command = commandText(args);
    if (command !== undefined && r.command.test(command)) return true;
  }
  return false;
}
