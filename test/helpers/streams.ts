/**
 * Random event streams and option sets for property tests: awkward strings, JSON text in every number
 * form, retries with one character changed, and streams that repeat a small pool so loops happen.
 */
import fc from 'fast-check';
import type { LoopDetectorOptions, ToolEvent } from '../../src/index.js';

/** Strings with the awkward parts: quotes, escapes, emoji, lone surrogates, non-ASCII, digits, paths. */
export const nasty = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'c', 'find', 'file', 'error', 'test', 'the', 'no result', ' ', '  ', '\n', '\t') },
      { weight: 2, arbitrary: fc.constantFrom('"', "'", '`', '\\', '/', '{', '}', '[', ']', ':', ',', '0', '7', '42', '3.14', 'deadbeef1', '/tmp/x.py') },
      { weight: 2, arbitrary: fc.constantFrom('é', 'ß', '日本', '😀', '\u2028', '\u00a0', '\ufeff', '\u0000', '\u001f') },
      { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 3 }) },
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

/** Numbers as JSON text writes them, including forms the module must hand back to the host. */
export const numberText = fc.oneof(
  fc.constantFrom('0', '-0', '1', '1.0', '1e0', '10e-1', '0.1', '1.5e3', '1500', '-2.50', '123456789012345', '1234567890123456', '12345678901234567890', '1e22', '1e23', '1e-22', '1e-23', '1e400', '-1e-400', '0.000001', '5e-324', '9007199254740993', '0.30000000000000004'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
  fc.integer().map(String),
);

/** JSON text for an object, with whitespace, key order and number forms of our choosing. */
export const jsonText = fc
  .tuple(fc.uniqueArray(fc.constantFrom('path', 'query', 'n', 'id', 'ts', '0', '1', 'opts', 'text'), { minLength: 0, maxLength: 5 }), fc.array(fc.oneof(numberText, nasty.map((s) => JSON.stringify(s)), fc.constantFrom('true', 'false', 'null', '[]', '{}', '[1, "x", {"k": 2}]', '{"deep": {"deeper": [[[1]]]}}')), { minLength: 5, maxLength: 5 }), fc.constantFrom('', ' ', '\n  '), fc.boolean())
  .map(([keys, values, ws, dup]) => {
    const members = keys.map((k, i) => `${ws}${JSON.stringify(k)}${ws}:${ws}${values[i]}`);
    if (dup && keys.length > 0) members.push(`${JSON.stringify(keys[0])}: 7`);
    return `${ws}{${members.join(',')}${ws}}${ws}`;
  });

export const argsValue = fc.oneof(
  { weight: 3, arbitrary: fc.dictionary(fc.constantFrom('path', 'query', 'n', 'id', 'ts', 'nested'), fc.oneof(nasty, fc.integer({ min: -3, max: 3 }), fc.double(), fc.boolean(), fc.constant(null), fc.array(nasty, { maxLength: 3 })), { maxKeys: 4 }) },
  { weight: 3, arbitrary: jsonText },
  { weight: 1, arbitrary: nasty },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('[', '{"unterminated": ', '{"a": 1} trailing', '[1, 2,]', '{"a": 01}', '{"a": "\\x"}', '{"a": "\u0001"}') },
);

/** Failure-looking and ordinary texts that tools put inside a result given as a value. */
const resultWords = fc.oneof(nasty, fc.constantFrom('permission denied: /tmp/x', 'Error: ENOENT: no such file', 'No results found.', 'FAILED tests/a.py::t1', 'Traceback (most recent call last):', 'HTTP 429 Too Many Requests', 'ok', ''));

/**
 * Results given as values, as SDKs hand them over: an object with an output or error field (a string, or
 * nested objects and arrays of strings), or an array of such parts.
 */
export const resultValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    resultWords,
    fc.record({ output: resultWords }, { requiredKeys: [] }),
    fc.record({ output: tie('v'), error: resultWords, exitCode: fc.integer({ min: 0, max: 2 }) }, { requiredKeys: ['output'] }),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('stdout', 'stderr', 'content', 'text', 'type'), tie('v'), { maxKeys: 3 }),
  ),
})).v;

export const event = fc.record(
  {
    tool: fc.constantFrom('bash', 'search', 'read_file', 'edit'),
    args: argsValue,
    result: fc.option(fc.oneof(nasty, fc.constantFrom('No results found.', '0 matches', '   ', '', '[]', 'OK', 'done'), fc.constant(null), fc.constant([]), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }), resultValue), { nil: undefined }),
    error: fc.option(fc.oneof(nasty, fc.constantFrom('HTTP 429 Too Many Requests', 'ModuleNotFoundError: No module named \'x1\'', 'ModuleNotFoundError: No module named \'y2\'', 'ETIMEDOUT', true)), { nil: undefined }),
    text: fc.option(fc.oneof(nasty, fc.constant('Let me try again. '.repeat(12))), { nil: undefined }),
    description: fc.option(fc.constantFrom('read the config', 'read the configuration file', 'write the model'), { nil: undefined }),
    step: fc.option(fc.nat(1000), { nil: undefined }),
    // mostly none; a few turns, so that calls of one turn (parallel calls) come up
    round: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat(3) }),
  },
  { requiredKeys: ['tool'] },
) as fc.Arbitrary<ToolEvent>;

