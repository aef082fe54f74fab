/**
 * A rough count of the memory a call read from an input holds while it waits in a scan's batch: its
 * strings' lengths (args, result, error, text, description, tool) plus a little for each value and key.
 * The scan closes a batch once its calls hold {@link MAX_BATCH_BYTES} by this count, so a batch of calls
 * with megabytes of args is a few calls, not `--batch-size` of them (1,024 calls of 1 MB args held a
 * gigabyte before the checker saw the first). It is a bound on memory, not an exact size: V8 keeps
 * Latin-1 strings at a byte a character and others at two, and objects cost what their shape costs.
 */
import { type NodeWeights, valueWeight } from '../../formats/value-weight.js';
import type { ToolEvent } from '../../types.js';

/** Bytes of calls (as {@link eventHeldBytes} counts them) a scan's open batch takes before it is handed over. */
export const MAX_BATCH_BYTES = 16 * 1024 * 1024;

/** What a value, a key or a property is counted besides its characters. */
const NODE_BYTES = 16;

/** A value and a key each NODE_BYTES besides their characters. */
const SCAN_WEIGHTS: NodeWeights = { value: NODE_BYTES, key: NODE_BYTES };

/**
 * About how many bytes `event` holds, counting stopped soon after `stopAt` is passed (the walk over
 * args is then cut short: the caller only needs to know it is past). Values are walked by valueWeight
 * (formats/value-weight.ts, the walk the Codex reader weighs a fork's copy with), with a stack of its
 * own, so deeply nested args cannot overflow the call stack.
 */
export function eventHeldBytes(event: ToolEvent, stopAt: number = MAX_BATCH_BYTES): number {
  let n = NODE_BYTES * 4 + event.tool.length + valueWeight(event.text, SCAN_WEIGHTS) + valueWeight(event.description, SCAN_WEIGHTS);
  n += valueWeight(event.error, SCAN_WEIGHTS, stopAt - n);
  if (n < stopAt) n += valueWeight(event.result, SCAN_WEIGHTS, stopAt - n);
  if (n < stopAt) n += valueWeight(event.args, SCAN_WEIGHTS, stopAt - n);
  return n;
}
