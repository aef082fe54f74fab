/**
 * A project's allowlist for the hooks: `.loopwatch.json` in the agent's working directory (the payload's
 * `cwd`) or a folder above it, up to the git root (the folder holding `.git`); outside a git repository,
 * in the working directory only. The nearest file is used:
 *
 * ```json
 * { "allow": [{ "tool": "Bash", "command": "^npx tsc --noEmit$" }, { "command": "^npm (run )?test\\b" }] }
 * ```
 *
 * The rules are the `allow` option's (src/options/allow-rules.ts). The file is untrusted input: it is read
 * only when it is a regular file of at most MAX_ALLOWLIST_BYTES owned by the user or root (a file another
 * user planted in a shared folder is not) that no other user may write (mode o+w), all of it checked on the
 * descriptor read (a file renamed over the path after its look is judged as what is read), and a file that cannot be used (not JSON, another shape, a rule
 * refused) is ignored: the calls are checked without it, and the user is told once per version of the
 * file (a marker in the state directory's `.noted/`). A rule too broad (covering-rules.ts: every command
 * of a shell tool, a pattern or rules together matching many unrelated commands, every call of one of the
 * agent's own tools) is dropped, the file's other rules kept, and a file in use is told the same way, once
 * per version: its path, the rules used, the rules dropped, and how the user may accept them (the `allow`
 * of their own `--config`, which a project file cannot write).
 *
 * Rules that pass those checks are still not used until the user accepts the file: one version of one file,
 * by `loopwatch hook trust FILE` (accepted-allowlists.ts), as direnv's `allow` does for `.envrc`. The seed
 * of the probes is public, and rules written to miss them (`^npm\b`, `^pytest\b`, `^git\b`, ... one per
 * command an agent runs) or a tool-only rule for an MCP tool silence the loops an agent makes the most; only
 * the user can tell a project's own narrow rules from those. Until then the calls are checked without the
 * file, and the user is told once per version of it what it would allow and the command that accepts it.
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { AllowRule } from '../options/allow-rules.js';
import { resolveAllow } from '../options/allow-rules.js';
import { refusedRules } from '../options/covering-rules.js';
import { cutText } from '../text/shown-text.js';
import { isAccepted } from './accepted-allowlists.js';
import { shellQuote } from '../text/shell-quote.js';
import { userId } from './private-path.js';
import { toldBefore } from './told-once.js';

/** The allowlist's file name. */
export const ALLOWLIST_FILE = '.loopwatch.json';
/** Largest allowlist file read, in bytes. */
export const MAX_ALLOWLIST_BYTES = 64 * 1024;
/** Folders looked at above the working directory, at most. */
const MAX_LEVELS = 64;

/** A project's allowlist: its rules (none when there is no usable file), and what to tell the user once. */
export interface ProjectAllowlist {
  readonly rules: readonly AllowRule[];
  /** The file, when one was found. */
  readonly path?: string;
  /** That the file is in use (or why it, or some of its rules, are not), said once per version of the file; undefined otherwise. */
  readonly notice?: string;
}

const NONE: ProjectAllowlist = Object.freeze({ rules: [] });

