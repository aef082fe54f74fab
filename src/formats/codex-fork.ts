/**
 * Codex CLI subagents spawned with `fork_context` (0.107+): the child's rollout opens with its own
 * `session_meta` (`forked_from_id`: the parent's thread), then the parent's rollout copied verbatim (its
 * `session_meta`, turns, calls and outputs, timestamps rewritten to the fork's), then a synthetic
 * `function_call_output` answering the parent's `spawn_agent` call ("You are the newly spawned agent. The
 * prior conversation history was forked from your parent agent. ..."), then the child's own turns. The
 * copied calls are the parent's work, made before the child existed: the hook never sees them as the
 * child's, so the reader passes them over up to that output.
 *
 * A parent that was itself a forked child carries its own fork output in the copy: each copied
 * `session_meta` with a `forked_from_id` adds one more output to wait for, so the copy ends at the last one.
 *
 * The copied lines are held until the fork's output comes (read as the child's own should it never come),
 * at most MAX_FORK_COPY_BYTES of them: a copy that passes it without its end is given up (`full`), its
 * lines read as the child's own, as at the end of a rollout whose copy never ended. Before, a rollout
 * whose copy never ended was held whole (64,000 calls, 59 MB: 302 MB RSS against 159 MB unforked).
 */
import { contentText, isRecord } from './json-value.js';
import { valueWeight } from './value-weight.js';

/**
 * What the held copy of a parent's history may weigh (valueWeight of its lines) before the copy is given
 * up and read as the child's own. The forked rollouts of the real-session sets are 0.4-1.7 MB whole. @default 32 MiB
 */
export const MAX_FORK_COPY_BYTES = 32 * 1024 * 1024;

/** The opening of the output Codex writes into a forked child's history (`FORKED_SPAWN_AGENT_OUTPUT_MESSAGE`). */
export const FORK_OUTPUT_OPENING = 'You are the newly spawned agent.';

/** Whether a `session_meta` payload names the thread it was forked from. */
export function isForked(meta: unknown): boolean {
  return isRecord(meta) && typeof meta.forked_from_id === 'string' && meta.forked_from_id !== '';
}

/** Whether a response item is the synthetic output that ends a forked child's copy of its parent's history. */
export function isForkOutput(item: Record<string, unknown>): boolean {
  if (item.type !== 'function_call_output') return false;
  const text = contentText(item.output);
  return typeof text === 'string' && text.startsWith(FORK_OUTPUT_OPENING);
}

/**
 * The copy of a parent's history at the head of a forked child's rollout, as it is read line by line:
 * `copying` while the lines are the parent's; the lines held, to be read after all should the copy never
 * end (a fork Codex wrote otherwise), so no call is lost.
 */
export class ForkCopy {
  /** Fork outputs still to come before the child's own lines. */
  private waiting = 1;
  /** The copied lines, held. */
  readonly held: unknown[] = [];
  /** What the held lines weigh (valueWeight of their values). */
  private weight = 0;

  /** @param maxBytes what the held lines may weigh before the copy is `full` */
  constructor(private readonly maxBytes: number = MAX_FORK_COPY_BYTES) {}

  /** Whether the copy is still being read. */
  get copying(): boolean {
    return this.waiting > 0;
  }

  /** Whether the held lines weigh more than the cap: the copy is to be given up, its lines read as they are. */
  get full(): boolean {
    return this.weight > this.maxBytes;
  }

  /**
   * Takes one copied line (`value`: the line's parsed value, weighed; `meta`: the payload of a
   * `session_meta` line, `item`: of a response item).
   */
  take(line: unknown, value: unknown, meta: unknown, item: Record<string, unknown> | undefined): void {
    this.held.push(line);
    this.weight += valueWeight(value);
    if (meta !== undefined && isForked(meta)) this.waiting++;
    else if (item !== undefined && isForkOutput(item)) this.waiting--;
  }
}
