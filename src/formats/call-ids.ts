/**
 * The tool call ids a transcript has shown, so that a history written into it a second time is read once.
 * Claude Code 2.0 appends a resumed session's history again (new line uuids, the same `message.id` and
 * `tool_use` ids), and a Codex rollout of a resumed or forked session carries the parent's calls with their
 * `call_id`s: the first call of an id is the call, a later one with the same id its replay, and so is a
 * result for a call whose result was already read. Ids are remembered per input (agents make them unique
 * per run), the oldest forgotten past {@link MAX_CALL_IDS}.
 *
 * ```
 *   call(a) -> true     result(a) -> first (answered)     call(a) -> false     result(a) -> replay
 *                                                          (a replayed call)    (its replayed result)
 * ```
 */
import { CappedMap } from './capped-map.js';

/** Call ids an input's reader remembers at most (the oldest is forgotten first). */
export const MAX_CALL_IDS = 65_536;

/** What a result naming an id is: the first for a call read (and the holder given with it), a replayed one, or for no call read. */
export type ResultMeeting<T> = { readonly kind: 'first'; readonly holder: T } | { readonly kind: 'replay' } | { readonly kind: 'unknown' };

const REPLAY = { kind: 'replay' } as const;
const UNKNOWN = { kind: 'unknown' } as const;

/** Call ids met in one input, each with what holds the call (`T`) until its result is read. */
export class CallIds<T> {
  /** id -> the holder while the call waits for its result, null once it has one. */
  private readonly ids: CappedMap<string, T | null>;

  constructor(max: number = MAX_CALL_IDS) {
    this.ids = new CappedMap(max);
  }

  /** Records a call of `id` held by `holder`; false when the id was met before (the call is a replay). */
  call(id: string, holder: T): boolean {
    if (this.ids.has(id)) return false;
    this.ids.set(id, holder);
    return true;
  }

  /** What a result naming `id` is; the first result of a call marks it answered. */
  result(id: string): ResultMeeting<T> {
    const holder = this.ids.get(id);
    if (holder === undefined) return UNKNOWN;
    if (holder === null) return REPLAY;
    this.ids.set(id, null);
    return { kind: 'first', holder };
  }
}
