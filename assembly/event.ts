// One tool call in, findings out: reads an event record, fingerprints the call and its outcome (the twin of
// src/session/observe-event.ts), writes the slot's rings, and runs the enabled detectors.
import {
  ARGS_JSON, ARGS_NONE, ARGS_STRING, ARGS_TREE, CF_ANSWERS, CF_CYCLE, CF_DEADEND, CF_EXACT, CF_FREQ, CF_MASK_TEXT, CF_RESULT, CF_RESULT_MASKED,
  CF_SEMANTIC, CF_SEM_NOTOOL, CF_STATE, C_CAP_ERR, C_CAP_MASKED, C_CAP_OUT, C_CAP_SIG, C_CAP_TOOL, C_FLAGS, C_MAXDEPTH, C_OFF_ERR, C_OFF_FLAGS,
  C_OFF_MASKED, C_OFF_OUT, C_OFF_SEM, C_OFF_SIG, C_OFF_TOOL, C_SEM_CAP, C_SE_K, MAX_SKETCH_K, C_SE_MAXTEXT, C_SE_MAXTOK,
  C_ST_W, F_ARGS_SHIFT, F_DEBUG_TRAP, F_HAS_DESC, F_HAS_ERROR, F_HAS_RESULT, F_INFRA, F_RESULT_EMPTY, F_RESULT_NOTHING, F_RESULT_TEXT, F_RESULT_ESCAPED, F_READ_HEAD, F_HEAD_ACK, F_HEAD_NO_PASS, O_HEAD, O_ERR_KEY_LO, O_ERR_KEY_HI, ERR_MAY_SAY,
  HEADER, H_SCRATCH, H_SCRATCH_SIZE, MASK_LIMIT, OF_EMPTY, OF_ERROR, OF_INFRA, OF_KNOWN, OF_NOTHING, OF_PROPOSED, F_PROPOSED, OUT_SIZE, O_INDEX,
  O_MASKED_LO, O_OFLAGS, O_OUT_LO, O_SIG_HI, O_SIG_LO, O_STATUS, O_TOOL_HI, O_TOOL_LO, R_BODY, R_FLAGS, R_SIZE, R_SLOT, SLOT_POISONED, ST_BAD_SLOT,
  ST_LISTS_FULL, ST_NEEDS_HOST, ST_NO_MEMORY, ST_OK, S_COUNT, S_POS, S_STATE, C_SCRATCH_FIXED, C_HIST_CAP,
} from './abi';
import { TAG_CALL, TAG_ERROR, TAG_ERROR_CLASS, TAG_MASKED_RESULT, TAG_NULL, TAG_RESULT, TAG_STATE, TAG_STRING, combine2, word } from './combine';
import {
  detectBegin, detectCycle, detectDeadEnd, detectExact, detectFrequency, detectListsFull, detectListsPtr, detectResult, detectSemantic,
  detectState,
} from './detect';
import { J_HOST, J_OK, hashJson, jsonFp, jsonScratchSize } from './json';
import { maskBytes } from './mask';
import { testPlace } from './test-place';
import { MK_ERROR, MK_RESULT, MK_RESULT_TEXT, maskedFound, maskedKnown, maskedRemember } from './mask-cache';
import { errorMaySay } from './error-screen';
import { configPtr, slotOk } from './slots';
import { semHead, semLen } from './sem-entry';
import { sketchAlloc, sketchClass, sketchFree, sketchUnfree } from './sketch-blocks';
import { stateKeys, stateRoom } from './state-ring';
import { textFinish, textNode, textReplace, textResume, textStart, textString, textSuspend } from './text';
import { lastSketchLen, lastTokenCount, tokenTableSlots, tokenize } from './tokens';
import { hashTree } from './tree';
import { unescapeJsonInPlace } from './json-unescape';
import { readResultHead } from './result-head';
import { RP_ACK, RP_ANSWERS, RP_HEAD, RP_PASS, resultFp, textResultPass } from './result-pass';
import { sketchLookup, sketchRemember } from './sketch-cache';
import { xxh64 } from './xxh64';

