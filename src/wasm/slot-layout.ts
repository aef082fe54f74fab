/**
 * What a session slot in linear memory holds for a given configuration, and the config-table entry that
 * tells the module: which detectors run, their thresholds, and each ring's capacity and offset. A ring is
 * only as long as the longest window that reads it (and absent when none does), so a slot holds no more
 * than its detectors need: 236 bytes for exact repeat + frequency + cycle + result repeat at their defaults.
 *
 * ```
 *  slot: [count | config | state | next]  sig[capSig]  tool[capTool]  outcome[capOut]  masked[capMasked]
 *        error[capErr]  state ring [block | capacity]  flags[capOut] (bytes)  semantic entries[semCap]
 *        semantic entry: [tokens << 7 | sketch length]  [block]     (u32 each: assembly/sem-entry.ts)
 *        sketch block (beside the slot): hash[sketch length]          (assembly/sketch-blocks.ts)
 * ```
 * State repeat's ring of keys lives in a block beside the slot, as long as the calls seen (assembly/
 * state-ring.ts). A snapshot or an undo copy holds the slot in its saved form, the ring's window of keys
 * in place of the block's address and each semantic entry's head word as two, tokens and sketch length,
 * with room for k hashes after it (`savedSize` bytes; src/wasm/state-block.ts): the form of every snapshot
 * format. Semantic's hashes live in blocks beside the slot, as long as each sketch (assembly/sketch-blocks.ts).
 */
import type { ResolvedOptions } from '../options/options.js';
import { historyCapacity } from '../session/build-detectors.js';
import * as A from './generated/abi.js';

/** A slot layout and the config fields that describe it. */
export interface SlotLayout {
  /** Bytes per slot. */
  readonly slotSize: number;
  /** u32 config fields by byte offset (f64 fields separately). */
  readonly fields: ReadonlyMap<number, number>;
  /** The semantic threshold (an f64 field). */
  readonly semanticThreshold: number;
  /** Whether the module runs the semantic detector (sketch method). */
  readonly semanticInModule: boolean;
  /** Ring capacities and offsets, by ring id (Ring.SIG ... Ring.ERROR), for the host's history view. */
  readonly rings: readonly { readonly cap: number; readonly off: number }[];
  /** Offset and capacity of the outcome-flags bytes. */
  readonly flagsOff: number;
  /** History capacity (the `oldest` the detectors floor at). */
  readonly histCap: number;
  /** Bytes of unit lists one event can produce at most. */
  readonly listBytes: number;
  /** Offset of the state ring's [block | capacity] words in the slot (0 when state repeat is off). */
  readonly stateOff: number;
  /** Keys the state ring holds at most: state repeat's window (0 when it is off). */
  readonly stateWindow: number;
  /** Bytes of the slot in its saved form (snapshots, undo): the state ring's keys in place of its two words. */
  readonly savedSize: number;
  /** Bytes the state ring's block takes at its full window (its size class; 0 when state repeat is off). */
  readonly stateBlockBytes: number;
  /** Bytes semantic's sketch blocks take at most, every entry's sketch k hashes long (0 when the module runs no semantic). */
  readonly sketchBlockBytes: number;
  /**
   * Semantic's ring of entries in the module: offset in the live slot, capacity (0 when off), bytes an
   * entry (a head word and its sketch block's address: assembly/sem-entry.ts), offset and bytes an entry in
   * the saved form (the head as two words, count and length, then k hashes), sketch size.
   */
  readonly semantic: {
    readonly off: number;
    readonly cap: number;
    readonly entryBytes: number;
    readonly savedOff: number;
    readonly savedEntryBytes: number;
    readonly k: number;
  };
}

const align = (n: number, a: number): number => Math.ceil(n / a) * a;

/**
 * Bytes a slot (or a block beside one) of `size` bytes takes: its size class (`assembly/slots.ts`: multiples
 * of 64 bytes up to 4 KiB, of 128 bytes up to 8 KiB, of 512 bytes up to 16 KiB, then powers of two).
 */
export function slotClassBytes(size: number): number {
  if (size <= 4096) return Math.ceil(size / 64) * 64;
  if (size <= 8192) return 4096 + Math.ceil((size - 4096) / 128) * 128;
  if (size <= 16384) return 8192 + Math.ceil((size - 8192) / 512) * 512;
  let s = 16384;
  while (s < size) s *= 2;
  return s;
}

const layouts = new WeakMap<ResolvedOptions, SlotLayout>();

/**
 * Remembers the layout object to hand out for these options: the one the core registered, which every
 * session of the same configuration shares, so a session keeps no layout of its own.
 */
export function shareLayout(o: ResolvedOptions, layout: SlotLayout): void {
  layouts.set(o, layout);
}

