// One line of the loopwatch events format (JSON Lines), read without building values: checks that the line
// is one JSON object that `JSON.parse` takes as it is (RFC 8259: strings, numbers, literals, nesting), and
// notes where the values of the top-level members the events reader reads begin and end, so the host
// makes strings only of those (src/formats/event-line.ts). Lines this reader does not take exactly as the
// host would are handed back (status LINE_HOST), never guessed at: any byte outside ASCII (the host's
// UTF-8 decoding decides those), a key with an escape at the top level, a member named twice, nesting
// deeper than the limit, and anything that is not valid JSON (the host's parser words the error).
//
//   field table: LINE_FIELDS entries of [kind | start | end | escaped] (u32 each); start and end are byte
//   offsets into the line, a string's span includes its quotes
//
// As it reads the value of `args`, it also notes the args object's own members the outcome facts read
// (`command`, `cmd`, the target fields, `input`, `patch`: AF_ entries, the last of a name as JSON.parse
// takes it; a container's span is not noted, only its kind), and whether any of its keys held an escape
// (AF_KEY_ESCAPED: such a key may spell one of those names, so the host reads the args whole).
//
// Nothing here touches session state.

import { AF_CMD, AF_COMMAND, AF_FILE, AF_FILE_PATH, AF_FILE_PATH_CAMEL, AF_FILENAME, AF_INPUT, AF_KEY_ESCAPED, AF_NOTEBOOK_PATH, AF_PATCH, AF_PATH, AF_TARGET_FILE, K_ABSENT, K_ARRAY, K_FALSE, K_NULL, K_NUMBER, K_OBJECT, K_STRING, K_TRUE, LF_ARGS, LF_CONVERSATION_ID, LF_DESCRIPTION, LF_ERROR, LF_ID, LF_RESULT, LF_ROUND, LF_SESSION, LF_STEP, LF_TEXT, LF_TOOL, LF_TRAJECTORY, LINE_FIELDS, LINE_HOST, LINE_OK } from './abi';

const ENTRY: u32 = 4;

const table: usize = memory.data(LINE_FIELDS * ENTRY * 4, 16);
/** Containers open below the top-level object: 1 for an object, 2 for an array. */
const STACK_CAP: u32 = 1024;
const stack: usize = memory.data(STACK_CAP, 16);

let P: usize = 0;
let E: usize = 0;
/** Whether the last string read held a backslash escape. */
let escaped: bool = false;
/** Whether the value being read is the record's args (its own members are noted). */
let noting: bool = false;
/** The AF_ entry of the args member whose value is due, or -1. */
let member: i32 = -1;
/** Where the line begins (the table's offsets are from there). */
let LINE: usize = 0;

/** The field table's address. */
export function lineFields(): usize {
  return table;
}

// @ts-ignore: decorator
@inline function isWs(b: u32): bool {
  return b == 0x20 || b == 0x09 || b == 0x0a || b == 0x0d;
}

function skipWs(): void {
  while (P < E && isWs(<u32>load<u8>(P))) P++;
}

// @ts-ignore: decorator
@inline function isDigit(b: u32): bool {
  return b - 0x30 < 10;
}

function isHex(b: u32): bool {
  return b - 0x30 < 10 || (b | 0x20) - 0x61 < 6;
}

/** The length of the escape whose backslash is at `q` (2, or 6 for `\uXXXX`), or 0 when it is not a valid one. */
function escapeLength(q: usize): usize {
  if (q + 1 >= E) return 0;
  const c = <u32>load<u8>(q + 1);
  if (c == 0x75) {
    if (q + 6 > E) return 0;
    return isHex(<u32>load<u8>(q + 2)) && isHex(<u32>load<u8>(q + 3)) && isHex(<u32>load<u8>(q + 4)) && isHex(<u32>load<u8>(q + 5)) ? 6 : 0;
  }
  return c == 0x22 || c == 0x5c || c == 0x2f || c == 0x62 || c == 0x66 || c == 0x6e || c == 0x72 || c == 0x74 ? 2 : 0;
}

