// The call detectors over a session slot's rings: the twins of src/detectors/{exact-repeat, frequency,
// cycle, semantic, result-repeat, dead-end, state-repeat, progress}.ts. Each writes its findings into the
// output record; the host builds signals, patterns and verdicts from them.
import {
  CF_CYCLE_TOOL, CF_DEAD_CLASS, CF_RESULT_MASKED, CF_SEM_IDENTICAL, CF_SEM_SAMETOOL, C_CAP_ERR, C_CAP_MASKED, C_CAP_OUT, C_CAP_SIG,
  C_CAP_TOOL, C_CY_MAX, C_CY_MIN, C_CY_R, C_CY_W, C_DE_T, C_DE_W, C_EX_T, C_EX_W, C_FLAGS, C_FR_T, C_FR_W, C_HIST_CAP, C_OFF_ERR,
  C_OFF_FLAGS, C_OFF_MASKED, C_OFF_OUT, C_OFF_SEM, C_OFF_SIG, C_OFF_STATE, C_OFF_TOOL, C_RR_T, C_RR_W, C_SEM_CAP,
  C_SE_K, C_SE_MINSIM, MAX_SKETCH_K, C_SE_MINTOK, C_SE_THRESH, C_SE_W, C_ST_T, C_ST_W, M_CYCLE, M_DEADEND, M_EXACT, M_FREQ, M_RESULT, M_SEMANTIC,
  M_STATE, OF_BRIEF, OF_EMPTY, OF_ERROR, OF_INFRA, OF_KNOWN, OF_NOTHING, OF_PROPOSED, O_CY, O_DE, O_EX, O_FR, O_MASK, O_RR, O_RR_SAME, O_RR_VARIED, O_SE, O_ST, P_CHANGING, P_MIXED,
  P_STALLED, P_UNKNOWN, S_COUNT, S_POS, S_STATE_POS,
} from './abi';
import { semCount, semLen } from './sem-entry';
import { leastCommonExact, leastCommonFull, sketchReachesNeed } from './tokens';

// ring ids, as src/state/call-history.ts's Ring
const R_SIG: u32 = 0;
const R_TOOL: u32 = 1;
const R_OUT: u32 = 2;
const R_MASKED: u32 = 3;
const R_ERR: u32 = 4;

let cfg: usize = 0;
let slot: usize = 0;
let count: u32 = 0;
let oldest: u32 = 0;
let out: usize = 0;
let lists: usize = 0;
let listsEnd: usize = 0;
let listsFull = false;
let idx: usize = 0; // scratch index list

// @ts-ignore: decorator
@inline function cu(off: u32): u32 {
  return load<u32>(cfg + off);
}

// per ring, for the call being processed: base address, capacity, and the slot of the newest call
const RING_BASE: usize = memory.data(5 * 4);
const RING_CAP: usize = memory.data(5 * 4);
const RING_LAST: usize = memory.data(5 * 4);
let flagsBase: usize = 0;

function ringSetup(r: u32, offField: u32, capField: u32): void {
  const cap = cu(capField);
  if (cap == 0) return;
  store<u32>(RING_BASE + (<usize>r << 2), <u32>(slot + cu(offField)));
  store<u32>(RING_CAP + (<usize>r << 2), cap);
  // the slot keeps where each ring writes next; the newest call is one before
  const next = <u32>load<u16>(slot + S_POS + (<usize>r << 1));
  store<u32>(RING_LAST + (<usize>r << 2), cap == 0 ? 0 : next == 0 ? cap - 1 : next - 1);
}

/** Slot of call index i (count - cap <= i < count) in a ring, without a division. */
// @ts-ignore: decorator
@inline function slotOf(r: u32, i: u32): u32 {
  const lastPos = load<u32>(RING_LAST + (<usize>r << 2));
  const d = count - 1 - i;
  return lastPos >= d ? lastPos - d : lastPos + load<u32>(RING_CAP + (<usize>r << 2)) - d;
}

