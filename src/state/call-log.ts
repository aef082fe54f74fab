/**
 * What verdicts say about recent calls: a ring of {@link CallRef}s and short previews, kept by the host
 * beside the fingerprint rings so patterns and messages can name the calls. Bounded by its capacity.
 */
import type { CallRef } from '../types.js';

/** Characters of argument text shown in a call preview. */
export const PREVIEW_ARGS_LENGTH = 80;

/** A compact, single-line preview of a call: `tool {"args":...}`. */
export function previewCall(tool: string, args: unknown): string {
  let text: string;
  if (args === undefined) return tool;
  if (typeof args === 'string') text = args;
  else {
    try {
      text = JSON.stringify(args, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(args);
    } catch {
      text = '[unserialisable args]';
    }
  }
  text = text.replace(/\s+/g, ' ');
  if (text.length > PREVIEW_ARGS_LENGTH) text = text.slice(0, PREVIEW_ARGS_LENGTH - 1) + '…';
  return `${tool} ${text}`;
}

/** Recent call references and previews of one session. */
export class CallLog {
  private readonly refs: (CallRef | undefined)[];
  private readonly previews: (string | undefined)[];
  private n = 0;

  constructor(readonly capacity: number) {
    this.refs = new Array<CallRef | undefined>(capacity);
    this.previews = new Array<string | undefined>(capacity);
  }

  /** Records the call with the next index. */
  push(ref: CallRef, preview: string): void {
    const s = this.n % this.capacity;
    this.refs[s] = ref;
    this.previews[s] = preview;
    this.n++;
  }

  /** The reference of a call, if it is still kept. */
  ref(index: number): CallRef | undefined {
    if (index < 0 || index >= this.n || index < this.n - this.capacity) return undefined;
    return this.refs[index % this.capacity];
  }

  /** The preview of a call, or `call #index` when it is no longer kept. */
  preview(index: number): string {
    if (index < 0 || index >= this.n || index < this.n - this.capacity) return `call #${index}`;
    return this.previews[index % this.capacity] ?? `call #${index}`;
  }

  /** Forgets every call. */
  reset(): void {
    this.n = 0;
    this.refs.fill(undefined);
    this.previews.fill(undefined);
  }
}
