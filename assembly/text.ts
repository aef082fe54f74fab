// Action text collection for the semantic detector: the tool name, then "\n" + each collected string, cut
// at maxTextLength bytes (the cut backs off over a partial character). Twin of src/text/action-text.ts.
import { MAX_TEXT_NODES } from './abi';

let buf: usize = 0;
let len: u32 = 0;
let cap: u32 = 0;
let on: bool = false;
let nodes: u32 = 0;
let suspended: u32 = 0;

/** Starts collecting into `ptr` (room for maxBytes + 1 bytes) with the tool name first. */
export function textStart(ptr: usize, maxBytes: u32, toolPtr: usize, toolLen: u32, active: bool): void {
  buf = ptr;
  cap = maxBytes;
  len = 0;
  nodes = 0;
  suspended = 0;
  on = active;
  if (active) appendRaw(toolPtr, toolLen);
}

function appendRaw(p: usize, n: u32): void {
  const room = cap + 1 - len;
  const take = n < room ? n : room;
  memory.copy(buf + len, p, take);
  len += take;
  if (len > cap) on = false;
}

/** Counts one visited value; returns whether text is still collected. */
export function textNode(): bool {
  if (!on || suspended > 0) return false;
  if (nodes >= MAX_TEXT_NODES) {
    on = false;
    return false;
  }
  nodes++;
  return true;
}

/** Appends "\n" + a string value (call after textNode() returned true). */
export function textString(p: usize, n: u32): void {
  if (!on) return;
  store<u8>(buf + len, 0x0a);
  len++;
  if (len > cap) {
    on = false;
    return;
  }
  appendRaw(p, n);
}

/**
 * Appends more bytes of the string last given to textString (a string taken in pieces: json.ts). With the
 * option's cap (maxTextLength at most 10,000 bytes) a string's first piece (at least JSON_STRING_WINDOW - 32
 * bytes) has already filled the text; this keeps the text the whole string's whatever the cap.
 */
export function textMore(p: usize, n: u32): void {
  if (on) appendRaw(p, n);
}

/** Enters / leaves a part of the value that contributes no text (an ignored member). */
export function textSuspend(): void {
  suspended++;
}
export function textResume(): void {
  suspended--;
}

/** Replaces everything after the tool with "\n" + bytes (a description, or args that are a plain string). */
export function textReplace(toolLen: u32, p: usize, n: u32, active: bool): void {
  on = active;
  if (!active) return;
  len = toolLen < cap + 1 ? toolLen : cap + 1;
  nodes = 0;
  suspended = 0;
  if (len > cap) {
    on = false;
    return;
  }
  textString(p, n);
}

/** The collected text's length after the cut at maxBytes (never splitting a character). */
export function textFinish(): u32 {
  if (len <= cap) return len;
  let n = cap;
  while (n > 0 && (<u32>load<u8>(buf + n) & 0xc0) == 0x80) n--;
  return n;
}

export function textBuffer(): usize {
  return buf;
}