// @ts-ignore: decorator
@inline function key(r: u32, i: u32): u32 {
  return load<u32>(<usize>load<u32>(RING_BASE + (<usize>r << 2)) + (<usize>slotOf(r, i) << 2));
}

function same(r: u32, i: u32, j: u32): bool {
  return key(r, i) == key(r, j);
}

function flagsOf(i: u32): u32 {
  return <u32>load<u8>(flagsBase + <usize>slotOf(R_OUT, i));
}

// @ts-ignore: decorator
@inline function maxU(a: u32, b: u32): u32 {
  return a > b ? a : b;
}

/** Prepares the detectors for the slot's newest call (count already includes it). */
export function detectBegin(config: usize, s: usize, o: usize, listPtr: usize, listEnd: usize, scratch: usize): void {
  cfg = config;
  slot = s;
  out = o;
  count = load<u32>(s + S_COUNT);
  const hist = cu(C_HIST_CAP);
  oldest = count > hist ? count - hist : 0;
  lists = listPtr;
  listsEnd = listEnd;
  ringSetup(R_SIG, C_OFF_SIG, C_CAP_SIG);
  ringSetup(R_TOOL, C_OFF_TOOL, C_CAP_TOOL);
  ringSetup(R_OUT, C_OFF_OUT, C_CAP_OUT);
  ringSetup(R_MASKED, C_OFF_MASKED, C_CAP_MASKED);
  ringSetup(R_ERR, C_OFF_ERR, C_CAP_ERR);
  flagsBase = slot + cu(C_OFF_FLAGS);
  listsFull = false;
  idx = scratch;
  store<u32>(o + O_MASK, 0);
}

/** Whether a unit list did not fit in the lists area (the host then retries with a larger one). */
export function detectListsFull(): bool {
  return listsFull;
}

/** Where the next unit list goes. */
export function detectListsPtr(): usize {
  return lists;
}

function mark(bit: u32): void {
  store<u32>(out + O_MASK, load<u32>(out + O_MASK) | bit);
}

/** Copies n indices from the scratch index list to the lists area; returns its offset there, or 0xffffffff. */
function writeList(n: u32): u32 {
  const need = (<usize>n + 1) << 2;
  if (lists + need > listsEnd) {
    listsFull = true;
    return 0xffffffff;
  }
  const at = lists;
  store<u32>(at, n);
  memory.copy(at + 4, idx, <usize>n << 2);
  lists += need;
  return <u32>at;
}

// ---- progress (src/detectors/progress.ts) -------------------------------------------------------------

function sameOutcome(a: u32, b: u32, byClass: bool, errorsByClass: bool): bool {
  const fa = flagsOf(a);
  const fb = flagsOf(b);
  const ea = (fa & OF_ERROR) != 0;
  const eb = (fb & OF_ERROR) != 0;
  if (ea != eb) return false;
  if (byClass && (fa & fb & OF_NOTHING) != 0) return true;
  return ea && errorsByClass ? same(R_MASKED, a, b) : same(R_OUT, a, b);
}

/** Back-to-back failures on the infrastructure of one call still read as retries (src/detectors/progress.ts INFRA_RETRIES). */
const INFRA_RETRIES: u32 = 4;

/**
 * The early answer from the outcomes' flags over indices [list, +n), or 0xff to compare outcomes. A failure
 * on the infrastructure exempts them, unless `sameCall` and more than INFRA_RETRIES failed so back to back.
 */
function knownOutcomes(list: usize, n: u32, sameCall: bool = false): u32 {
  let known: u32 = 0;
  let empty = false;
  let infra = false;
  let chain: u32 = 0;
  let stuck = false;
  let prev: u32 = 0;
  for (let k: u32 = 0; k < n; k++) {
    const i = load<u32>(list + (<usize>k << 2));
    const f = flagsOf(i);
    if ((f & OF_KNOWN) != 0) known++;
    if ((f & OF_INFRA) != 0) {
      infra = true;
      chain = k > 0 && i == prev + 1 && chain > 0 ? chain + 1 : 1;
      if (chain > INFRA_RETRIES) stuck = true;
    } else chain = 0;
    prev = i;
    if ((f & OF_EMPTY) != 0 && (f & OF_ERROR) == 0) empty = true;
  }
  if (known == 0) return P_UNKNOWN;
  if (infra && !(sameCall && stuck)) return P_CHANGING;
  if (known < n || empty) return P_MIXED;
  return 0xff;
}

