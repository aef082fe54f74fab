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
 * reports each through `done`; never throws for one call's failure.
 */
export function observeBatch(pipelines: readonly Pipeline[], events: readonly ToolEvent[], done: BatchDone): void {
  const staged: WasmPipeline[] = [];
  const items: BatchItem[] = [];
  let first = 0;
  const flush = (): void => {
    if (items.length === 0) return;
    const at = first;
    runWasmBatch(staged, items, (k, r) => done(at + k, r));
    staged.length = 0;
    items.length = 0;
  };
  for (let k = 0; k < events.length; k++) {
    const p = pipelines[k] as Pipeline;
    const e = events[k] as ToolEvent;
    if (p instanceof WasmPipeline) {
      let item: BatchItem;
      try {
        item = p.stage(e);
      } catch (err) {
        flush();
        done(k, asError(err));
        continue;
      }
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

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
