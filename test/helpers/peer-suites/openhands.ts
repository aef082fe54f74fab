/**
 * OpenHands' stuck detector suite as loopwatch cases: All-Hands-AI/OpenHands tests/unit/test_is_stuck.py
 * (StuckDetector, openhands/controller/stuck.py: the same action and observation 4 times; the same action
 * failing 3 times, any errors; the same IPython syntax error 3 times on the same line; the agent saying the
 * same message 3 times with nothing observed between; an (action, observation) pair alternating with
 * another 3 times). OpenHands stops the agent when it is stuck, so its loops must be broken.
 *
 * A user message mid-run is a fresh start (what loopwatch's hooks do on each new prompt); OpenHands in
 * headless mode ignores it. An IPython cell's output is its result (OpenHands reads the traceback in it).
 *
 * Left out: test_is_stuck_context_window_error_loop, ..._with_user_messages, test_is_not_stuck_context_window_
 * error_less_than_ten, ..._in_non_headless (condensation events of OpenHands' own memory, neither a tool call
 * nor the agent's text; the tool calls of ..._with_other_events are kept, below); the second half of
 * test_is_stuck_monologue (the same session, already stuck, not stuck again after an observation);
 * test_is_stuck_delegate_stuck (a mock of the controller).
 */
import { type PeerCase, type PeerStep, call, fail, say, times, user } from '../peer-cases.js';

const FILE = 'All-Hands-AI/OpenHands tests/unit/test_is_stuck.py';
const loop = (test: string, steps: PeerStep[]): PeerCase => ({ mirrors: `${FILE}: "${test}"`, loop: true, peerStops: true, steps });
const fine = (test: string, steps: PeerStep[]): PeerCase => ({ mirrors: `${FILE}: "${test}"`, loop: false, peerStops: false, steps });

const JUPYTER = '\n[Jupyter current working directory: /workspace]\n[Jupyter Python interpreter: /openhands/poetry/bin/python]';
const EDIT_CELL = "edit_file_by_replace(\n    'book_store.py',\n    to_replace=\"\"\"def total(basket):\n    if not basket:\n        return 0\n";

/** The suite's IPython cell failing with `message`: on line 42 each time, or on a moving line with moving blank lines. */
function syntaxErrors(message: string, movingLine: boolean, incidents: number): PeerStep[] {
  return Array.from({ length: incidents }, (_, i) => {
    const line = movingLine ? (i + 1) * 10 : 42;
    const extra = movingLine ? '\n'.repeat(i + 1) : '';
    return call('execute_ipython_cell', { code: EDIT_CELL }, `  Cell In[1], line ${line}\nto_replace="""def largest(min_factor, max_factor):\n            ^\n${message}${extra}${JUPYTER}`);
  });
}

/** The suite's cell printing an unterminated string error, on line 1 each time or on a moving line. */
function unterminated(movingLine: boolean, incidents: number): PeerStep[] {
  return Array.from({ length: incidents }, (_, i) => {
    const line = movingLine ? (i + 1) * 10 : 1;
    return call('execute_ipython_cell', { code: EDIT_CELL }, `print("  Cell In[1], line ${line}\nhello\n       ^\nSyntaxError: unterminated string literal (detected at line ${line})${JUPYTER}`);
  });
}

const ls = (out = ''): PeerStep => call('execute_bash', { command: 'ls' }, out);
const read = (path: string, content: string): PeerStep => call('str_replace_editor', { command: 'view', path }, content);
const FILES = 'file1.txt\nfile2.txt';

/** OpenHands' cases, in the order of its test file. */
export const OPENHANDS_CASES: readonly PeerCase[] = [
  fine('test_history_too_short', [user, ls(FILES)]),
  loop('test_interactive_mode_resets_after_user_message', [...times(4, ls()), user, ...times(4, ls())]),
  loop('test_is_stuck_repeating_action_observation', [...times(2, ls()), user, ...times(6, ls())]),
  loop('test_is_stuck_repeating_action_error', [
    ...[fail('execute_bash', { command: 'invalid_command' }, 'Command not found'), fail('execute_bash', { command: 'invalid_command' }, 'Command still not found or another error')],
    user,
    ...times(3, fail('execute_bash', { command: 'invalid_command' }, 'Different error'), fail('execute_bash', { command: 'invalid_command' }, 'Command not found')),
  ]),
  loop('test_is_stuck_invalid_syntax_error', syntaxErrors('SyntaxError: invalid syntax. Perhaps you forgot a comma?', false, 8)),
  fine('test_is_not_stuck_invalid_syntax_error_random_lines', syntaxErrors('SyntaxError: invalid syntax. Perhaps you forgot a comma?', true, 4)),
  fine('test_is_not_stuck_invalid_syntax_error_only_three_incidents', syntaxErrors('SyntaxError: invalid syntax. Perhaps you forgot a comma?', true, 3)),
  loop('test_is_stuck_incomplete_input_error', syntaxErrors('SyntaxError: incomplete input', false, 8)),
  fine('test_is_not_stuck_incomplete_input_error', syntaxErrors('SyntaxError: incomplete input', true, 4)),
  fine('test_is_not_stuck_ipython_unterminated_string_error_random_lines', unterminated(true, 4)),
  fine('test_is_not_stuck_ipython_unterminated_string_error_only_three_incidents', unterminated(false, 3)),
  loop('test_is_stuck_ipython_unterminated_string_error', unterminated(false, 8)),
  fine(
    'test_is_not_stuck_ipython_syntax_error_not_at_end',
    [
      'This is some additional output',
      'Too much output here on and on',
      'Enough',
      'Last line of output',
    ].map((tail, i) => call('execute_ipython_cell', { code: 'print("hello' }, `print("hello\n       ^\nSyntaxError: unterminated string literal (detected at line ${[1, 1, 3, 2][i]})\n${tail}`)),
  ),
  loop('test_is_stuck_repeating_action_observation_pattern', [user, ...times(2, ls(FILES), read('file1.txt', 'File content')), user, ...times(4, ls(FILES), read('file1.txt', 'File content'))]),
  fine('test_is_stuck_not_stuck', [ls(FILES), read('file1.txt', 'File content'), call('execute_bash', { command: 'pwd' }, '/home/user'), read('file2.txt', 'Another file content'), user, call('execute_bash', { command: 'pwd' }, '/home/user'), read('file2.txt', 'Another file content')]),
  {
    ...loop('test_is_stuck_monologue', [user, say('Hi there!\n'), user, call('execute_bash', { command: 'echo 42' }, '42'), ...times(6, say("I'm doing well, thanks for asking.\n"))]),
    differs: { phases: ['one-phase', 'two-phase'], why: 'missed: a 35-character message said six times as six messages is under chanting\'s 10 repetitions (short chunk) and 60 characters (long sentence)' },
  },
  fine(
    'test_is_not_stuck_context_window_error_with_other_events (its tool calls)',
    Array.from({ length: 9 }, (_, i) => [call('execute_bash', { command: `ls ${i}` }, FILES), ...(i % 2 === 0 ? [read(`file${i}.txt`, `File content ${i}`)] : [])]).flat(),
  ),
];
