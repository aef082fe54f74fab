/**
 * Roo Code's tool repetition suite as loopwatch cases: RooCodeInc/Roo-Code
 * src/core/tools/__tests__/ToolRepetitionDetector.spec.ts (ToolRepetitionDetector: the same tool with the
 * same parameters, key order aside, more than 3 times in a row is not run and the user is asked; browser
 * scroll actions never count). Kilo Code and Cline carry the same detector and spec. Roo asks the user
 * rather than stopping the run, so its loops must be caught (a warning at least). Also goose's
 * RepetitionInspector (block/goose crates/goose/tests/repetition_inspector_tests.rs), the same idea.
 *
 * Tool calls carry no outcome: both check a call before it runs.
 *
 * Left out: cases that only change the peer's configured limit (1, 2, 5, 0 or negative: loopwatch's own
 * thresholds apply, so each is the default case again), 'should include tool name in the error message'
 * (message wording), 'should handle different tool names with identical serialized JSON' (a mock of the
 * peer's serializer), 'should allow execution of previously problematic tool after reset' and 'should reset
 * internal state after limit is reached' (the peer's counter after it blocked: what follows a block is the
 * loop going on, covered by 'should require reaching the limit again after reset').
 */
import { type PeerCase, type PeerStep, call, times } from '../peer-cases.js';

const FILE = 'RooCodeInc/Roo-Code src/core/tools/__tests__/ToolRepetitionDetector.spec.ts';
const GOOSE = 'block/goose crates/goose/tests/repetition_inspector_tests.rs';
/** Roo's default limit: the 4th identical call in a row is not run. */
const LIMIT = 3;
const REPEATS = 2 * (LIMIT + 1);

const loop = (test: string, steps: PeerStep[], file = FILE): PeerCase => ({ mirrors: `${file}: "${test}"`, loop: true, peerStops: false, steps });
const fine = (test: string, steps: PeerStep[]): PeerCase => ({ mirrors: `${FILE}: "${test}"`, loop: false, peerStops: false, steps });
/**
 * A scroll and the viewport it shows: a scroll repeats because what it shows changes (Roo leaves scrolls
 * out by name, as it judges calls before they run). `at` is the viewport's offset in a live page (a feed
 * whose newest entries arrive as it is read), so scrolling down and back up shows new entries too.
 */
const scroll = (action: 'scroll_down' | 'scroll_up', at: number): PeerStep => call('browser_action', { action }, `viewport at ${at * 600}px: entries ${at * 12 + 1}-${at * 12 + 12} of the feed`);

/** Roo Code's cases, in the order of its spec, then goose's. */
export const ROO_CODE_CASES: readonly PeerCase[] = [
  loop('should default to a limit of 3 if no argument provided', times(REPEATS, call('test-tool'))),
  fine('should allow execution for different tool calls', [call('first-tool'), call('second-tool'), call('third-tool')]),
  fine('should reset the counter when different tool calls are made', [call('same-tool'), call('different-tool'), call('same-tool')]),
  loop('should allow execution when repetition is below limit and block when limit reached', times(REPEATS, call('repeat-tool'))),
  loop('should block execution when repetition reaches the limit', times(REPEATS, call('repeat-tool'))),
  loop('should require reaching the limit again after reset', times(REPEATS + LIMIT, call('repeat-tool'))),
  loop('should handle empty tool call', times(REPEATS, call('empty-tool'))),
  loop('should treat tools with same parameters in different order as identical', times(REPEATS / 2, call('same-tool', { a: '1', b: '2', c: '3' }), call('same-tool', { c: '3', a: '1', b: '2' }))),
  fine('should not count browser scroll_down actions as repetitions', Array.from({ length: 10 }, (_, i) => scroll('scroll_down', i + 1))),
  fine('should not count browser scroll_up actions as repetitions', Array.from({ length: 10 }, (_, i) => scroll('scroll_up', 10 - i))),
  fine('should not count alternating scroll_down and scroll_up as repetitions', Array.from({ length: 5 }, (_, i) => [scroll('scroll_down', 2 * i + 1), scroll('scroll_up', 2 * i + 2)]).flat()),
  loop('should still apply repetition detection to other browser_action types', times(REPEATS, call('browser_action', { action: 'click', coordinate: '[100, 200]' }))),
  loop('should still apply repetition detection to non-browser tools', times(REPEATS, call('read_file', { path: 'test.txt' }))),
  loop('should not interfere with repetition detection of other tools when scroll actions are interspersed', [
    call('execute_command', { command: 'ls' }),
    scroll('scroll_down', 1),
    scroll('scroll_down', 2),
    call('execute_command', { command: 'ls' }),
    ...Array.from({ length: REPEATS - 2 }, (_, i) => [scroll('scroll_down', i + 3), call('execute_command', { command: 'ls' })]).flat(),
  ]),
  loop('should handle browser_action with missing or invalid action parameter gracefully', times(REPEATS, call('browser_action'))),
  fine('should differentiate read_file calls with different files in nativeArgs', [call('read_file', { files: [{ path: 'file1.ts' }] }), call('read_file', { files: [{ path: 'file2.ts' }] }), call('read_file', { files: [{ path: 'file1.ts' }] })]),
  loop('should detect repetition when same files are read multiple times with nativeArgs', times(REPEATS, call('read_file', { files: [{ path: 'same-file.ts' }] }))),
  fine('should differentiate read_file calls with multiple files in different orders', [call('read_file', { files: [{ path: 'a.ts' }, { path: 'b.ts' }] }), call('read_file', { files: [{ path: 'b.ts' }, { path: 'a.ts' }] })]),
  fine('should handle tools with both params and nativeArgs', [call('execute_command', { command: 'ls', cwd: '/home/user' }), call('execute_command', { command: 'ls', cwd: '/home/admin' })]),
  loop('should handle tools with only params (no nativeArgs)', times(REPEATS, call('read_file', { path: 'test.txt' }))),
  loop('test_repetition_inspector_denies_after_exceeding_and_resets_on_param_change', times(REPEATS, call('fetch_user', { id: 123 })), GOOSE),
];
