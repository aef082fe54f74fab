/**
 * What a failed call's error text says, as the outcome facts read it (src/policy/outcome-facts.ts): an
 * infrastructure failure, a person's decline or interruption, a failure for want of a person, a turn the
 * harness rejected, args the tool refused, and an edit whose old text is not in its file. (Whether it says nothing but that it failed, failedSilently,
 * is not read here: it reads the result too, and the outcome facts ask it only of a failure with a short
 * result or none.) Each is a function of the text alone, and a failing
 * loop fails alike (61% of the traces' failed calls repeat an earlier call's error text), so each distinct
 * text is read once: found by a key the engine's module computes as it hashes the error anyway
 * (module-reading.ts), then compared (keyed-text-cache.ts). Every recogniser reads the text's first {@link ERROR_LOOK} characters
 * alone, so that is all a reading keeps and compares (a copy: the rest of a long error is never kept alive).
 * The cache is bounded ({@link ERROR_CACHE_CHARS} characters, {@link ERROR_CACHE_ENTRIES} texts, direct-mapped:
 * a new text replaces the one in its slot; past the characters it starts again empty).
 */
import { KIND_LOOK, isDeclined, needsPerson } from './failure-kinds.js';
import { INFRA_LOOK, isInfraFailure } from './infra-failure.js';
import { EDIT_MISMATCH_LOOK, editTextNotFound } from './edit-mismatch.js';
import { INVALID_ARGS_LOOK, refusedArgs } from './invalid-args.js';
import { KeyedTextCache } from './keyed-text-cache.js';
import { REJECTION_LOOK, isTurnRejection } from './turn-rejection.js';

/** {@link errorBits}' bit: an infrastructure failure (infra-failure.ts). */
export const ERR_INFRA = 1;
/** {@link errorBits}' bit: the person declined or interrupted the call (failure-kinds.ts's isDeclined). */
export const ERR_DECLINED = 2;
/** {@link errorBits}' bit: the call needs a person to grant access (failure-kinds.ts's needsPerson). */
export const ERR_NEEDS_PERSON = 4;
/** {@link errorBits}' bit: the harness rejected the turn (turn-rejection.ts). */
export const ERR_REJECTED = 8;
/** {@link errorBits}' bit: the tool refused the call's args (invalid-args.ts). */
export const ERR_INVALID_ARGS = 32;
/** {@link errorBits}' bit: an edit's old text is not in its file (edit-mismatch.ts). */
export const ERR_EDIT_MISMATCH = 64;

/** Characters of an error text any recogniser reads (the most of their caps). */
export const ERROR_LOOK = Math.max(INFRA_LOOK, KIND_LOOK, REJECTION_LOOK, INVALID_ARGS_LOOK, EDIT_MISMATCH_LOOK);
/** Characters of error texts the cache keeps at most (about 1 MB). */
export const ERROR_CACHE_CHARS = 1 << 19;
/** Error texts the cache keeps at most. */
export const ERROR_CACHE_ENTRIES = 1024;

/** Error readings: each text's first ERROR_LOOK characters, and its ERR_ bits. */
const cache = new KeyedTextCache<number>(ERROR_CACHE_CHARS, ERROR_CACHE_ENTRIES);

/** Characters of an error text the recognisers but the infrastructure's read (the most of their caps). */
export const SAYS_LOOK = Math.max(KIND_LOOK, REJECTION_LOOK, INVALID_ARGS_LOOK, EDIT_MISMATCH_LOOK);

/**
 * A quick test on an error's first {@link SAYS_LOOK} characters (issue 29): every pattern of isDeclined,
 * needsPerson, isTurnRejection, refusedArgs and editTextNotFound holds one of these words (case-insensitively, as the patterns
 * read or more widely: `Input`), so a text without any says none of them, at one scan instead of 36
 * expressions' (most failures: a traceback, `command not found`, a test's output). test/policy-error-screen.test.ts
 * holds each pattern to a word and errorBits to {@link errorBitsUnscreened}.
 */
export const MAY_SAY = /want|denied|granted|approval|user|cancel|interrupted|aborted|sibling|auth|logged|required|please|exactly|your|parse|found\s+in|regist|must|validation|input|received|unexpected|invalid|replace|expected\s+lines|occurrences|verbatim/i;

/** What an error text says, as ERR_ bits; `infra`: whether it is an infrastructure failure, when the caller knows. */
export function errorBits(error: string, infra = isInfraFailure(error)): number {
  if (!MAY_SAY.test(error.length > SAYS_LOOK ? error.slice(0, SAYS_LOOK) : error)) return infra ? ERR_INFRA : 0;
  return errorBitsUnscreened(error, infra);
}

/** {@link errorBits} without its quick test: each recogniser asked (the specification errorBits is held to). */
export function errorBitsUnscreened(error: string, infra = isInfraFailure(error)): number {
  return (
    (infra ? ERR_INFRA : 0) |
    (isDeclined(error) ? ERR_DECLINED : 0) |
    (needsPerson(error) ? ERR_NEEDS_PERSON : 0) |
    (isTurnRejection(error) ? ERR_REJECTED : 0) |
    (refusedArgs(error) ? ERR_INVALID_ARGS : 0) |
    (editTextNotFound(error) ? ERR_EDIT_MISMATCH : 0)
  );
}

/**
 * {@link errorBits} of `error`, read once per distinct text: `key` is the engine module's key of the text
 * (module-reading.ts's errorKey), `infra` what the record writer found of it, `maySay` the module's screen of
 * it (module-reading.ts's errorMaySay): false, the text holds none of {@link MAY_SAY}'s words (error-screen.ts),
 * so it says nothing but what `infra` says, read without the cache.
 */
export function readError(error: string, key: number, infra: boolean, maySay = true): number {
  if (!maySay) return infra ? ERR_INFRA : 0;
  const known = cache.get(key);
  // the same first ERROR_LOOK characters read the same, whatever follows them
  if (known !== undefined && (error.length > ERROR_LOOK ? known.text.length === ERROR_LOOK && error.startsWith(known.text) : known.text === error)) return known.value;
  const bits = errorBits(error, infra);
  // a head cut from a longer error is made flat, then cut: a copy, never a view of the whole
  cache.set(key, error.length > ERROR_LOOK ? `${error.slice(0, ERROR_LOOK)} `.slice(0, -1) : error, bits);
  return bits;
}

/** Error texts the cache holds now (at most ERROR_CACHE_ENTRIES), and their characters (at most ERROR_CACHE_CHARS). */
export function errorCacheSize(): { entries: number; chars: number } {
  return cache.size();
}