/** Reads a string whose opening quote is at P; false when it is not one this reader takes. */
function str(): bool {
  P++;
  escaped = false;
  const quote = i8x16.splat(0x22);
  const backslash = i8x16.splat(0x5c);
  const space = i8x16.splat(0x20);
  // sixteen bytes at a time: the quotes, backslashes, control characters and bytes outside ASCII among
  // them (signed: bytes from 0x80 are negative, so below 0x20 too) are taken in turn from one load
  while (P + 16 <= E) {
    const base = P;
    const v = v128.load(base);
    let special = <u32>i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)), i8x16.lt_s(v, space)));
    let next = base + 16;
    while (special != 0) {
      const q = base + <usize>ctz<u32>(special);
      const b = <u32>load<u8>(q);
      if (b == 0x22) {
        P = q + 1;
        return true;
      }
      if (b != 0x5c) return false;
      const n = escapeLength(q);
      if (n == 0) return false;
      escaped = true;
      const after = q + n;
      if (after >= next) {
        next = after;
        break;
      }
      // the escape's own bytes (an escaped quote or backslash among them) are not special
      special &= 0xffff << <u32>(after - base);
    }
    P = next;
  }
  while (P < E) {
    const b = <u32>load<u8>(P);
    if (b == 0x22) {
      P++;
      return true;
    }
    if (b == 0x5c) {
      const n = escapeLength(P);
      if (n == 0) return false;
      escaped = true;
      P += n;
      continue;
    }
    if (b < 0x20 || b >= 0x80) return false;
    P++;
  }
  return false;
}

/** Reads a number starting at P (RFC 8259 grammar); false when it is not one. */
function num(): bool {
  if (load<u8>(P) == 0x2d) P++;
  if (P >= E) return false;
  let b = <u32>load<u8>(P);
  if (b == 0x30) P++;
  else if (b - 0x31 < 9) {
    P++;
    while (P < E && isDigit(<u32>load<u8>(P))) P++;
  } else return false;
  if (P < E && load<u8>(P) == 0x2e) {
    P++;
    if (P >= E || !isDigit(<u32>load<u8>(P))) return false;
    while (P < E && isDigit(<u32>load<u8>(P))) P++;
  }
  if (P < E && (load<u8>(P) | 0x20) == 0x65) {
    P++;
    if (P < E && (load<u8>(P) == 0x2b || load<u8>(P) == 0x2d)) P++;
    if (P >= E || !isDigit(<u32>load<u8>(P))) return false;
    while (P < E && isDigit(<u32>load<u8>(P))) P++;
  }
  return true;
}

/** Whether the bytes at P spell `word` (4 or 5 ASCII letters packed little-endian in `w`, `n` long); moves past it. */
function literal(w: u64, n: u32): bool {
  if (P + n > E) return false;
  for (let k: u32 = 0; k < n; k++) if (<u64>load<u8>(P + k) != ((w >> (8 * k)) & 0xff)) return false;
  P += n;
  return true;
}

const TRUE_W: u64 = 0x65757274; // "true"
const FALSE_W: u64 = 0x65736c6166; // "false"
const NULL_W: u64 = 0x6c6c756e; // "null"

/**
 * Reads one value at P (after white space), containers iteratively; returns its kind, or 0 when it is not
 * a value this reader takes. `limit`: containers it may open inside one another.
 */