/** The same page, as several paraphrased searches may land on it (more than a brief acknowledgement). */
const PAGE = 'The handleSubmitForm callback validates every field of the user profile page before it posts the form.';

/**
 * Retries with one character changed ("foo", "fo0"), failing, coming back empty or landing on the same
 * page, in both args forms.
 */
export const variant = fc
  .tuple(fc.constantFrom('handleSubmitForm', 'user_profile_page', 'résumé parser'), fc.nat(20), fc.constantFrom('0', 'x', 'é', '😀'), fc.boolean(), fc.constantFrom<'error' | 'nothing' | 'page' | 'none'>('error', 'nothing', 'page', 'none'))
  .map(([base, at, ch, asText, outcome]): ToolEvent => {
    const i = at % base.length;
    const q = base.slice(0, i) + ch + base.slice(i + 1);
    const args = asText ? JSON.stringify({ q, limit: 5 }) : { q, limit: 5 };
    const got = outcome === 'error' ? { error: `No match for '${q}'` } : outcome === 'nothing' ? { result: 'No results found.' } : outcome === 'page' ? { result: PAGE } : {};
    return { tool: 'search', args, ...got };
  });

/**
 * The same call failing with a moving detail (a counter, a line number, a temporary path): several in one
 * pool are one call whose error text differs only by volatile parts, compared by class when back to back.
 */
export const movingError = fc
  .tuple(fc.constantFrom('bash', 'deploy'), fc.nat(60), fc.constantFrom('attempt', 'line', 'tmp'), fc.boolean())
  .map(([tool, n, kind, withResult]): ToolEvent => ({
    tool,
    args: { command: 'run checks' },
    error: kind === 'tmp' ? `crashed in /tmp/tmp${n}x/run.py` : `failed at ${kind} ${n}`,
    ...(withResult ? { result: `log ${n % 3}` } : {}),
  }));

/** Different calls of one tool getting the very same answer (a listing), or a brief acknowledgement. */
export const sameAnswer = fc
  .tuple(fc.constantFrom('ls', 'ls -la', 'ls src/..', 'find . -maxdepth 1', 'ls ./'), fc.constantFrom('listing', 'other', 'ack'))
  .map(([command, kind]): ToolEvent => ({
    tool: 'bash',
    args: { command },
    result: kind === 'ack' ? 'Done.' : `README.md\npackage.json\nsrc/\ntest/\ndocs/\n${kind === 'listing' ? 'bench/' : 'build/'}\nassembly/\nscripts/`,
  }));

/** Different commands of one tool getting the same result given as a value, failure-looking or nested. */
export const sameValueAnswer = fc
  .tuple(fc.constantFrom('ls', 'grep x', 'cat a.txt', 'pwd'), fc.constantFrom<unknown>({ output: 'permission denied: /tmp/x' }, { output: { stderr: 'Error: ENOENT: no such file' }, exitCode: 1 }, [{ type: 'text', text: 'No results found.' }]))
  .map(([command, result]): ToolEvent => ({ tool: 'bash', args: { command }, result }));

/** A stream that repeats events from a small pool, so loops actually happen. */
export const stream = fc
  .tuple(fc.array(fc.oneof(event, variant, movingError, sameAnswer, sameValueAnswer), { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { minLength: 1, maxLength: 40 }))
  .map(([pool, picks]) => picks.map((p) => pool[p % pool.length] as ToolEvent));

/** Property runs, scaled by LOOPWATCH_FC_SCALE for a deeper search (e.g. LOOPWATCH_FC_SCALE=20). */
export const runs = (n: number): number => Math.round(n * Math.max(Number(process.env.LOOPWATCH_FC_SCALE ?? 1) || 1, 0.01));

export const options = fc.record({
  detectors: fc.record({
    exactRepeat: fc.constantFrom(true, { threshold: 2, window: 4 }),
    frequency: fc.constantFrom(true, { threshold: 2, window: 5 }),
    cycle: fc.constantFrom(true, { key: 'tool' as const, window: 10 }, { minPeriod: 2, maxPeriod: 3, repetitions: 3, window: 9 }),
    semantic: fc.constantFrom(true, { sameTool: false, minTokens: 1, countIdentical: true, sketchSize: 4 }, { threshold: 0.3, window: 5, minSimilar: 1, maxTokens: 8, maxTextLength: 40 }, { sameTool: false, includeTool: false, maxTextLength: 40 }),
    similarArgs: fc.constantFrom(true, false, { threshold: 2, window: 3 }),
    resultRepeat: fc.constantFrom(true, { masked: false, threshold: 2, window: 3 }),
    deadEnd: fc.constantFrom(true, { threshold: 2, window: 4, matchClass: false }),
    stateRepeat: fc.constantFrom(true, { threshold: 2, window: 7 }),
    chanting: fc.constantFrom(true, false),
  }),
  normalizeVolatile: fc.boolean(),
  maxDepth: fc.constantFrom(64, 2, 5),
  ignoreFields: fc.constantFrom([], ['ts'], ['id', 'nested']),
  policy: fc.record({ progress: fc.constantFrom('suppress' as const, 'ignore' as const, 'slow' as const), minConfidence: fc.constantFrom(0, 0.5) }),
}) as fc.Arbitrary<LoopDetectorOptions>;