/** The call's count and sketch as tokenize or the sketch cache write them: [head word | MAX_SKETCH_K hashes]. */
const SKETCH: usize = memory.data((MAX_SKETCH_K + 1) << 2, 16);

// section pointers of the record being processed
let toolP: usize = 0;
let toolN: u32 = 0;
let argsP: usize = 0;
let argsN: u32 = 0;
let descP: usize = 0;
let descN: u32 = 0;
let resP: usize = 0;
let resN: u32 = 0;
let resTextP: usize = 0;
let resTextN: u32 = 0;
let errP: usize = 0;
let errN: u32 = 0;
let ignoreP: usize = 0;
let ignoreN: u32 = 0;

function section(p: usize): usize {
  return p + 4 + ((<usize>load<u32>(p) + 3) & ~3);
}

function readSections(rec: usize): void {
  let p = rec + R_BODY;
  toolN = load<u32>(p);
  toolP = p + 4;
  p = section(p);
  argsN = load<u32>(p);
  argsP = p + 4;
  p = section(p);
  descN = load<u32>(p);
  descP = p + 4;
  p = section(p);
  resN = load<u32>(p);
  resP = p + 4;
  p = section(p);
  resTextN = load<u32>(p);
  resTextP = p + 4;
  p = section(p);
  errN = load<u32>(p);
  errP = p + 4;
  p = section(p);
  ignoreN = load<u32>(p);
  ignoreP = (p + 4 + 7) & ~7;
}

/**
 * Bytes of the masking area: masking reads at most MASK_LIMIT bytes of a result or error, and maxText of the
 * action text, and writes at most 6 bytes a byte read (+ 8, and a vector store's 16 past its end).
 */
function maskRoom(maxText: u32): u32 {
  return (maxText > MASK_LIMIT ? maxText : MASK_LIMIT) * 6 + 64;
}

/**
 * Scratch bytes a configuration needs for a record of any size (none scales with the record: JSON strings
 * are decoded through a fixed window, masking reads a bounded head): the JSON window and stacks, the masking
 * and text areas, the token table, index lists, and alignment.
 */
function scratchFixed(cfg: usize): u32 {
  const maxText = load<u32>(cfg + C_SE_MAXTEXT);
  const maxTok = load<u32>(cfg + C_SE_MAXTOK);
  const tokens = tokenTableSlots(maxTok > 0 ? maxTok : 1);
  const indexList = (load<u32>(cfg + C_HIST_CAP) + load<u32>(cfg + C_ST_W) + 64) << 2;
  return jsonScratchSize() + maskRoom(maxText) + maxText + 16 + (tokens << 2) + indexList + 256;
}

/** Records a configuration's scratch need in its config entry (the host calls this once per new config). */
export function configure(id: u32): void {
  const cfg = configPtr(id);
  store<u32>(cfg + C_SCRATCH_FIXED, scratchFixed(cfg));
}

/** Scratch bytes needed to process a record of any size with configuration `id`. */
export function scratchNeeded(id: u32): u32 {
  return scratchFixed(configPtr(id));
}

/** The position ring `r` writes next, advanced (no division: the slot keeps each ring's position). */
// @ts-ignore: decorator
@inline function advance(slot: usize, r: u32, cap: u32): u32 {
  const at = slot + S_POS + (<usize>r << 1);
  const p = <u32>load<u16>(at);
  store<u16>(at, <u16>(p + 1 == cap ? 0 : p + 1));
  return p;
}

// @ts-ignore: decorator
@inline function ringPut(slot: usize, cfg: usize, r: u32, offField: u32, capField: u32, v: u32): void {
  const cap = load<u32>(cfg + capField);
  if (cap != 0) store<u32>(slot + load<u32>(cfg + offField) + (<usize>advance(slot, r, cap) << 2), v);
}

/**
 * Processes one event record into its output record. Returns a status; on NEEDS_HOST and BAD_SLOT
 * nothing was recorded.
 */