function value(limit: u32): u32 {
  skipWs();
  if (P >= E) return 0;
  const first = <u32>load<u8>(P);
  if (first == 0x22) return str() ? K_STRING : 0;
  if (first == 0x2d || isDigit(first)) return num() ? K_NUMBER : 0;
  if (first == 0x74) return literal(TRUE_W, 4) ? K_TRUE : 0;
  if (first == 0x66) return literal(FALSE_W, 5) ? K_FALSE : 0;
  if (first == 0x6e) return literal(NULL_W, 4) ? K_NULL : 0;
  if (first != 0x7b && first != 0x5b) return 0;
  const kind = first == 0x7b ? K_OBJECT : K_ARRAY;
  let depth: u32 = 0;
  // states: 0 a value is due, 1 a value was read, 2 a key is due
  let state: u32 = 0;
  while (true) {
    skipWs();
    if (P >= E) return 0;
    const c = <u32>load<u8>(P);
    if (state == 0) {
      const start = P;
      if (c == 0x7b || c == 0x5b) {
        if (member >= 0) noteMember(c == 0x7b ? K_OBJECT : K_ARRAY, start);
        if (depth >= limit || depth >= STACK_CAP) return 0;
        const isObject = c == 0x7b;
        store<u8>(stack + <usize>depth, isObject ? 1 : 2);
        depth++;
        P++;
        skipWs();
        if (P < E && <u32>load<u8>(P) == (isObject ? 0x7d : 0x5d)) {
          P++;
          depth--;
          if (depth == 0) return kind;
          state = 1;
        } else state = isObject ? 2 : 0;
        continue;
      }
      let k: u32 = 0;
      if (c == 0x22) {
        if (!str()) return 0;
        k = K_STRING;
      } else if (c == 0x2d || isDigit(c)) {
        if (!num()) return 0;
        k = K_NUMBER;
      } else if (c == 0x74) {
        if (!literal(TRUE_W, 4)) return 0;
        k = K_TRUE;
      } else if (c == 0x66) {
        if (!literal(FALSE_W, 5)) return 0;
        k = K_FALSE;
      } else if (c == 0x6e) {
        if (!literal(NULL_W, 4)) return 0;
        k = K_NULL;
      } else return 0;
      if (member >= 0) noteMember(k, start);
      state = 1;
    } else if (state == 1) {
      const top = load<u8>(stack + <usize>(depth - 1));
      if (c == 0x2c) {
        P++;
        state = top == 1 ? 2 : 0;
      } else if (c == (top == 1 ? 0x7d : 0x5d)) {
        P++;
        depth--;
        if (depth == 0) return kind;
      } else return 0;
    } else {
      const keyAt = P + 1;
      if (c != 0x22 || !str()) return 0;
      // a key of the args object itself: the member whose value comes next, if it is one the host reads
      if (noting && depth == 1) {
        if (escaped) store<u32>(table + (<usize>AF_KEY_ESCAPED << 4), 1);
        else member = argMemberOf(keyAt, <u32>(P - 1 - keyAt));
      }
      skipWs();
      if (P >= E || load<u8>(P) != 0x3a) return 0;
      P++;
      state = 0;
    }
  }
}

/** Notes the args member due (`member`): its kind, and for a scalar its span (P is past it) and escape. */
function noteMember(kind: u32, start: usize): void {
  const e = table + (<usize>member << 4);
  store<u32>(e, kind);
  store<u32>(e, <u32>(start - LINE), 4);
  store<u32>(e, kind == K_OBJECT || kind == K_ARRAY ? 0 : <u32>(P - LINE), 8);
  store<u32>(e, kind == K_STRING && escaped ? 1 : 0, 12);
  member = -1;
}

/** The AF_ entry an args key names (its bytes at `p`, `n` long, no escapes), or -1. */
function argMemberOf(p: usize, n: u32): i32 {
  switch (n) {
    case 3:
      return load<u16>(p) == 0x6d63 && load<u8>(p + 2) == 0x64 ? <i32>AF_CMD : -1; // cmd
    case 4:
      if (load<u32>(p) == 0x68746170) return <i32>AF_PATH; // path
      if (load<u32>(p) == 0x656c6966) return <i32>AF_FILE; // file
      return -1;
    case 5:
      if (load<u32>(p) == 0x75706e69 && load<u8>(p + 4) == 0x74) return <i32>AF_INPUT; // input
      if (load<u32>(p) == 0x63746170 && load<u8>(p + 4) == 0x68) return <i32>AF_PATCH; // patch
      return -1;
    case 7:
      return load<u32>(p) == 0x6d6d6f63 && load<u16>(p + 4) == 0x6e61 && load<u8>(p + 6) == 0x64 ? <i32>AF_COMMAND : -1; // command
    case 8:
      if (load<u64>(p) == 0x68746150656c6966) return <i32>AF_FILE_PATH_CAMEL; // filePath
      if (load<u64>(p) == 0x656d616e656c6966) return <i32>AF_FILENAME; // filename
      return -1;
    case 9:
      return load<u64>(p) == 0x7461705f656c6966 && load<u8>(p + 8) == 0x68 ? <i32>AF_FILE_PATH : -1; // file_path
    case 11:
      return load<u64>(p) == 0x665f746567726174 && load<u16>(p + 8) == 0x6c69 && load<u8>(p + 10) == 0x65 ? <i32>AF_TARGET_FILE : -1; // target_file
    case 13:
      return load<u64>(p) == 0x6b6f6f6265746f6e && load<u32>(p + 8) == 0x7461705f && load<u8>(p + 12) == 0x68 ? <i32>AF_NOTEBOOK_PATH : -1; // notebook_path
  }
  return -1;
}

