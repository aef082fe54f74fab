/**
 * A rough count of the memory a call read from an input holds while it waits in a scan's batch: its
 * strings' lengths (args, result, error, text, description, tool) plus a little for each value and key.
 * The scan closes a batch once its calls hold {@link MAX_BATCH_BYTES} by this count, so a batch of calls
 * with megabytes of args is a few calls, not `--batch-size` of them (1,024 calls of 1 MB args held a
 * gigabyte before the checker saw the first). It is a bound on memory, not an exact size: V8 keeps
 * Latin-1 strings at a byte a character and others at two, and objects cost what their shape costs.
 */
import type { ToolEvent } from '../../types.js';

/** Bytes of calls (as {@link eventHeldBytes} counts them) a scan's open batch takes before it is handed over. */
export const MAX_BATCH_BYTES = 16 * 1024 * 1024;

/** What a value, a key or a property is counted besides its characters. */
const NODE_BYTES = 16;

/**
 * About how many bytes `event` holds, counting stopped soon after `stopAt` is passed (the walk over
 * args is then cut short: the caller only needs to know it is past). Values are walked with a stack of
 * their own, so deeply nested args cannot overflow the call stack.
 */
export function eventHeldBytes(event: ToolEvent, stopAt: number = MAX_BATCH_BYTES): number {
  let n = NODE_BYTES * 4 + event.tool.length + sizeOf(event.text) + sizeOf(event.description);
  n += valueBytes(event.error, stopAt - n);
  if (n < stopAt) n += valueBytes(event.result, stopAt - n);
  if (n < stopAt) n += valueBytes(event.args, stopAt - n);
  return n;
}

/** A scalar's bytes: a string's length and its node. */
function sizeOf(v: unknown): number {
  return typeof v === 'string' ? NODE_BYTES + v.length : NODE_BYTES;
}

/** The bytes of `root` and everything under it, stopping once past `stopAt`. */
function valueBytes(root: unknown, stopAt: number): number {
  if (root === null || typeof root !== 'object') return sizeOf(root);
  let n = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0 && n < stopAt) {
    const v = stack.pop();
    n += NODE_BYTES;
    if (typeof v === 'string') n += v.length;
    else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) stack.push(v[i]);
    else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        n += NODE_BYTES + k.length;
        stack.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return n;
}