export function processOne(rec: usize, out: usize, lists: usize, listsEnd: usize): u32 {
  // the status is written last: a trap leaves the host's sentinel in place, which tells it which event trapped
  const s = load<u32>(rec + R_SLOT);
  if (!slotOk(s) || (load<u32>(s + S_STATE) & SLOT_POISONED) != 0) {
    store<u32>(out + O_STATUS, ST_BAD_SLOT);
    return ST_BAD_SLOT;
  }
  const slot = <usize>s;
  const cfg = configPtr(load<u32>(slot + 4));
  const cflags = load<u32>(cfg + C_FLAGS);
  const rflags = load<u32>(rec + R_FLAGS);
  readSections(rec);
  const scratch = <usize>load<u32>(HEADER + H_SCRATCH);
  if (scratch == 0 || load<u32>(HEADER + H_SCRATCH_SIZE) < load<u32>(cfg + C_SCRATCH_FIXED)) {
    store<u32>(out + O_STATUS, ST_NO_MEMORY);
    return ST_NO_MEMORY;
  }
  // scratch layout: [json | mask | text | token table | token buffer | index list]
  const jsonArea = scratch;
  const maskArea = (jsonArea + jsonScratchSize() + 15) & ~15;
  const maxText = load<u32>(cfg + C_SE_MAXTEXT);
  const textArea = (maskArea + <usize>maskRoom(maxText) + 15) & ~15;
  const tableArea = (textArea + maxText + 16 + 15) & ~15;
  const maxTok = load<u32>(cfg + C_SE_MAXTOK);
  const idxArea = (tableArea + (<usize>tokenTableSlots(maxTok > 0 ? maxTok : 1) << 2) + 15) & ~15;

  const semantic = (cflags & CF_SEMANTIC) != 0;
  const toolFp = xxh64(toolP, toolN, TAG_STRING);
  // the action text starts with the tool name unless the semantic options leave it out
  const textToolN: u32 = (cflags & CF_SEM_NOTOOL) != 0 ? 0 : toolN;
  textStart(textArea, maxText, toolP, textToolN, semantic);

  // the call's signature
  const kind = (rflags >> F_ARGS_SHIFT) & 3;
  let argsFp: u64;
  if (kind == ARGS_JSON) {
    const st = hashJson(argsP, argsN, load<u32>(cfg + C_MAXDEPTH), ignoreP, ignoreN, jsonArea, semantic);
    if (st == J_HOST) {
      store<u32>(out + O_STATUS, ST_NEEDS_HOST);
      return ST_NEEDS_HOST;
    }
    if (st == J_OK) argsFp = jsonFp;
    else {
      argsFp = xxh64(argsP, argsN, TAG_STRING);
      textReplace(textToolN, argsP, argsN, semantic);
    }
  } else if (kind == ARGS_TREE) {
    argsFp = hashTree(argsP);
  } else if (kind == ARGS_STRING) {
    if (textNode()) textString(argsP, argsN);
    argsFp = xxh64(argsP, argsN, TAG_STRING);
  } else {
    argsFp = word(TAG_NULL, 0);
  }
  if ((rflags & F_HAS_DESC) != 0) textReplace(textToolN, descP, descN, semantic);
  const sig = combine2(TAG_CALL, toolFp, argsFp);

  // the outcome
  let oflags: u32 = (rflags & F_PROPOSED) != 0 ? OF_PROPOSED : 0;
  let outFp: u64 = 0;
  let masked: u32 = 0;
  let errKey: u32 = 0;
  const hasResult = (rflags & F_HAS_RESULT) != 0;
  // what a result says (nothing found, a brief acknowledgement) only where some detector reads it
  const answers = (cflags & CF_ANSWERS) != 0;
  // the head of a text (or null) result as the host's outcome facts read it, where the record asks
  const readsHead = (rflags & F_READ_HEAD) != 0 && (rflags & F_HAS_ERROR) == 0;
  store<u32>(out + O_HEAD, 0);
  if (hasResult) {
    oflags |= OF_KNOWN;
    let rfp: u64;
    if ((rflags & F_RESULT_TEXT) != 0) {
      if ((rflags & F_RESULT_ESCAPED) != 0) {
        // read from event bytes: decoded here, where it lies (a record is written afresh for every run)
        resN = unescapeJsonInPlace(resP, resN);
      }
      // its fingerprint, its head, whether it is blank, says nothing was found, is brief (result-pass.ts)
      const how = (readsHead ? RP_HEAD : 0) | ((rflags & F_HEAD_ACK) != 0 ? RP_ACK : 0) | ((rflags & F_HEAD_NO_PASS) == 0 ? RP_PASS : 0) | (answers ? RP_ANSWERS : 0);
      oflags |= textResultPass(resP, resN, how, out);
      rfp = resultFp();
    } else {
      // the result's strings are not action text (src/text/action-text.ts reads the tool, args, description)
      textSuspend();
      rfp = hashTree(resP);
      textResume();
      if ((rflags & F_RESULT_EMPTY) != 0) {
        oflags |= OF_EMPTY;
        // a null result reads as the empty head
        if (readsHead) readResultHead(resP, 0, (rflags & F_HEAD_ACK) != 0, (rflags & F_HEAD_NO_PASS) == 0, out);
      } else if (answers && (rflags & F_RESULT_NOTHING) != 0) oflags |= OF_NOTHING;
    }
    outFp = word(TAG_RESULT, rfp);
    if ((cflags & CF_RESULT_MASKED) != 0) {
      const isText = (rflags & F_RESULT_TEXT) != 0;
      const textP = isText ? resP : resTextP;
      const textN = isText ? resN : resTextN;
      // a text result's hash covers it whole; a value's result text is hashed as far as masking reads it
      const cut = textN < MASK_LIMIT ? textN : MASK_LIMIT;
      if (isText ? maskedKnown(rfp, textN, MK_RESULT) : maskedKnown(xxh64(textP, cut, TAG_MASKED_RESULT), cut, MK_RESULT_TEXT)) {
        masked = maskedFound();
      } else {
        const m = maskBytes(textP, textN, MASK_LIMIT, maskArea);
        masked = <u32>xxh64(maskArea, m, TAG_MASKED_RESULT);
        maskedRemember(masked);
      }
    }
  }
  let infra = false;
  if ((rflags & F_HAS_ERROR) != 0) {
    oflags |= OF_KNOWN | OF_ERROR;
    infra = (rflags & F_INFRA) != 0;
    if (infra) oflags |= OF_INFRA;
    const ef = xxh64(errP, errN, TAG_ERROR);
    errKey = <u32>ef;
    // the host's key of the error text (what it says is read once per distinct text)
    store<u32>(out + O_ERR_KEY_LO, <u32>ef);
    store<u32>(out + O_ERR_KEY_HI, (<u32>(ef >> 32) & 0x1fffff) | (errorMaySay(errP, errN) != 0 ? ERR_MAY_SAY : 0));
    if (!hasResult) outFp = ef;
    if (maskedKnown(ef, errN, MK_ERROR)) {
      masked = maskedFound();
    } else {
      // a failure naming the tests that failed is of their place too (test-place.ts)
      const place = testPlace(errP, errN);
      const m = maskBytes(errP, errN, MASK_LIMIT, maskArea);
      masked = <u32>xxh64(maskArea, m, place != 0 ? place : TAG_ERROR_CLASS);
      maskedRemember(masked);
    }
  }
  // the state key (only state repeat reads it: a description's hash and a combine saved elsewhere)
  let stateKey: u32 = 0;
  if ((cflags & CF_STATE) != 0 && (oflags & OF_KNOWN) != 0 && !infra) {
    const a = (rflags & F_HAS_DESC) != 0 ? xxh64(descP, descN, TAG_STRING) : sig;
    stateKey = <u32>combine2(TAG_STATE, a, outFp);
    if (stateKey == 0) stateKey = 1;
  }

  // room for the state key first, so a full memory records nothing
  if ((cflags & CF_STATE) != 0 && !stateRoom(slot, cfg)) {
    store<u32>(out + O_STATUS, ST_NO_MEMORY);
    return ST_NO_MEMORY;
  }
  // the action text's count and sketch (into SKETCH: [head word | hashes]), and the block its hashes take
  let sketchBlock: usize = 0;
  if (semantic) {
    let tp = textArea;
    let tn = textFinish();
    const k = load<u32>(cfg + C_SE_K);
    const masks = (cflags & CF_MASK_TEXT) != 0;
    // the options that shape a sketch besides the text: masking, the token cap, k
    const seed = (<u64>maxTok << 32) | (<u64>k << 1) | (masks ? 1 : 0);
    if (!sketchLookup(tp, tn, seed, SKETCH)) {
      if (masks) {
        tn = maskBytes(textArea, tn, maxText, maskArea);
        tp = maskArea;
      }
      tokenize(tp, tn, maxTok, k, SKETCH + 4, tableArea);
      store<u32>(SKETCH, semHead(lastTokenCount(), lastSketchLen()));
      sketchRemember(SKETCH);
    }
    // the entry this call replaces (the semantic ring's next place): its block is kept for a sketch of its
    // class, else freed before the new one is taken (a full memory can then give it back, split), and taken
    // back when no block can be had, so a full memory records nothing
    const entry = slot + load<u32>(cfg + C_OFF_SEM) + (<usize>load<u16>(slot + S_POS + 12) << 3);
    const c = sketchClass(semLen(load<u32>(SKETCH)));
    const old = <usize>load<u32>(entry, 4);
    const oldClass = sketchClass(semLen(load<u32>(entry)));
    if (old != 0 && c == oldClass) sketchBlock = old;
    else {
      // the entry lets go of its block at once: a trap before the call is recorded leaves no entry holding a freed block
      const oldHead = load<u64>(entry);
      if (old != 0) sketchFree(old, semLen(load<u32>(entry)));
      store<u64>(entry, 0);
      if (c != 0) sketchBlock = sketchAlloc(c);
      if (c != 0 && sketchBlock == 0) {
        if (old != 0) sketchUnfree(old, oldClass);
        store<u64>(entry, oldHead);
        store<u32>(out + O_STATUS, ST_NO_MEMORY);
        return ST_NO_MEMORY;
      }
    }
  }

  // record
  const index = load<u32>(slot + S_COUNT);
  ringPut(slot, cfg, 0, C_OFF_SIG, C_CAP_SIG, <u32>sig);
  if ((rflags & F_DEBUG_TRAP) != 0) unreachable(); // tests: a trap halfway through recording
  ringPut(slot, cfg, 1, C_OFF_TOOL, C_CAP_TOOL, <u32>toolFp);
  const capOut = load<u32>(cfg + C_CAP_OUT);
  if (capOut != 0) {
    const p = advance(slot, 2, capOut);
    store<u32>(slot + load<u32>(cfg + C_OFF_OUT) + (<usize>p << 2), <u32>outFp);
    store<u8>(slot + load<u32>(cfg + C_OFF_FLAGS) + <usize>p, <u8>oflags);
  }
  ringPut(slot, cfg, 3, C_OFF_MASKED, C_CAP_MASKED, masked);
  ringPut(slot, cfg, 4, C_OFF_ERR, C_CAP_ERR, errKey);
  if ((cflags & CF_STATE) != 0) store<u32>(stateKeys(slot, cfg) + (<usize>advance(slot, 5, load<u32>(cfg + C_ST_W)) << 2), stateKey);
  if (semantic) {
    // the sketch's hashes into the block taken for them above (the replaced entry's was kept or freed there)
    const entry = slot + load<u32>(cfg + C_OFF_SEM) + (<usize>advance(slot, 6, load<u32>(cfg + C_SEM_CAP)) << 3);
    const len = semLen(load<u32>(SKETCH));
    if (sketchBlock != 0) memory.copy(sketchBlock, SKETCH + 4, <usize>len << 2);
    store<u32>(entry, load<u32>(SKETCH));
    store<u32>(entry, <u32>sketchBlock, 4);
  }
  store<u32>(slot + S_COUNT, index + 1);

  // detect
  detectBegin(cfg, slot, out, lists, listsEnd, idxArea);
  if ((cflags & CF_EXACT) != 0) detectExact();
  if ((cflags & CF_FREQ) != 0) detectFrequency();
  if ((cflags & CF_CYCLE) != 0) detectCycle();
  if (semantic) detectSemantic();
  if ((cflags & CF_RESULT) != 0) detectResult();
  if ((cflags & CF_DEADEND) != 0) detectDeadEnd();
  if ((cflags & CF_STATE) != 0) detectState();

  store<u32>(out + O_SIG_HI, <u32>(sig >> 32));
  store<u32>(out + O_SIG_LO, <u32>sig);
  store<u32>(out + O_INDEX, index);
  store<u32>(out + O_OFLAGS, oflags);
  store<u32>(out + O_TOOL_HI, <u32>(toolFp >> 32));
  store<u32>(out + O_TOOL_LO, <u32>toolFp);
  store<u32>(out + O_OUT_LO, <u32>outFp);
  store<u32>(out + O_MASKED_LO, masked);
  if (detectListsFull()) {
    store<u32>(out + O_STATUS, ST_LISTS_FULL);
    return ST_LISTS_FULL;
  }
  store<u32>(out + O_STATUS, ST_OK);
  return ST_OK;
}

