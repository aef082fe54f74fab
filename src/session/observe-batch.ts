/**
 * Recording calls of many sessions at once: consecutive calls of WebAssembly sessions go through the
 * module together (one crossing per buffer-full), calls of reference sessions one by one, all in input
 * order, so each session sees its calls exactly as one observe() after another would give them.
 */
import type { LoopSignal, ToolEvent } from '../types.js';
import { type StagedCall, WasmPipeline, runWasmBatch } from '../wasm/wasm-pipeline.js';
import type { Pipeline } from './pipeline.js';

/** One call of a batch: the session's pipeline and the validated, non-exempt event. */
export interface BatchCall {
  readonly pipeline: Pipeline;
  readonly event: ToolEvent;
}

/** Receives each call's signals, or the error it raised, in input order right after the call was recorded. */
export type BatchDone = (k: number, result: readonly LoopSignal[] | Error) => void;

/** Records every call and reports each through `done`; never throws for one call's failure. */
export function observeBatch(calls: readonly BatchCall[], done: BatchDone): void {
  let staged: StagedCall[] = [];
  let firstStaged = 0;
  const flush = (): void => {
    const at = firstStaged;
    runWasmBatch(staged, (k, r) => done(at + k, r));
    staged = [];
  };
  calls.forEach((c, k) => {
    if (c.pipeline instanceof WasmPipeline) {
      let item;
      try {
        item = c.pipeline.stage(c.event);
      } catch (err) {
        flush();
        done(k, asError(err));
        return;
      }
      if (staged.length === 0) firstStaged = k;
      staged.push({ pipeline: c.pipeline, item });
      return;
    }
    flush();
    let r: readonly LoopSignal[] | Error;
    try {
      r = c.pipeline.observe(c.event);
    } catch (err) {
      r = asError(err);
    }
    done(k, r);
  });
  flush();
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