/**
 * Progress over the repetitions at indices [list, +n) (ascending). A proposed call (the newest, checked
 * before it runs) has no outcome yet: progress is over the repetitions before it.
 */
function repeatProgress(list: usize, n: u32, byClass: bool): u32 {
  if (n != 0 && (flagsOf(load<u32>(list + (<usize>(n - 1) << 2))) & OF_PROPOSED) != 0) {
    n--;
    if (n < 2) return P_UNKNOWN;
  }
  const early = knownOutcomes(list, n, !byClass);
  if (early != 0xff) return early;
  let sameCount: u32 = 0;
  for (let k: u32 = 1; k < n; k++) {
    const a = load<u32>(list + (<usize>(k - 1) << 2));
    const b = load<u32>(list + (<usize>k << 2));
    // back to back, nothing was done between the two: their failures compare by class
    if (sameOutcome(a, b, byClass, byClass || b == a + 1)) sameCount++;
  }
  if (sameCount == n - 1) {
    if (!byClass) return P_STALLED;
    // similar calls stalled when every outcome failed or found nothing, or different calls among them all
    // got the same real answer (more than a brief acknowledgement)
    let failing = true;
    let answers = true;
    let varied = false;
    const first = load<u32>(list);
    for (let k: u32 = 0; k < n; k++) {
      const i = load<u32>(list + (<usize>k << 2));
      const f = flagsOf(i);
      if ((f & (OF_ERROR | OF_NOTHING)) == 0) failing = false;
      if ((f & (OF_ERROR | OF_BRIEF | OF_EMPTY)) != 0) answers = false;
      if (!same(R_SIG, first, i)) varied = true;
    }
    return failing || (answers && varied) ? P_STALLED : P_MIXED;
  }
  if (sameCount == 0) return P_CHANGING;
  return P_MIXED;
}

function cycleProgress(last: u32, period: u32, reps: u32): u32 {
  const first = last - period * reps + 1;
  // a proposed newest call has no outcome yet: its position is left out of the comparisons
  const proposed = (flagsOf(last) & OF_PROPOSED) != 0;
  const n = last - first + (proposed ? 0 : 1);
  for (let k: u32 = 0; k < n; k++) store<u32>(idx + (<usize>k << 2), first + k);
  const early = knownOutcomes(idx, n);
  if (early != 0xff) return early;
  let stalledReps: u32 = 0;
  for (let r: u32 = 1; r < reps; r++) {
    const end = last - (reps - 1 - r) * period;
    let sameRep = true;
    for (let k: u32 = 0; k < period; k++) {
      const i = end - k;
      if (proposed && i == last) continue;
      // one period apart, only the cycle's own calls came between: failures compare by class
      if (!sameOutcome(i, i - period, false, true)) {
        sameRep = false;
        break;
      }
    }
    if (sameRep) stalledReps++;
  }
  if (stalledReps == reps - 1) return P_STALLED;
  if (stalledReps == 0) return P_CHANGING;
  return P_MIXED;
}

// ---- exact repeat --------------------------------------------------------------------------------------

export function detectExact(): void {
  const last = count - 1;
  const w = cu(C_EX_W);
  const floor = maxU(count > w ? count - w : 0, oldest);
  const k = key(R_SIG, last);
  let start = last;
  while (start > floor && key(R_SIG, start - 1) == k) start--;
  const run = last - start + 1;
  if (run < cu(C_EX_T)) return;
  for (let k: u32 = 0; k < run; k++) store<u32>(idx + (<usize>k << 2), start + k);
  mark(M_EXACT);
  store<u32>(out + O_EX, start);
  store<u32>(out + O_EX + 4, run);
  store<u32>(out + O_EX + 8, repeatProgress(idx, run, false));
}

