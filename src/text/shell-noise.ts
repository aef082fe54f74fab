/**
 * Lines a shell prints ahead of every command's own output, from the person's startup files rather than
 * the command: a profile script whose `ps` a sandbox forbids (Homebrew's `shellenv.sh` under Codex CLI on
 * macOS: "/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted"),
 * a startup file that fails under the shell that reads it (a zsh `.profile` sourced by `bash -lc`:
 * "/Users/me/.profile: line 6: compdef: command not found"), nvm switching versions ("Now using node
 * v18.20.5 (npm v10.8.2)"), ssh-add run by a startup file ("Identity added: /home/u/.ssh/id_ed25519 (user@host)",
 * "Certificate added: <path> (<key id>)": OpenSSH's ssh-add prints `<path> (<comment>)`, the comment the path
 * when the key has none), and ssh-add run so without an agent to reach ("Error connecting to agent: Operation not
 * permitted", where a sandbox forbids the agent's socket; OpenSSH before 8.9: "Could not open a connection to your
 * authentication agent."). They say nothing about the command: a search that found nothing, after them,
 * still said nothing, and a listing after them found what it lists (their "not found" is the profile's).
 *
 * Only leading lines are dropped (at most {@link MAX_NOISE_LINES}, within the first
 * {@link NOISE_LOOK} bytes), each matched whole; a line like them further down is the command's own.
 * {@link withoutShellNoise} reads a string; {@link shellNoiseEnd} reads UTF-8 bytes and is what both
 * engines run before reading a result ("nothing found": assembly/shell-noise.ts is its twin).
 */
import { anyPattern } from './any-pattern.js';

/** Leading lines dropped at most. */
export const MAX_NOISE_LINES = 4;

/** Bytes of a result within which its leading noise lines must end (bounds the bytes read). */
export const NOISE_LOOK = 1024;

/** The startup files a shell reads (the name after the path's last `/`), whose errors lead every output. */
export const STARTUP_FILES: readonly string[] = Object.freeze([
  '.profile', '.bashrc', '.bash_profile', '.bash_login', '.zshrc', '.zprofile', '.zshenv', '.zlogin', 'profile', 'bashrc', 'bash.bashrc',
]);

const STARTUP_NAME = STARTUP_FILES.map((f) => f.replaceAll('.', '\\.')).join('|');

/** Whole lines a shell's startup prints before each command's output. */
export const SHELL_NOISE_PATTERNS: readonly RegExp[] = Object.freeze([
  /^\S+: line \d+: \/bin\/ps: Operation not permitted\r?$/,
  new RegExp(`^(?:\\S*/)?(?:${STARTUP_NAME}): line \\d+: [^\\n]*$`),
  /^Now using node v\d+(?:\.\d+)* \(npm v\d+(?:\.\d+)*\)\r?$/,
  // the lookahead finds the last ` (` once (no nested backtracking), then the line must end in `)`
  /^(?:Identity|Certificate) added: (?=[^\n]+ \()[^\n]*\)\r?$/,
  // ssh-add's reason (ssh_err's text) begins with a byte that is not ASCII white space
  /^Error connecting to agent: [^\t-\r ][^\n]*$/,
  /^Could not open a connection to your authentication agent\.\r?$/,
]);

/** SHELL_NOISE_PATTERNS asked as one (any-pattern.ts). */
const noiseSays = anyPattern(SHELL_NOISE_PATTERNS);

/** Character codes of the letters a line of SHELL_NOISE_PATTERNS without `: line ` begins with: N(ow), I(dentity), C(ertificate, ould), E(rror). */
const N = 0x4e;
const I = 0x49;
const C = 0x43;
const E = 0x45;

/**
 * Whether a line may be one of SHELL_NOISE_PATTERNS: the two startup-file lines hold `: line `, the others
 * begin with N, I, C or E. Most first lines of an output are neither: they skip the six expressions (a
 * failed call's error is read so up to four times: failure-kinds.ts, missing-program.ts, partial-listing.ts).
 */