/** Lays out a slot for resolved options (once per options object: sessions sharing options share it). */
export function slotLayout(o: ResolvedOptions): SlotLayout {
  let l = layouts.get(o);
  if (l === undefined) {
    l = layOut(o);
    layouts.set(o, l);
  }
  return l;
}

function layOut(o: ResolvedOptions): SlotLayout {
  const d = o.detectors;
  const semW = d.semantic ? d.semantic.window + 1 : 0;
  const simW = d.similarArgs ? d.similarArgs.window + 1 : 0;
  const cycleCall = d.cycle !== null && d.cycle.key === 'call';
  const cycleTool = d.cycle !== null && d.cycle.key === 'tool';
  // result repeat reads the signatures and tools of its window (varied calls of one tool, same answer)
  const rrW = d.resultRepeat?.window ?? 0;
  // calibrate's recorded wall length (src/calibrate/record-signals.ts, WALL_RECORDED calls at most) compares
  // the tools and masked outcomes of the calls before a proposal back to the history's oldest call
  const wallCap = d.deadEnd === null ? 0 : historyCapacity(d);
  // two-phase evidence (src/live/evidence.ts) compares signatures over the whole readable history
  const capSig = Math.max(d.exactRepeat?.window ?? 0, d.frequency?.window ?? 0, cycleCall ? (d.cycle?.window ?? 0) : 0, semW, simW, d.deadEnd?.window ?? 0, rrW, historyCapacity(d));
  // a dead end's wall (src/live/dead-end-wall.ts) compares the tools of the dead end's threshold calls before a proposal
  const capTool = Math.max(cycleTool ? (d.cycle?.window ?? 0) : 0, d.semantic?.sameTool === true ? semW : 0, simW, rrW, d.deadEnd?.window ?? 0, wallCap);
  const capOut = Math.max(1, d.exactRepeat?.window ?? 0, d.frequency?.window ?? 0, d.cycle?.window ?? 0, semW, simW, d.resultRepeat?.window ?? 0, d.deadEnd?.window ?? 0);
  // error classes are also read by the progress of repeated calls (failures with nothing done between
  // compare by class): every detector that reports progress over identical calls needs them
  const capMasked = Math.max(d.resultRepeat?.masked === true ? d.resultRepeat.window : 0, d.deadEnd?.window ?? 0, semW, simW, d.exactRepeat?.window ?? 0, d.frequency?.window ?? 0, d.cycle?.window ?? 0, wallCap);
  const capErr = d.deadEnd?.window ?? 0;
  const stateW = d.stateRepeat?.window ?? 0;
  const semanticInModule = d.semantic !== null && d.semantic.method === 'sketch';
  const k = d.semantic?.sketchSize ?? 0;
  // live: one head word and its block's address (assembly/sem-entry.ts); saved: the head as two words, then k hashes
  const semEntry = semanticInModule ? A.SEM_ENTRY_LIVE : 0;
  const savedSemEntry = semanticInModule ? 8 + 4 * k : 0;
  const semCap = semanticInModule ? semW : 0;

  let off = A.SLOT_HEADER;
  const place = (bytes: number): number => {
    const at = off;
    off += align(bytes, 4);
    return at;
  };
  const offSig = place(capSig * 4);
  const offTool = place(capTool * 4);
  const offOut = place(capOut * 4);
  const offMasked = place(capMasked * 4);
  const offErr = place(capErr * 4);
  // the ring's block address and capacity (assembly/state-ring.ts)
  const offState = place(stateW === 0 ? 0 : 8);
  const offFlags = place(capOut);
  const offSem = place(semCap * semEntry);
  const slotSize = align(off, 16);
  // the saved form holds the ring's keys where the two words are, and each semantic entry's head as two words
  const stateShift = stateW === 0 ? 0 : stateW * 4 - 8;
  const savedSize = align(off + stateShift + semCap * (savedSemEntry - semEntry), 16);

  let flags = 0;
  if (d.exactRepeat) flags |= A.CF_EXACT;
  if (d.frequency) flags |= A.CF_FREQ;
  if (d.cycle) flags |= A.CF_CYCLE | (cycleTool ? A.CF_CYCLE_TOOL : 0);
  if (semanticInModule) flags |= A.CF_SEMANTIC;
  if (d.semantic?.sameTool) flags |= A.CF_SEM_SAMETOOL;
  if (d.semantic?.countIdentical) flags |= A.CF_SEM_IDENTICAL;
  if (d.semantic?.includeTool === false) flags |= A.CF_SEM_NOTOOL;
  if (d.semantic?.method === 'exact') flags |= A.CF_SEM_EXACT;
  if (d.resultRepeat) flags |= A.CF_RESULT | (d.resultRepeat.masked ? A.CF_RESULT_MASKED : 0);
  if (d.deadEnd) flags |= A.CF_DEADEND | (d.deadEnd.matchClass ? A.CF_DEAD_CLASS : 0);
  if (d.stateRepeat) flags |= A.CF_STATE;
  if (o.normalizeVolatile) flags |= A.CF_MASK_TEXT;
  if (readsAnswers(d)) flags |= A.CF_ANSWERS;

  const histCap = historyCapacity(d);
  const f = new Map<number, number>([
    [A.C_FLAGS, flags],
    [A.C_EX_T, d.exactRepeat?.threshold ?? 0],
    [A.C_EX_W, d.exactRepeat?.window ?? 0],
    [A.C_FR_T, d.frequency?.threshold ?? 0],
    [A.C_FR_W, d.frequency?.window ?? 0],
    [A.C_CY_MIN, d.cycle?.minPeriod ?? 0],
    [A.C_CY_MAX, d.cycle?.maxPeriod ?? 0],
    [A.C_CY_R, d.cycle?.repetitions ?? 0],
    [A.C_CY_W, d.cycle?.window ?? 0],
    [A.C_SE_W, d.semantic?.window ?? 0],
    [A.C_SE_MINSIM, d.semantic?.minSimilar ?? 0],
    [A.C_SE_MAXTOK, semanticInModule ? (d.semantic?.maxTokens ?? 0) : 0],
    [A.C_SE_MAXTEXT, semanticInModule ? (d.semantic?.maxTextLength ?? 0) : 0],
    [A.C_SE_MINTOK, d.semantic?.minTokens ?? 0],
    [A.C_SE_K, k],
    [A.C_RR_T, d.resultRepeat?.threshold ?? 0],
    [A.C_RR_W, d.resultRepeat?.window ?? 0],
    [A.C_DE_T, d.deadEnd?.threshold ?? 0],
    [A.C_DE_W, d.deadEnd?.window ?? 0],
    [A.C_ST_T, d.stateRepeat?.threshold ?? 0],
    [A.C_ST_W, stateW],
    [A.C_MAXDEPTH, o.maxDepth],
    [A.C_SLOT_SIZE, slotSize],
    [A.C_CAP_SIG, capSig],
    [A.C_CAP_TOOL, capTool],
    [A.C_CAP_OUT, capOut],
    [A.C_CAP_MASKED, capMasked],
    [A.C_CAP_ERR, capErr],
    [A.C_OFF_SIG, offSig],
    [A.C_OFF_TOOL, offTool],
    [A.C_OFF_OUT, offOut],
    [A.C_OFF_FLAGS, offFlags],
    [A.C_OFF_MASKED, offMasked],
    [A.C_OFF_ERR, offErr],
    [A.C_OFF_STATE, offState],
    [A.C_OFF_SEM, offSem],
    [A.C_SEM_ENTRY, semEntry],
    [A.C_SEM_CAP, semCap],
    [A.C_HIST_CAP, histCap],
    [A.C_CHUNK, Math.max(4, Math.min(256, Math.floor(16384 / slotSize)))],
  ]);
  return {
    slotSize,
    fields: f,
    semanticThreshold: d.semantic?.threshold ?? 0,
    semanticInModule,
    rings: [
      { cap: capSig, off: offSig },
      { cap: capTool, off: offTool },
      { cap: capOut, off: offOut },
      { cap: capMasked, off: offMasked },
      { cap: capErr, off: offErr },
    ],
    flagsOff: offFlags,
    histCap,
    listBytes: 4 * (semW + 1 + (d.resultRepeat?.window ?? 0) + 1 + (d.deadEnd?.window ?? 0) + 1 + 3),
    stateOff: stateW === 0 ? 0 : offState,
    stateWindow: stateW,
    savedSize,
    stateBlockBytes: stateW === 0 ? 0 : slotClassBytes(stateW * 4),
    sketchBlockBytes: semCap * 8 * Math.ceil(k / 2),
    semantic: { off: offSem, cap: semCap, entryBytes: semEntry, savedOff: offSem + stateShift, savedEntryBytes: savedSemEntry, k },
  };
}

/**
 * Whether some detector reads what a result says, the NOTHING and BRIEF outcome flags: the progress of
 * similar calls (semantic, similar args), result repeat's varied calls, dead end by error class. Without
 * one, the module skips the "nothing found" and brief scans of every result (no verdict can change).
 */
export function readsAnswers(d: ResolvedOptions['detectors']): boolean {
  return d.semantic !== null || d.similarArgs !== null || d.resultRepeat !== null || d.deadEnd?.matchClass === true;
}

/** A key identifying layouts that can share one config-table entry (a chanting region's too). */
export function layoutKey(l: Pick<SlotLayout, 'fields' | 'semanticThreshold'>): string {
  return `${[...l.fields.entries()].map(([k, v]) => `${k}:${v}`).join(',')};${l.semanticThreshold}`;
}