// ---- frequency -----------------------------------------------------------------------------------------

/** Whether every gap between consecutive hits [idx, +n) holds a call not made earlier in the window. */
function freshBetween(n: u32, floor: u32): bool {
  for (let k: u32 = 1; k < n; k++) {
    const a = load<u32>(idx + (<usize>(k - 1) << 2));
    const b = load<u32>(idx + (<usize>k << 2));
    let fresh = false;
    for (let i = a + 1; i < b && !fresh; i++) {
      let seen = false;
      for (let j = floor; j < i && !seen; j++) seen = same(R_SIG, j, i);
      fresh = !seen;
    }
    if (!fresh) return false;
  }
  return true;
}

/** How many slots of a ring hold `k` (SIMD, four keys a step): an upper bound for any window of it. */
function countInRing(base: usize, cap: u32, k: u32): u32 {
  const needle = i32x4.splat(k);
  let n: u32 = 0;
  let i: u32 = 0;
  for (; i + 4 <= cap; i += 4) n += popcnt<u32>(i32x4.bitmask(i32x4.eq(v128.load(base + (<usize>i << 2)), needle)));
  for (; i < cap; i++) if (load<u32>(base + (<usize>i << 2)) == k) n++;
  return n;
}

export function detectFrequency(): void {
  const last = count - 1;
  const w = cu(C_FR_W);
  const base = <usize>load<u32>(RING_BASE + (<usize>R_SIG << 2));
  const cap = load<u32>(RING_CAP + (<usize>R_SIG << 2));
  const k = key(R_SIG, last);
  // the common case: the call is not repeated often enough anywhere in the ring, so not in the window
  if (countInRing(base, cap, k) < cu(C_FR_T)) return;
  const floor = maxU(count > w ? count - w : 0, oldest);
  let n: u32 = 0;
  let pos = slotOf(R_SIG, floor);
  for (let i = floor; i <= last; i++) {
    if (load<u32>(base + (<usize>pos << 2)) == k) {
      store<u32>(idx + (<usize>n << 2), i);
      n++;
    }
    pos++;
    if (pos == cap) pos = 0;
  }
  if (n < cu(C_FR_T)) return;
  let progress = repeatProgress(idx, n, false);
  if (freshBetween(n, floor)) progress = progress == P_STALLED ? P_MIXED : P_CHANGING;
  mark(M_FREQ);
  store<u32>(out + O_FR, load<u32>(idx));
  store<u32>(out + O_FR + 4, n);
  store<u32>(out + O_FR + 8, last - floor + 1);
  store<u32>(out + O_FR + 12, progress);
}

// ---- cycle ---------------------------------------------------------------------------------------------

export function detectCycle(): void {
  const last = count - 1;
  const w = cu(C_CY_W);
  const floor = maxU(count > w ? count - w : 0, oldest);
  const available = last - floor + 1;
  const r = (cu(C_FLAGS) & CF_CYCLE_TOOL) != 0 ? R_TOOL : R_SIG;
  const reps = cu(C_CY_R);
  const maxP = cu(C_CY_MAX);
  for (let p = cu(C_CY_MIN); p <= maxP; p++) {
    const need = p * reps;
    if (need > available) break;
    let periodic = true;
    for (let i = last - need + 1; i + p <= last; i++) {
      if (key(r, i) != key(r, i + p)) {
        periodic = false;
        break;
      }
    }
    if (!periodic) continue;
    // the unit must be primitive: no shorter period d dividing p
    let primitive = true;
    for (let d: u32 = 1; d < p && primitive; d++) {
      if (p % d != 0) continue;
      let per = true;
      for (let i = last - p + 1; i + d <= last; i++) {
        if (key(r, i) != key(r, i + d)) {
          per = false;
          break;
        }
      }
      if (per) primitive = false;
    }
    if (!primitive) continue;
    let start = last - need + 1;
    while (start > floor && key(r, start - 1) == key(r, start - 1 + p)) start--;
    const repeats = (last - start + 1) / p;
    mark(M_CYCLE);
    store<u32>(out + O_CY, start);
    store<u32>(out + O_CY + 4, repeats);
    store<u32>(out + O_CY + 8, cycleProgress(last, p, repeats));
    store<u32>(out + O_CY + 12, p);
    return;
  }
}