function mayBeNoiseText(line: string): boolean {
  const c = line.charCodeAt(0);
  return c === N || c === I || c === C || c === E || line.includes(': line ');
}

/** `text` without the shell-startup lines it begins with. */
export function withoutShellNoise(text: string): string {
  let at = 0;
  for (let n = 0; n < MAX_NOISE_LINES; n++) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end === -1 ? text.length : end);
    if (!mayBeNoiseText(line) || !noiseSays(line)) break;
    at = end === -1 ? text.length : end + 1;
  }
  return at === 0 ? text : text.slice(at);
}

const ascii = new TextEncoder();
const STARTUP_BYTES = STARTUP_FILES.map((f) => ascii.encode(f));
const PS = ascii.encode('/bin/ps: Operation not permitted');
const NODE = ascii.encode('Now using node v');
const NPM = ascii.encode(' (npm v');
const LINE = ascii.encode(' line ');
/** ssh-add's lines: the prefixes, then `<path> (<comment>)`. */
const SSH_ADDED = [ascii.encode('Identity added: '), ascii.encode('Certificate added: ')];
/** ssh-add's lines when it reaches no agent: the prefix of one with a reason, the other whole. */
const NO_AGENT = ascii.encode('Error connecting to agent: ');
const NO_CONNECTION = ascii.encode('Could not open a connection to your authentication agent.');

const isSpace = (b: number): boolean => b === 0x20 || (b >= 0x09 && b <= 0x0d);
const isDigit = (b: number): boolean => b >= 0x30 && b <= 0x39;

/** Whether `bytes[at, end)` equals `s`. */
function equalAt(bytes: Uint8Array, at: number, end: number, s: Uint8Array): boolean {
  if (end - at !== s.length) return false;
  for (let k = 0; k < s.length; k++) if (bytes[at + k] !== s[k]) return false;
  return true;
}

/** Where a version `\d+(?:\.\d+)*` starting at `i` ends, or -1 when none starts there. */
function versionEnd(bytes: Uint8Array, i: number, end: number): number {
  if (i >= end || !isDigit(bytes[i] as number)) return -1;
  while (i < end && isDigit(bytes[i] as number)) i++;
  while (i + 1 < end && bytes[i] === 0x2e && isDigit(bytes[i + 1] as number)) {
    i++;
    while (i < end && isDigit(bytes[i] as number)) i++;
  }
  return i;
}

/** The length of the ssh-add prefix `bytes[at, end)` begins with, or 0. */
function sshAddedPrefix(bytes: Uint8Array, at: number, end: number): number {
  for (const s of SSH_ADDED) if (equalAt(bytes, at, Math.min(at + s.length, end), s)) return s.length;
  return 0;
}

/** Whether `bytes[at, end)` begins with one of ssh-add's lines when it reaches no agent (their first bytes). */
function noAgentPrefix(bytes: Uint8Array, at: number, end: number): boolean {
  return equalAt(bytes, at, Math.min(at + NO_AGENT.length, end), NO_AGENT) || equalAt(bytes, at, Math.min(at + NO_CONNECTION.length, end), NO_CONNECTION);
}

/** Whether the line `bytes[at, cut)` (no `\n`, a final `\r` cut) is one of ssh-add's lines when it reaches no agent. */
function noAgentLine(bytes: Uint8Array, at: number, cut: number): boolean {
  if (equalAt(bytes, at, cut, NO_CONNECTION)) return true;
  const r = at + NO_AGENT.length;
  return r < cut && equalAt(bytes, at, r, NO_AGENT) && !isSpace(bytes[r] as number);
}

/** Whether `bytes[from, cut)` is `<at least one byte> (<any bytes>)`: ssh-add's `<path> (<comment>)`. */
function pathAndComment(bytes: Uint8Array, from: number, cut: number): boolean {
  if (cut <= from || bytes[cut - 1] !== 0x29) return false;
  for (let k = from + 1; k + 2 < cut; k++) if (bytes[k] === 0x20 && bytes[k + 1] === 0x28) return true;
  return false;
}

