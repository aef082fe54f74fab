/**
 * What each built-in loop kind (and the detector of that name) means, in one line, as docs/detectors.md
 * says it: the report's key (page/legend.ts) shows it beside every kind a report names. Kept apart from
 * the page's DOM code so the library and its tests read it too.
 */
import type { BuiltInLoopKind } from '../types.js';

/** What each built-in kind (and the detector of that name) means, in one line. */
export const KIND_MEANINGS: Readonly<Record<BuiltInLoopKind, string>> = {
  exact_repeat: 'the same call several times in a row',
  frequency: 'the same call several times among the last ones, in a row or not',
  cycle: 'a run of calls repeated back to back (A-B-A-B, A-B-C-A-B-C)',
  semantic: 'calls of one tool whose text says nearly the same thing, without progress',
  similar_args: 'the same tool with nearly the same arguments (foo, fo0, f00), without progress',
  result_repeat: 'calls that keep getting the same result',
  dead_end: 'the same error again and again',
  state_repeat: 'the same call with the same outcome seen again',
  chanting: "the agent's own text repeating a chunk or sentence",
  failing_again: 'the same call failing again and again, other output each time, or call after call failing (a warning only)',
};

/** What `kind` means; a name the built-ins do not use (`constructor` included: own keys only) is a custom detector's. */
export const meaning = (kind: string): string => (Object.hasOwn(KIND_MEANINGS, kind) ? KIND_MEANINGS[kind as BuiltInLoopKind] : 'reported by a custom detector of that name');