// ---- semantic (sketch) ---------------------------------------------------------------------------------

function semEntry(i: u32): usize {
  const cap = cu(C_SEM_CAP);
  const next = <u32>load<u16>(slot + S_POS + 12);
  const lastPos = next == 0 ? cap - 1 : next - 1;
  const d = count - 1 - i;
  const p = lastPos >= d ? lastPos - d : lastPos + cap - d;
  return slot + cu(C_OFF_SEM) + (<usize>p << 3);
}

/** leastCommonExact(na, nb, threshold) of detectSemantic's pairs, by na (NEED_UNKNOWN: not yet computed). */
const EXACT_NEEDS: usize = memory.data((MAX_SKETCH_K + 1) * 4);
/** A need no pair has (a need is at most MAX_SKETCH_K, or U32.MAX_VALUE for none); memory.fill's byte 0xfe. */
const NEED_UNKNOWN: u32 = 0xfefefefe;

export function detectSemantic(): void {
  const last = count - 1;
  const cur = semEntry(last);
  const minTok = cu(C_SE_MINTOK);
  if (semCount(load<u32>(cur)) < minTok) return;
  const k = cu(C_SE_K);
  const w = cu(C_SE_W);
  const threshold = load<f64>(cfg + C_SE_THRESH);
  const flags = cu(C_FLAGS);
  const sameTool = (flags & CF_SEM_SAMETOOL) != 0;
  const floor: u32 = last > w ? last - w : 0;
  const semCap = cu(C_SEM_CAP);
  const semBase = slot + cu(C_OFF_SEM);
  const semNext = <u32>load<u16>(slot + S_POS + 12);
  const semLast = semNext == 0 ? semCap - 1 : semNext - 1;
  let pos = semLast >= last - floor ? semLast - (last - floor) : semLast + semCap - (last - floor);
  const needFull = leastCommonFull(k, threshold);
  const lb = semLen(load<u32>(cur));
  // each entry's hashes are in its block (sketch-blocks.ts)
  const curSketch = <usize>load<u32>(cur, 4);
  const nb = semCount(load<u32>(cur));
  // two whole sets' need, leastCommonExact(na, nb, threshold), depends on na alone here: each na's is
  // computed once (most windows hold a few sizes), not once per pair (f64 divisions)
  const wholeSets = nb <= k && k <= MAX_SKETCH_K;
  if (wholeSets) memory.fill(EXACT_NEEDS, 0xfe, <usize>(k + 1) << 2);
  let n: u32 = 0;
  for (let i = floor; i < last; i++, pos = pos + 1 == semCap ? 0 : pos + 1) {
    const e = semBase + (<usize>pos << 3);
    const head = load<u32>(e);
    if (semCount(head) < minTok || (sameTool && !same(R_TOOL, i, last))) continue;
    const la = semLen(head);
    const na = semCount(head);
    let needExact: u32 = 0;
    if (na <= k && nb <= k) {
      needExact = wholeSets ? load<u32>(EXACT_NEEDS + (<usize>na << 2)) : NEED_UNKNOWN;
      if (needExact == NEED_UNKNOWN) {
        needExact = leastCommonExact(na, nb, threshold);
        if (wholeSets) store<u32>(EXACT_NEEDS + (<usize>na << 2), needExact);
      }
      // no count of common tokens reaches the threshold (this also covers the old bound: Jaccard never
      // exceeds the ratio of the smaller set to the larger one); two empty sets are sketchReaches' to judge
      if (needExact == U32.MAX_VALUE && (na | nb) != 0) continue;
    }
    if (sketchReachesNeed(<usize>load<u32>(e, 4), la, na, curSketch, lb, nb, k, threshold, needExact, needFull)) {
      store<u32>(idx + (<usize>n << 2), i);
      n++;
    }
  }
  if (n < cu(C_SE_MINSIM)) return;
  if ((flags & CF_SEM_IDENTICAL) == 0) {
    let allSame = true;
    for (let q: u32 = 0; q < n && allSame; q++) allSame = same(R_SIG, load<u32>(idx + (<usize>q << 2)), last);
    if (allSame) return;
  }
  store<u32>(idx + (<usize>n << 2), last);
  const unitLen = n + 1;
  // progress over the unit's calls still in the history
  let from: u32 = 0;
  while (from < unitLen && load<u32>(idx + (<usize>from << 2)) < oldest) from++;
  const progress = repeatProgress(idx + (<usize>from << 2), unitLen - from, true);
  mark(M_SEMANTIC);
  store<u32>(out + O_SE, load<u32>(idx));
  store<u32>(out + O_SE + 4, n);
  store<u32>(out + O_SE + 8, last - floor);
  store<u32>(out + O_SE + 12, progress);
  store<u32>(out + O_SE + 16, writeList(unitLen));
}