/** Whether the line `bytes[at, end)` (no `\n`) is one of SHELL_NOISE_PATTERNS. */
function noiseLine(bytes: Uint8Array, at: number, end: number): boolean {
  const cut = end > at && bytes[end - 1] === 0x0d ? end - 1 : end;
  if (cut - at >= NODE.length && equalAt(bytes, at, at + NODE.length, NODE)) {
    const v = versionEnd(bytes, at + NODE.length, cut);
    if (v < 0 || !equalAt(bytes, v, Math.min(v + NPM.length, cut), NPM)) return false;
    const w = versionEnd(bytes, v + NPM.length, cut);
    return w >= 0 && w + 1 === cut && bytes[w] === 0x29;
  }
  const ssh = sshAddedPrefix(bytes, at, cut);
  if (ssh > 0) return pathAndComment(bytes, at + ssh, cut);
  if (noAgentPrefix(bytes, at, end)) return noAgentLine(bytes, at, cut);
  // `<path>: line <n>: <message>`: the path runs to the first white space, its last byte the colon
  let ws = at;
  while (ws < cut && !isSpace(bytes[ws] as number)) ws++;
  if (ws - at < 2 || bytes[ws - 1] !== 0x3a || !equalAt(bytes, ws, Math.min(ws + LINE.length, cut), LINE)) return false;
  let d = ws + LINE.length;
  if (d >= cut || !isDigit(bytes[d] as number)) return false;
  while (d < cut && isDigit(bytes[d] as number)) d++;
  if (d + 1 >= cut || bytes[d] !== 0x3a || bytes[d + 1] !== 0x20) return false;
  if (equalAt(bytes, d + 2, cut, PS)) return true;
  let base = ws - 1;
  while (base > at && bytes[base - 1] !== 0x2f) base--;
  for (const f of STARTUP_BYTES) if (equalAt(bytes, base, ws - 1, f)) return true;
  return false;
}

/** Bytes of a line's first word (a startup file's path and its colon) read at most before it is taken for none. */
export const NOISE_WORD = 256;

/**
 * Whether the line at `at` may be noise, from its first bytes: nvm's first word, ssh-add's prefixes, or a first word of at
 * most {@link NOISE_WORD} bytes ending in a colon followed by ` line ` (most outputs are rejected here,
 * without looking for the line's end).
 */
function mayBeNoise(bytes: Uint8Array, at: number, look: number): boolean {
  if (bytes[at] === 0x4e || sshAddedPrefix(bytes, at, look) > 0 || noAgentPrefix(bytes, at, look)) return true;
  const cap = Math.min(look, at + NOISE_WORD);
  let ws = at;
  while (ws < cap && !isSpace(bytes[ws] as number)) ws++;
  return ws < cap && ws - at >= 2 && bytes[ws - 1] === 0x3a && equalAt(bytes, ws, Math.min(ws + LINE.length, look), LINE);
}

/**
 * Where the shell-startup lines UTF-8 text `bytes[0, len)` begins with end (0 when it begins with none):
 * the bytes withoutShellNoise would drop, read over the first {@link NOISE_LOOK} bytes (a path of more than
 * {@link NOISE_WORD} bytes is taken for none).
 */
export function shellNoiseEnd(bytes: Uint8Array, len: number): number {
  const look = len < NOISE_LOOK ? len : NOISE_LOOK;
  let at = 0;
  for (let n = 0; n < MAX_NOISE_LINES && at < look; n++) {
    if (!mayBeNoise(bytes, at, look)) break;
    let end = at;
    while (end < look && bytes[end] !== 0x0a) end++;
    if (end === look && look < len) break; // the line goes on past the bytes read
    if (!noiseLine(bytes, at, end)) break;
    at = end < len ? end + 1 : end;
  }
  return at;
}