/** The field a top-level key names (its bytes at `p`, `n` long, no escapes), or -1. */
function fieldOf(p: usize, n: u32): i32 {
  switch (n) {
    case 2:
      return load<u16>(p) == 0x6469 ? <i32>LF_ID : -1; // id
    case 4:
      if (load<u32>(p) == 0x6c6f6f74) return <i32>LF_TOOL; // tool
      if (load<u32>(p) == 0x73677261) return <i32>LF_ARGS; // args
      if (load<u32>(p) == 0x74786574) return <i32>LF_TEXT; // text
      if (load<u32>(p) == 0x70657473) return <i32>LF_STEP; // step
      return -1;
    case 5:
      if (load<u32>(p) == 0x6f727265 && load<u8>(p + 4) == 0x72) return <i32>LF_ERROR; // error
      if (load<u32>(p) == 0x6e756f72 && load<u8>(p + 4) == 0x64) return <i32>LF_ROUND; // round
      return -1;
    case 6:
      return load<u32>(p) == 0x75736572 && load<u16>(p + 4) == 0x746c ? <i32>LF_RESULT : -1; // result
    case 7:
      return load<u32>(p) == 0x73736573 && load<u16>(p + 4) == 0x6f69 && load<u8>(p + 6) == 0x6e ? <i32>LF_SESSION : -1; // session
    case 10:
      return load<u64>(p) == 0x6f7463656a617274 && load<u16>(p + 8) == 0x7972 ? <i32>LF_TRAJECTORY : -1; // trajectory
    case 11:
      return load<u64>(p) == 0x7470697263736564 && load<u16>(p + 8) == 0x6f69 && load<u8>(p + 10) == 0x6e ? <i32>LF_DESCRIPTION : -1; // description
    case 15:
      return load<u64>(p) == 0x61737265766e6f63 && load<u32>(p + 8) == 0x6e6f6974 && load<u16>(p + 12) == 0x695f && load<u8>(p + 14) == 0x64 ? <i32>LF_CONVERSATION_ID : -1; // conversation_id
  }
  return -1;
}

/**
 * Reads the line at `ptr` (`len` bytes, with at least 16 readable bytes after it): LINE_OK with the field
 * table filled, or LINE_HOST. `maxNesting`: the deepest nesting of arrays and objects taken (the
 * top-level object is 1).
 */
export function scanEventLine(ptr: usize, len: u32, maxNesting: u32): u32 {
  memory.fill(table, 0, LINE_FIELDS * ENTRY * 4);
  LINE = ptr;
  noting = false;
  member = -1;
  P = ptr;
  E = ptr + <usize>len;
  skipWs();
  if (P >= E || load<u8>(P) != 0x7b) return LINE_HOST;
  P++;
  skipWs();
  if (P < E && load<u8>(P) == 0x7d) P++;
  else {
    while (true) {
      skipWs();
      if (P >= E || load<u8>(P) != 0x22) return LINE_HOST;
      const keyAt = P + 1;
      if (!str() || escaped) return LINE_HOST;
      const field = fieldOf(keyAt, <u32>(P - 1 - keyAt));
      skipWs();
      if (P >= E || load<u8>(P) != 0x3a) return LINE_HOST;
      P++;
      skipWs();
      const start = P;
      noting = field == <i32>LF_ARGS;
      const kind = value(maxNesting > 1 ? maxNesting - 1 : 0);
      noting = false;
      member = -1;
      if (kind == 0) return LINE_HOST;
      if (field >= 0) {
        const e = table + (<usize>field << 4);
        if (load<u32>(e) != K_ABSENT) return LINE_HOST;
        store<u32>(e, kind);
        store<u32>(e, <u32>(start - ptr), 4);
        store<u32>(e, <u32>(P - ptr), 8);
        store<u32>(e, kind == K_STRING && escaped ? 1 : 0, 12);
      }
      skipWs();
      if (P >= E) return LINE_HOST;
      const c = load<u8>(P);
      P++;
      if (c == 0x2c) continue;
      if (c == 0x7d) break;
      return LINE_HOST;
    }
  }
  skipWs();
  return P == E ? LINE_OK : LINE_HOST;
}