// ---- result repeat -------------------------------------------------------------------------------------

function resultCounts(i: u32): bool {
  const f = flagsOf(i);
  return (f & OF_KNOWN) != 0 && (f & (OF_ERROR | OF_EMPTY)) == 0;
}

export function detectResult(): void {
  const last = count - 1;
  if (!resultCounts(last)) return;
  const w = cu(C_RR_W);
  const floor = maxU(last + 1 > w ? last - w + 1 : 0, oldest);
  const masked = (cu(C_FLAGS) & CF_RESULT_MASKED) != 0;
  let n: u32 = 0;
  for (let i = floor; i < last; i++) {
    if (!resultCounts(i)) continue;
    if (same(R_OUT, i, last) || (masked && same(R_MASKED, i, last))) {
      store<u32>(idx + (<usize>n << 2), i);
      n++;
    }
  }
  const c = n + 1;
  if (c < cu(C_RR_T)) return;
  store<u32>(idx + (<usize>n << 2), last);
  mark(M_RESULT);
  store<u32>(out + O_RR, load<u32>(idx));
  store<u32>(out + O_RR + 4, c);
  store<u32>(out + O_RR + 8, last - floor + 1);
  store<u32>(out + O_RR + 12, writeList(c));
  // the twin of variedSameAnswer (src/detectors/result-repeat.ts) over idx[0, c)
  let sameCount: u32 = 0;
  let varied: u32 = 0;
  if ((flagsOf(last) & (OF_NOTHING | OF_BRIEF)) == 0) {
    for (let k: u32 = 0; k < c; k++) {
      const i = load<u32>(idx + (<usize>k << 2));
      if (i < oldest || !same(R_TOOL, i, last) || !same(R_OUT, i, last)) continue;
      sameCount++;
      if (!same(R_SIG, i, last)) varied = 1;
    }
  }
  store<u32>(out + O_RR_SAME, sameCount);
  store<u32>(out + O_RR_VARIED, varied);
}

// ---- dead end ------------------------------------------------------------------------------------------

function deadCounts(i: u32): bool {
  const f = flagsOf(i);
  return (f & OF_ERROR) != 0 && (f & OF_INFRA) == 0;
}

/**
 * Whether some call failed more than once, and every call that did saw its error change from one failure to
 * the next (by text; by class when it failed back to back).
 */
