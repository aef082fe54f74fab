/**
 * error-reading.ts's quick test (MAY_SAY, issue 29): an error text without any of its words is read as saying
 * none of isDeclined, needsPerson, isTurnRejection, refusedArgs, editTextNotFound, without asking their 36 expressions. Every
 * pattern is held to an example it matches, which the quick test passes; errorBits is held to
 * errorBitsUnscreened on random texts made of those examples, their pieces and other words (past SAYS_LOOK
 * too), in either case, and on every error text of the real traces (skipped without ../shared), where most
 * texts are screened out.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAY_SAY, SAYS_LOOK, errorBits, errorBitsUnscreened } from '../src/text/error-reading.js';
import { EDIT_MISMATCH_PATTERNS } from '../src/text/edit-mismatch.js';
import { DECLINE_PATTERNS, NEEDS_PERSON_PATTERNS } from '../src/text/failure-kinds.js';
import { INVALID_ARGS_PATTERNS } from '../src/text/invalid-args.js';
import { REJECTION_PATTERNS } from '../src/text/turn-rejection.js';
import { traceCalls, traceDir } from './helpers/traces.js';

/** An example each pattern matches, in the lists' order. */
const EXAMPLES: readonly [readonly RegExp[], readonly string[]][] = [
  [
    DECLINE_PATTERNS,
    [
      "The user doesn't want to proceed with this tool use.",
      'Permission for this tool use was denied.',
      'Tool use was rejected by the user',
      '[Request interrupted by user for tool use]',
      'User denied the execution',
      'user_rejected',
      'exec command rejected by user',
      'aborted by user after 3.2s',
      '<tool_use_error>Sibling tool call errored</tool_use_error>',
    ],
  ],
  [
    NEEDS_PERSON_PATTERNS,
    [
      'Error: not authorized to push',
      '401 Unauthorized',
      'authentication required',
      'Please log in first',
      'Tool execution denied by policy.',
      'Permission to use Bash with command rm -rf x has been denied.',
      "Claude requested permissions to write to /a/notes.md, but you haven't granted it yet.",
      'sed command requires approval (contains potentially dangerous operations)',
      'Commands that change directories and perform write operations require explicit approval to ensure paths are evaluated correctly.',
    ],
  ],
  [
    REJECTION_PATTERNS,
    [
      'Please provide exactly one action.',
      'Your last output was not formatted correctly.',
      'Could not parse the LLM output',
      "Invalid format: missing 'action'",
      'No valid tool call found in your response',
      'Tool "replace" not found in registry.',
    ],
  ],
  [
    INVALID_ARGS_PATTERNS,
    [
      '/path must NOT have more than 16 characters',
      '1 validation error for Edit',
      'Input should be a valid string',
      'Expected string, received number',
      'missing 1 required positional argument',
      "got an unexpected keyword argument 'x'",
      'failed to parse function arguments: invalid type',
      'Invalid params',
      "invalid hunk at line 4, '' is not a valid hunk header",
      "Invalid patch: The last line of the patch must be '*** End Patch'",
    ],
  ],
  [
    EDIT_MISMATCH_PATTERNS,
    [
      'String to replace not found in file.',
      'apply_patch verification failed: Failed to find expected lines in /a.go',
      'Failed to edit, could not find the string to replace.',
      'Failed to edit, 0 occurrences found for old_string in a.ts',
      'No replacement was performed, old_str `x` did not appear verbatim in /a.py.',
    ],
  ],
];

const ALL_EXAMPLES = EXAMPLES.flatMap(([, xs]) => xs);

describe("errorBits' quick test", () => {
  it('should pass an example of every pattern of the five recognisers', () => {
    for (const [patterns, examples] of EXAMPLES) {
      expect(examples).toHaveLength(patterns.length);
      patterns.forEach((p, i) => {
        const x = examples[i] as string;
        expect(p.test(x), `${p} on ${x}`).toBe(true);
        expect(MAY_SAY.test(x), x).toBe(true);
        // and in another case, as the /i patterns read it
        if (p.flags.includes('i')) expect(MAY_SAY.test(x.toUpperCase())).toBe(true);
      });
    }
  });

  it('should give errorBitsUnscreened on random texts, short and past SAYS_LOOK', () => {
    const words = fc.constantFrom(...ALL_EXAMPLES, ...ALL_EXAMPLES.flatMap((x) => x.split(' ')), 'Traceback (most recent call last):', 'command not found', 'exit code 1', '\n', ' ', 'é', 'ſ', 'K');
    const piece = fc.oneof(words, fc.string({ maxLength: 6 }), words.map((w) => w.toUpperCase()));
    const pad = fc.constantFrom(0, SAYS_LOOK - 20, SAYS_LOOK - 3, SAYS_LOOK + 5);
    fc.assert(
      fc.property(pad, fc.array(piece, { maxLength: 10 }), fc.boolean(), (n, parts, infra) => {
        const text = 'x'.repeat(n) + parts.join(' ');
        expect(errorBits(text, infra)).toBe(errorBitsUnscreened(text, infra));
        expect(errorBits(text)).toBe(errorBitsUnscreened(text));
      }),
      { numRuns: 1500 },
    );
  });

  it.skipIf(traceDir === null)('should give errorBitsUnscreened of every error of the real traces, most of them screened out', () => {
    const errors = new Set<string>();
    for (const [, e] of traceCalls()) if (typeof e.error === 'string') errors.add(e.error);
    let screened = 0;
    for (const error of errors) {
      expect(errorBits(error)).toBe(errorBitsUnscreened(error));
      if (!MAY_SAY.test(error.slice(0, SAYS_LOOK))) screened++;
    }
    expect(errors.size).toBeGreaterThan(0);
    expect(screened).toBeGreaterThan(errors.size / 2);
  });
});