/**
 * Processes `n` consecutive records into consecutive output records. Stops before a record that needs the
 * host (its args must be re-encoded) and returns how many records were done; BAD_SLOT records are marked
 * and passed over.
 */
export function processBatch(recs: usize, n: u32, outs: usize, lists: usize, listsEnd: usize): u32 {
  let rec = recs;
  let out = outs;
  let l = lists;
  for (let k: u32 = 0; k < n; k++) {
    const st = processOne(rec, out, l, listsEnd);
    if (st == ST_NEEDS_HOST) return k;
    if (st == ST_OK || st == ST_LISTS_FULL) l = detectListsPtrAfter(l);
    rec += load<u32>(rec + R_SIZE);
    out += OUT_SIZE;
  }
  return n;
}

function detectListsPtrAfter(before: usize): usize {
  const p = detectListsPtr();
  return p > before ? p : before;
}

/** The detection kernel alone: records precomputed keys into a slot and runs the detectors. */
export function kernel(s: u32, sigLo: u32, toolLo: u32, outcomeLo: u32, oflags: u32, out: usize, lists: usize, listsEnd: usize): u32 {
  if (!slotOk(s)) return ST_BAD_SLOT;
  const slot = <usize>s;
  const cfg = configPtr(load<u32>(slot + 4));
  const cflags = load<u32>(cfg + C_FLAGS);
  const index = load<u32>(slot + S_COUNT);
  ringPut(slot, cfg, 0, C_OFF_SIG, C_CAP_SIG, sigLo);
  ringPut(slot, cfg, 1, C_OFF_TOOL, C_CAP_TOOL, toolLo);
  const capOut = load<u32>(cfg + C_CAP_OUT);
  if (capOut != 0) {
    const p = advance(slot, 2, capOut);
    store<u32>(slot + load<u32>(cfg + C_OFF_OUT) + (<usize>p << 2), outcomeLo);
    store<u8>(slot + load<u32>(cfg + C_OFF_FLAGS) + <usize>p, <u8>oflags);
  }
  store<u32>(slot + S_COUNT, index + 1);
  const scratch = <usize>load<u32>(HEADER + H_SCRATCH);
  detectBegin(cfg, slot, out, lists, listsEnd, scratch);
  if ((cflags & CF_EXACT) != 0) detectExact();
  if ((cflags & CF_FREQ) != 0) detectFrequency();
  if ((cflags & CF_CYCLE) != 0) detectCycle();
  if ((cflags & CF_RESULT) != 0) detectResult();
  return load<u32>(out + 16);
}