function sameCallChanged(n: u32): bool {
  let repeated = false;
  // groups by signature: mark members already grouped by setting their top bit in the scratch copy
  for (let a: u32 = 0; a < n; a++) {
    const ia = load<u32>(idx + (<usize>a << 2));
    if ((ia & 0x80000000) != 0) continue;
    let group: u32 = 0;
    let changed = false;
    let prev = ia;
    for (let b = a + 1; b < n; b++) {
      const ib = load<u32>(idx + (<usize>b << 2));
      if ((ib & 0x80000000) != 0) continue;
      if (!same(R_SIG, ia, ib)) continue;
      store<u32>(idx + (<usize>b << 2), ib | 0x80000000);
      group++;
      if (!same(ib == prev + 1 ? R_MASKED : R_ERR, prev, ib)) changed = true;
      prev = ib;
    }
    if (group == 0) continue;
    repeated = true;
    if (!changed) return false;
  }
  return repeated;
}

export function detectDeadEnd(): void {
  const last = count - 1;
  if (!deadCounts(last)) return;
  const w = cu(C_DE_W);
  const floor = maxU(count > w ? count - w : 0, oldest);
  const byClass = (cu(C_FLAGS) & CF_DEAD_CLASS) != 0;
  const r = byClass ? R_MASKED : R_ERR;
  const nothing = byClass ? flagsOf(last) & OF_NOTHING : 0;
  let n: u32 = 0;
  for (let i = floor; i < last; i++) {
    if (deadCounts(i) && (same(r, i, last) || (flagsOf(i) & nothing) != 0)) {
      store<u32>(idx + (<usize>n << 2), i);
      n++;
    }
  }
  const c = n + 1;
  if (c < cu(C_DE_T)) return;
  store<u32>(idx + (<usize>n << 2), last);
  const listAt = writeList(c);
  const changed = sameCallChanged(c);
  mark(M_DEADEND);
  store<u32>(out + O_DE, listAt == 0xffffffff ? 0 : load<u32>(listAt + 4));
  store<u32>(out + O_DE + 4, c);
  store<u32>(out + O_DE + 8, last - floor + 1);
  store<u32>(out + O_DE + 12, changed ? P_CHANGING : P_STALLED);
  store<u32>(out + O_DE + 16, listAt);
}

// ---- state repeat --------------------------------------------------------------------------------------

export function detectState(): void {
  const last = count - 1;
  const w = cu(C_ST_W);
  // the ring's block beside the slot (state-ring.ts), as long as the calls seen or the window
  const base = <usize>load<u32>(slot + cu(C_OFF_STATE));
  const next = <u32>load<u16>(slot + S_STATE_POS);
  const lastPos = next == 0 ? w - 1 : next - 1;
  const key = load<u32>(base + (<usize>lastPos << 2));
  if (key == 0) return;
  let c: u32 = 0;
  let first = last;
  const from: u32 = count > w ? count - w : 0;
  let pos = count > w ? next : 0;
  for (let i = from; i <= last; i++) {
    if (load<u32>(base + (<usize>pos << 2)) == key) {
      c++;
      if (i < first) first = i;
    }
    pos++;
    if (pos == w) pos = 0;
  }
  if (c < cu(C_ST_T)) return;
  mark(M_STATE);
  store<u32>(out + O_ST, first);
  store<u32>(out + O_ST + 4, c);
}

/** Whether any call in the frequency window occurs `threshold` times or more (the is_stuck view). */
export function anyAtThreshold(config: usize, s: usize): bool {
  cfg = config;
  slot = s;
  count = load<u32>(s + S_COUNT);
  const hist = cu(C_HIST_CAP);
  oldest = count > hist ? count - hist : 0;
  ringSetup(R_SIG, C_OFF_SIG, C_CAP_SIG);
  const w = cu(C_FR_W);
  const floor = maxU(count > w ? count - w : 0, oldest);
  for (let i = floor; i < count; i++) {
    let n: u32 = 0;
    for (let j = floor; j < count; j++) if (same(R_SIG, i, j)) n++;
    if (n >= cu(C_FR_T)) return true;
  }
  return false;
}
