// The lines a shell's startup prints ahead of a command's output: the twin of shellNoiseEnd in
// src/text/shell-noise.ts (the startup files, the `ps` line, nvm's line and ssh-add's lines must match it). At most
// MAX_NOISE_LINES leading lines, within the first NOISE_LOOK bytes, each matched whole.

const MAX_NOISE_LINES: u32 = 4;
const NOISE_LOOK: u32 = 1024;
const NOISE_WORD: u32 = 256;

const STARTUP_FILES: StaticArray<string> = [
  '.profile', '.bashrc', '.bash_profile', '.bash_login', '.zshrc', '.zprofile', '.zshenv', '.zlogin', 'profile', 'bashrc', 'bash.bashrc',
];
const PS = '/bin/ps: Operation not permitted';
const NODE = 'Now using node v';
const NPM = ' (npm v';
const LINE = ' line ';
const IDENTITY = 'Identity added: ';
const CERTIFICATE = 'Certificate added: ';
const NO_AGENT = 'Error connecting to agent: ';
const NO_CONNECTION = 'Could not open a connection to your authentication agent.';

// @ts-ignore: decorator
@inline function isSpace(b: u32): bool {
  return b == 0x20 || (b >= 0x09 && b <= 0x0d);
}

// @ts-ignore: decorator
@inline function isDigit(b: u32): bool {
  return b >= 0x30 && b <= 0x39;
}

/** Whether bytes [p + at, p + end) equal `s` (ASCII). */
function equalAt(p: usize, at: u32, end: u32, s: string): bool {
  if (end < at || end - at != <u32>s.length) return false;
  for (let k = 0; k < s.length; k++) if (<u32>load<u8>(p + at + <u32>k) != <u32>s.charCodeAt(k)) return false;
  return true;
}

/** Where a version (digits, then dot-digits groups) starting at `i` ends, or -1 when none starts there. */
function versionEnd(p: usize, i: u32, end: u32): i64 {
  if (i >= end || !isDigit(<u32>load<u8>(p + i))) return -1;
  while (i < end && isDigit(<u32>load<u8>(p + i))) i++;
  while (i + 1 < end && load<u8>(p + i) == 0x2e && isDigit(<u32>load<u8>(p + i + 1))) {
    i++;
    while (i < end && isDigit(<u32>load<u8>(p + i))) i++;
  }
  return <i64>i;
}

/** The length of the ssh-add prefix [p + at, p + end) begins with, or 0. */
function sshAddedPrefix(p: usize, at: u32, end: u32): u32 {
  const i = <u32>IDENTITY.length;
  if (equalAt(p, at, at + i < end ? at + i : end, IDENTITY)) return i;
  const c = <u32>CERTIFICATE.length;
  if (equalAt(p, at, at + c < end ? at + c : end, CERTIFICATE)) return c;
  return 0;
}

/** Whether [p + at, p + end) begins with one of ssh-add's lines when it reaches no agent (their first bytes). */
function noAgentPrefix(p: usize, at: u32, end: u32): bool {
  const a = at + <u32>NO_AGENT.length;
  const c = at + <u32>NO_CONNECTION.length;
  return equalAt(p, at, a < end ? a : end, NO_AGENT) || equalAt(p, at, c < end ? c : end, NO_CONNECTION);
}

/** Whether the line [p + at, p + cut) (no newline, a final carriage return cut) is one of ssh-add's lines when it reaches no agent. */
function noAgentLine(p: usize, at: u32, cut: u32): bool {
  if (equalAt(p, at, cut, NO_CONNECTION)) return true;
  const r = at + <u32>NO_AGENT.length;
  return r < cut && equalAt(p, at, r, NO_AGENT) && !isSpace(<u32>load<u8>(p + r));
}

/** Whether [p + from, p + cut) is at least one byte, ` (`, any bytes, `)`: ssh-add's `<path> (<comment>)`. */
function pathAndComment(p: usize, from: u32, cut: u32): bool {
  if (cut <= from || load<u8>(p + cut - 1) != 0x29) return false;
  for (let k = from + 1; k + 2 < cut; k++) if (load<u8>(p + k) == 0x20 && load<u8>(p + k + 1) == 0x28) return true;
  return false;
}

