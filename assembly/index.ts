// The module's exports: the loopwatch hot paths (call fingerprints, per-session rings in linear memory,
// the call detectors and the semantic sketch), driven by src/wasm/. Memory is imported, so the host can
// re-instantiate the module over the same memory after a trap.
import { CONFIG_SIZE, CONFIGS, H_BYTES, H_BYTES_SIZE, H_TEXT, H_TEXT_SIZE, H_IN, H_IN_SIZE, H_LISTS, H_LISTS_SIZE, H_OUT, H_OUT_SIZE, H_SCRATCH, H_SCRATCH_SIZE, S_CONFIG } from './abi';
import { anyAtThreshold } from './detect';
import { ensureRegion } from './slots';
import { maskCacheRegion } from './mask-cache';
import { sketchCacheRegion } from './sketch-cache';

export { CONFIGS, CONFIG_SIZE, HEADER, MAGIC, OUT_SIZE, STOP_TABLE, MAX_CONFIGS, SLOT_HEADER } from './abi';
export { setup, allocSlot, freeSlot, resetSlot, poisonSlot, slotCount, slotOk, growFor } from './slots';
export { stateResize, stateReserve } from './state-ring';
export { sketchReserve, sketchPut, sketchDrop } from './sketch-blocks';
export { processOne, processBatch, kernel, scratchNeeded, configure } from './event';
export { xxh64, xxh64Pair, xxh64PairSecond } from './xxh64';
export { tokenize, lastTokenCount, lastSketchLen, sketchReaches, leastCommonFull } from './tokens';
export { saysNothingFound } from './nothing';
export { textResultPass, textResultSeparate, resultFp } from './result-pass';
export { maskBytes } from './mask';
export { testPlace } from './test-place';
export { reportScan } from './report-scan';
export { reportScanBytewise } from './report-scan-bytewise';
export { errorMaySay, errorMaySayBytewise } from './error-screen';
export { scanEventLine, lineFields } from './event-line';
export { routeSession } from './line-route';
export { unescapeJsonInPlace } from './json-unescape';
export { chantPush, chantRebase, chantReset, chantCheck } from './chant';
export { longStringHashes } from './unit-hash';
export { summarizeJsonArgs } from './args-summary';
export { summarizeEncodedArgs } from './args-summary-encoded';
export { encodedFp } from './tree';

/**
 * Makes the caches' zeroed regions (masked hashes, sketches) when the thread's instance is made, so no
 * batch grows the memory for them midway; 1 when both are there, 0 when memory could not grow (lookups then miss).
 */
export function cachesReady(): u32 {
  return maskCacheRegion() != 0 && sketchCacheRegion() != 0 ? 1 : 0;
}

/** Makes the input area at least `size` bytes; returns its address (0: out of memory). */
export function reserveInput(size: u32): u32 {
  return <u32>ensureRegion(H_IN, H_IN_SIZE, size);
}

/** Makes the output area at least `size` bytes. */
export function reserveOutput(size: u32): u32 {
  return <u32>ensureRegion(H_OUT, H_OUT_SIZE, size);
}

/** Makes the scratch area at least `size` bytes. */
export function reserveScratch(size: u32): u32 {
  return <u32>ensureRegion(H_SCRATCH, H_SCRATCH_SIZE, size);
}

/** Makes the area for bytes the host hashes (snapshot checksums) at least `size` bytes. */
export function reserveBytes(size: u32): u32 {
  return <u32>ensureRegion(H_BYTES, H_BYTES_SIZE, size);
}

/** Makes the area the host copies prose into for chantPush at least `size` bytes. */
export function reserveText(size: u32): u32 {
  return <u32>ensureRegion(H_TEXT, H_TEXT_SIZE, size);
}

/** Makes the unit-lists area at least `size` bytes. */
export function reserveLists(size: u32): u32 {
  return <u32>ensureRegion(H_LISTS, H_LISTS_SIZE, size);
}

/** The ToolLoopDetector is_stuck view of a slot: a call repeated `threshold` times in the frequency window. */
export function stuck(s: u32): u32 {
  const cfg: usize = <usize>CONFIGS + <usize>load<u32>(<usize>s + S_CONFIG) * <usize>CONFIG_SIZE;
  return anyAtThreshold(cfg, s) ? 1 : 0;
}

/** Executes `unreachable`: lets the tests check that a trap never takes other sessions down. */
export function debugTrap(): void {
  unreachable();
}
