/**
 * A write refused until its file is read, answered by a read, is no repetition of the agent's own (quiet24,
 * quiet34). Claude Code refuses a Write or Edit of a file the session has not read ("File has not been read
 * yet. Read it first before writing to it."), often after a compaction, of files read before it; the agent
 * reads the file and sends the write again. The refusal named its condition and the read met it: the write
 * sent after the read is the one the harness asked for, not the refused one pushed again.
 *
 * ```
 *   Write f ✗   Glob   Write f ✗   ls   Read f   Write f ?     two refusals answered by the read: no repeat
 *   Write f ✗   Write f ✗   Write f ✗   Write f ?             no read between: the same write pushed, kept
 *   Write f ✗   Read f   Write f ✗   Read f   Write f ?       refused again after the read: a wall, kept
 * ```
 *
 * Used by the dead end's own failures (evidence-screen.ts's fewOwnFailures) and by the same call counted often
 * (frequency: {@link fewOwnResends}). Reads only what the host keeps (CallFact bits and targets): both engines
 * alike.
 */
import { CallFact } from './call-facts.js';
import type { ScreenFacts } from './screen-facts.js';

/**
 * Whether the failed write at `i` was answered by a look at its file: a read of that file (a read tool's
 * content, its target: read-target.ts) after it and before `latest`, with no write of the file failing
 * after that read, up to `latest` included. A write failing again on the file after the read (the read did
 * not help: "File has been unexpectedly modified. Read it again" after each read) is a wall, as is a write
 * retried with no read between. A refusal of the args (a patch's form, an edit's old text not in the file:
 * CallFact.INVALID_ARGS) is answered by a write that applies (formSlipsAnswered), not by a look.
 */
export function writeLookedAt(facts: ScreenFacts, i: number, latest: number): boolean {
  const f = facts.of(i);
  if ((f & (CallFact.FAILED | CallFact.WRITE | CallFact.INVALID_ARGS)) !== (CallFact.FAILED | CallFact.WRITE)) return false;
  const file = facts.targetOf(i);
  if (file === 0) return false;
  for (let c = latest; c > i; c--) {
    if (facts.targetOf(c) !== file) continue;
    const g = facts.of(c);
    if ((g & (CallFact.FAILED | CallFact.WRITE)) === (CallFact.FAILED | CallFact.WRITE)) return false;
    if (c < latest && (g & (CallFact.FAILED | CallFact.WRITE | CallFact.WAITING | CallFact.PROPOSED)) === 0) return true;
  }
  return false;
}

/**
 * Whether the repetitions `reps` of one call (ascending, the call at `index` the latest) are fewer than `need`
 * once the writes among them answered by a look at their file ({@link writeLookedAt}, up to `index`) are left
 * out: the write resent after the read its refusal asked for repeats nothing of the agent's own. The call at
 * `index` always counts.
 */
export function fewOwnResends(facts: ScreenFacts, reps: readonly number[], index: number, need: number): boolean {
  let own = 0;
  for (const i of reps) if (i === index || !writeLookedAt(facts, i, index)) own++;
  return own < need;
}