/** Whether the line [p + at, p + end) (no newline) is a shell-startup line. */
function noiseLine(p: usize, at: u32, end: u32): bool {
  const cut = end > at && load<u8>(p + end - 1) == 0x0d ? end - 1 : end;
  const nodeLen = <u32>NODE.length;
  if (cut - at >= nodeLen && equalAt(p, at, at + nodeLen, NODE)) {
    const v = versionEnd(p, at + nodeLen, cut);
    if (v < 0) return false;
    const vu = <u32>v;
    const npmEnd = vu + <u32>NPM.length < cut ? vu + <u32>NPM.length : cut;
    if (!equalAt(p, vu, npmEnd, NPM)) return false;
    const w = versionEnd(p, vu + <u32>NPM.length, cut);
    return w >= 0 && <u32>w + 1 == cut && load<u8>(p + <u32>w) == 0x29;
  }
  const ssh = sshAddedPrefix(p, at, cut);
  if (ssh > 0) return pathAndComment(p, at + ssh, cut);
  if (noAgentPrefix(p, at, end)) return noAgentLine(p, at, cut);
  // `<path>: line <n>: <message>`: the path runs to the first white space, its last byte the colon
  const ws = spaceFrom(p, at, cut);
  const lineLen = <u32>LINE.length;
  if (ws - at < 2 || load<u8>(p + ws - 1) != 0x3a || !equalAt(p, ws, ws + lineLen < cut ? ws + lineLen : cut, LINE)) return false;
  let d = ws + lineLen;
  if (d >= cut || !isDigit(<u32>load<u8>(p + d))) return false;
  while (d < cut && isDigit(<u32>load<u8>(p + d))) d++;
  if (d + 1 >= cut || load<u8>(p + d) != 0x3a || load<u8>(p + d + 1) != 0x20) return false;
  if (equalAt(p, d + 2, cut, PS)) return true;
  let base = ws - 1;
  while (base > at && load<u8>(p + base - 1) != 0x2f) base--;
  for (let f = 0; f < STARTUP_FILES.length; f++) if (equalAt(p, base, ws - 1, unchecked(STARTUP_FILES[f]))) return true;
  return false;
}

/** The first ASCII white space byte in [p + at, p + cap), or cap: sixteen bytes at a time while they lie before cap. */
function spaceFrom(p: usize, at: u32, cap: u32): u32 {
  let ws = at;
  while (ws + 16 <= cap) {
    const v = v128.load(p + ws);
    // 0x20, or 0x09-0x0d
    const m = <u32>i8x16.bitmask(v128.or(i8x16.eq(v, i8x16.splat(0x20)), i8x16.lt_u(i8x16.sub(v, i8x16.splat(0x09)), i8x16.splat(5))));
    if (m != 0) return ws + ctz<u32>(m);
    ws += 16;
  }
  while (ws < cap && !isSpace(<u32>load<u8>(p + ws))) ws++;
  return ws;
}

/** The first line feed in [p + at, p + look), or look: sixteen bytes at a time while they lie before look. */
function lineEndFrom(p: usize, at: u32, look: u32): u32 {
  let end = at;
  while (end + 16 <= look) {
    const m = <u32>i8x16.bitmask(i8x16.eq(v128.load(p + end), i8x16.splat(0x0a)));
    if (m != 0) return end + ctz<u32>(m);
    end += 16;
  }
  while (end < look && load<u8>(p + end) != 0x0a) end++;
  return end;
}

/** Whether the line at `at` may be noise, from its first bytes (nvm's first word, ssh-add's prefixes, or a path, a colon, ` line `). */
function mayBeNoise(p: usize, at: u32, look: u32): bool {
  if (load<u8>(p + at) == 0x4e || sshAddedPrefix(p, at, look) > 0 || noAgentPrefix(p, at, look)) return true;
  const cap = at + NOISE_WORD < look ? at + NOISE_WORD : look;
  const ws = spaceFrom(p, at, cap);
  const lineEnd = ws + <u32>LINE.length < look ? ws + <u32>LINE.length : look;
  return ws < cap && ws - at >= 2 && load<u8>(p + ws - 1) == 0x3a && equalAt(p, ws, lineEnd, LINE);
}

/** Where the shell-startup lines UTF-8 text [p, p + len) begins with end (0: none). */
export function shellNoiseEnd(p: usize, len: u32): u32 {
  const look = len < NOISE_LOOK ? len : NOISE_LOOK;
  let at: u32 = 0;
  for (let n: u32 = 0; n < MAX_NOISE_LINES && at < look; n++) {
    if (!mayBeNoise(p, at, look)) break;
    const end = lineEndFrom(p, at, look);
    if (end == look && look < len) break; // the line goes on past the bytes read
    if (!noiseLine(p, at, end)) break;
    at = end < len ? end + 1 : end;
  }
  return at;
}
