/**
 * Recording calls of many sessions at once: consecutive calls of WebAssembly sessions go through the
 * module together (one crossing per buffer-full), calls of reference sessions one by one, all in input
 * order, so each session sees its calls exactly as one observe() after another would give them.
 */
import type { LoopSignal, ToolEvent } from '../types.js';
import type { BatchItem } from '../wasm/wasm-core.js';
import { WasmPipeline, runWasmBatch } from '../wasm/wasm-pipeline.js';
import type { Pipeline } from './pipeline.js';

/** Receives each call's signals, or the error it raised, in input order right after the call was recorded. */
export type BatchDone = (k: number, result: readonly LoopSignal[] | Error) => void;

/**
 * Records call k (`events[k]`, validated and not exempt, in the session of `pipelines[k]`) for every k and
 * reports each through `done`, in order; never throws (a failure is reported in the places of the calls
 * it hit).
 */
export function observeBatch(pipelines: readonly Pipeline[], events: readonly ToolEvent[], done: BatchDone): void {
  const staged: WasmPipeline[] = [];
  const items: BatchItem[] = [];
  // this batch's items come from the spare stack above `base`; a batch started from inside `done` (a
  // verdict listener checking another session) takes the ones above ours, and ours are free again once
  // they are flushed
  const base = spareTop;
  let first = 0;
  const flush = (): void => {
    if (items.length === 0) return;
    const at = first;
    let reported = 0;
    try {
      runWasmBatch(staged, items, (k, r) => {
        reported = k + 1;
        done(at + k, r);
      });
    } catch (err) {
      // not one call's failure (those come through done): the calls not yet reported fail with it
      for (let k = reported; k < items.length; k++) done(at + k, asError(err));
    } finally {
      // the spares keep no event alive
      for (const it of items) {
        it.event = NO_EVENT;
        it.args.value = undefined;
      }
      staged.length = 0;
      items.length = 0;
      spareTop = base;
    }
  };
  for (let k = 0; k < events.length; k++) {
    const p = pipelines[k] as Pipeline;
    const e = events[k] as ToolEvent;
    if (p instanceof WasmPipeline) {
      const item = spareTop < MAX_SPARES ? (spare[spareTop] ??= blankItem()) : blankItem();
      try {
        p.stage(e, item);
      } catch (err) {
        flush();
        done(k, asError(err));
        continue;
      }
      spareTop++;
      if (items.length === 0) first = k;
      staged.push(p);
      items.push(item);
      continue;
    }
    flush();
    let r: readonly LoopSignal[] | Error;
    try {
      r = p.observe(e);
    } catch (err) {
      r = asError(err);
    }
    done(k, r);
  }
  flush();
}

/** Batch items kept from batch to batch (a stack: `spare[0..spareTop)` are in use), at most MAX_SPARES. */
const spare: BatchItem[] = [];
let spareTop = 0;
const MAX_SPARES = 4096;
const NO_EVENT: ToolEvent = Object.freeze({ tool: '' });

function blankItem(): BatchItem {
  return { slot: 0, config: 0, event: NO_EVENT, args: { value: undefined, normalised: false, viaHost: false, summarize: false, summaryAt: -1, summaryLength: 0 }, ignore: null, maxDepth: 0, maskResults: false, readsRings: false };
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