/** The folders whose `.loopwatch.json` counts for `cwd`, nearest first (see the header). */
export function allowlistFolders(cwd: string): string[] {
  const up: string[] = [];
  for (let dir = cwd, n = 0; n < MAX_LEVELS; n++) {
    up.push(dir);
    if (existsSync(join(dir, '.git'))) return up;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return [cwd];
}

/** How {@link projectAllowlist} and {@link readRules} go about it (tests only). */
export interface AllowlistSeams {
  /** Called between the look at the path and the file's opening (a test swaps the file there). */
  readonly checked?: () => void;
}

/** Whether a file of owner `uid` may be the user's allowlist: the user's own or root's (process uid unknown: yes). */
export function ownAllowlistOwner(uid: number): boolean {
  const me = userId();
  return me === null || uid === me || uid === 0;
}

/**
 * Why the file `st` describes cannot be the user's allowlist, or undefined when it can: it must be a
 * regular file of at most MAX_ALLOWLIST_BYTES, owned by the user or root, that other users cannot write.
 */
export function allowlistFileProblem(st: { isFile(): boolean; size: number; uid: number; mode: number }): string | undefined {
  if (!st.isFile()) return 'it is not a regular file';
  if (!ownAllowlistOwner(st.uid)) return `it is owned by uid ${st.uid}, not by you`;
  if ((st.mode & 0o002) !== 0) return 'any user may write to it (mode o+w)';
  if (st.size > MAX_ALLOWLIST_BYTES) return `it is ${st.size} bytes, more than ${MAX_ALLOWLIST_BYTES}`;
  return undefined;
}

/**
 * The text of the allowlist file at `path`, read through one descriptor opened without blocking (a FIFO
 * swapped in after the stat cannot hang the hook) and judged on that descriptor ({@link allowlistFileProblem}):
 * a file of another user, or one others may write, renamed over the path after its look, is refused.
 */
function readText(path: string, seams: AllowlistSeams): string {
  seams.checked?.();
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  try {
    const st = fstatSync(fd);
    const problem = allowlistFileProblem(st);
    if (problem !== undefined) throw new Error(problem);
    const buf = Buffer.alloc(st.size);
    return buf.toString('utf8', 0, readSync(fd, buf, 0, st.size, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * Why JSON.parse refused a text, without the text: V8 quotes a piece of it (`Unexpected token 'd',
 * "[default]\na"... is not valid JSON`), and a `.loopwatch.json` that links to another file (a cloned
 * project's link to `~/.aws/credentials`) would have shown the user's notice, and its log, a piece of that file.
 */
function jsonProblem(e: unknown): string {
  const at = /position (\d+)/.exec((e as Error).message);
  return at === null ? 'not JSON' : `not JSON (at character ${at[1]})`;
}

/** An allowlist file's rules: those used (and each shown), what was said of each one dropped, and the text read. */
export interface FileRules {
  readonly rules: readonly AllowRule[];
  readonly shown: readonly string[];
  readonly dropped: readonly string[];
  readonly text: string;
}

/** Reads and checks an allowlist file, dropping its catch-all rules; throws an Error saying why it cannot be used. */
export function readRules(path: string, size: number, seams: AllowlistSeams = {}): FileRules {
  if (size > MAX_ALLOWLIST_BYTES) throw new Error(`it is ${size} bytes, more than ${MAX_ALLOWLIST_BYTES}`);
  const text = readText(path, seams);
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new Error(jsonProblem(e));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('it must hold a JSON object: {"allow": [rules]}');
  const { allow, ...rest } = value as Record<string, unknown>;
  const stray = Object.keys(rest)[0];
  if (stray !== undefined) throw new Error(`"${cutText(stray, 40)}" is not a key it may hold (only "allow")`);
  const resolved = resolveAllow(allow); // refuses an unsafe or malformed rule, naming it
  const refused = new Map(refusedRules(resolved).map((r) => [r.index, r.why]));
  const rules: AllowRule[] = [];
  const shown: string[] = [];
  const dropped: string[] = [];
  ((allow ?? []) as readonly AllowRule[]).forEach((rule, i) => {
    const why = refused.get(i);
    const named = `allow[${i}] ${cutText(JSON.stringify(rule), 60)}`;
    if (why === undefined) {
      rules.push(rule);
      shown.push(named);
    } else dropped.push(`${named} (${why})`);
  });
  return { rules, shown, dropped, text };
}

/** The path an allowlist is accepted under: its real path (the agent's `cwd` and the user's may name it through links). */
export function acceptedPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The first three of `items`, joined, and how many more. */
function firstThree(items: readonly string[]): string {
  return `${items.slice(0, 3).join('; ')}${items.length > 3 ? ` and ${items.length - 3} more` : ''}`;
}

/** What to tell the user of a file whose rules are not used until they accept it (see the header). */
function notAcceptedNotice(path: string, read: FileRules): string {
  const n = read.rules.length;
  const refused = read.dropped.length === 0 ? '' : `; refused as too broad even then: ${firstThree(read.dropped)}`;
  return `loopwatch: ${path} is not used until you accept it: its ${n} rule${n === 1 ? '' : 's'} would let calls repeat without a warning (${firstThree(read.shown)})${refused}; if you trust this project, run: loopwatch hook trust ${shellQuote(path)}`;
}

/** What to tell the user of a file read (`read`): that it is in use, and the rules refused; undefined when it has nothing. */
function usedNotice(path: string, read: FileRules): string | undefined {
  const n = read.rules.length;
  const { dropped } = read;
  if (n === 0 && dropped.length === 0) return undefined;
  const refused = dropped.length === 0 ? '' : `refused as too broad: ${firstThree(dropped)} (to allow these anyway, copy them to the "allow" of your own --config file)`;
  if (n === 0) return `loopwatch: ${path} is not used (${refused}); calls are checked without its allowlist`;
  const used = `loopwatch: ${path} is in use: ${n} rule${n === 1 ? '' : 's'} let${n === 1 ? 's' : ''} calls repeat without a warning`;
  return refused === '' ? used : `${used}; ${refused}`;
}

/** Whether `why` about the file at `path` (as `st` says it is now) has been told already; remembers it if not. */
function toldOnce(stateDir: string, path: string, st: { size: number; mtimeMs: number }, why: string): boolean {
  return toldBefore(stateDir, `${path}\n${st.size}\n${st.mtimeMs}\n${why}`);
}

/** The allowlist for a hook payload's `cwd` (see the header), the accepted files found from `env`; never throws. */
export function projectAllowlist(cwd: unknown, stateDir: string, env: NodeJS.ProcessEnv = process.env, seams: AllowlistSeams = {}): ProjectAllowlist {
  if (typeof cwd !== 'string' || cwd.length > 4096 || !isAbsolute(cwd)) return NONE;
  for (const dir of allowlistFolders(cwd)) {
    const path = join(dir, ALLOWLIST_FILE);
    let st;
    try {
      st = statSync(path);
    } catch {
      continue;
    }
    if (!st.isFile() || !ownAllowlistOwner(st.uid)) continue;
    let read: FileRules;
    try {
      read = readRules(path, st.size, seams);
    } catch (e) {
      const why = (e as Error).message;
      return toldOnce(stateDir, path, st, why) ? { rules: [], path } : { rules: [], path, notice: `loopwatch: ${path} is not used (${why}); calls are checked without its allowlist` };
    }
    if (read.rules.length !== 0 && !isAccepted(acceptedPath(path), read.text, env)) {
      const notice = notAcceptedNotice(path, read);
      return toldOnce(stateDir, path, st, notice) ? { rules: [], path } : { rules: [], path, notice };
    }
    const notice = usedNotice(path, read);
    return notice === undefined || toldOnce(stateDir, path, st, notice) ? { rules: read.rules, path } : { rules: read.rules, path, notice };
  }
  return NONE;
}
