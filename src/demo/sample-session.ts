/**
 * A recorded agent session, written for the demo: a coding agent fixing a date-parsing bug. It explores,
 * edits and re-runs tests (legitimate repetition), then gets stuck: the same failing edit with varying
 * arguments, a read/edit oscillation, and the same test run with the same failure.
 */
import type { ToolEvent } from '../types.js';

const REPO = '/workspace/calendar';

function view(path: string, body: string): ToolEvent {
  return { tool: 'str_replace_editor', args: { command: 'view', path: `${REPO}/${path}` }, result: `Here's the result of running \`cat -n\` on ${REPO}/${path}:\n${body}` };
}

function edit(path: string, oldStr: string, newStr: string, outcome: { result?: string; error?: string }): ToolEvent {
  return { tool: 'str_replace_editor', args: { command: 'str_replace', path: `${REPO}/${path}`, old_str: oldStr, new_str: newStr }, ...outcome };
}

function bash(command: string, outcome: { result?: string; error?: string }): ToolEvent {
  return { tool: 'bash', args: { command }, ...outcome };
}

const PYTEST = 'cd /workspace/calendar && python -m pytest tests/test_parse.py -q';

/** The demo session, step by step. */
export const SAMPLE_SESSION: readonly ToolEvent[] = [
  bash('ls -la /workspace/calendar', { result: 'total 24\ndrwxr-xr-x calendar/\ndrwxr-xr-x tests/\n-rw-r--r-- setup.py' }),
  bash('ls -la /workspace/calendar/calendar', { result: 'total 16\n-rw-r--r-- __init__.py\n-rw-r--r-- parse.py\n-rw-r--r-- tz.py' }),
  view('calendar/parse.py', '  1\timport re\n  2\tISO = re.compile(r"(\\d{4})-(\\d{2})-(\\d{2})")\n  3\tdef parse(s):\n  4\t    y, m, d = ISO.match(s).groups()'),
  view('calendar/tz.py', '  1\tfrom datetime import timezone\n  2\tUTC = timezone.utc'),
  bash(PYTEST, { result: '3 failed, 9 passed in 0.41s', error: '[exit 1] 3 failed, 9 passed' }),
  edit('calendar/parse.py', '    y, m, d = ISO.match(s).groups()', '    m_ = ISO.match(s)\n    if m_ is None:\n        raise ValueError(s)\n    y, m, d = m_.groups()', { result: 'The file calendar/parse.py has been edited (lines 4-7).' }),
  bash(PYTEST, { result: '2 failed, 10 passed in 0.40s', error: '[exit 1] 2 failed, 10 passed' }),
  edit('calendar/tz.py', 'UTC = timezone.utc', 'UTC = timezone.utc\nLOCAL = None', { result: 'The file calendar/tz.py has been edited (line 3).' }),
  bash(PYTEST, { result: '1 failed, 11 passed in 0.42s', error: '[exit 1] 1 failed, 11 passed' }),
  edit('calendar/parse.py', 'def parse(s):', 'def parse(s, tz=None):', { error: "ERROR: No replacement was performed, old_str `def parse(s):` did not appear verbatim in /workspace/calendar/calendar/parse.py." }),
  edit('calendar/parse.py', 'def parse(s) :', 'def parse(s, tz=None):', { error: "ERROR: No replacement was performed, old_str `def parse(s) :` did not appear verbatim in /workspace/calendar/calendar/parse.py." }),
  edit('calendar/parse.py', 'def  parse(s):', 'def parse(s, tz=None):', { error: "ERROR: No replacement was performed, old_str `def  parse(s):` did not appear verbatim in /workspace/calendar/calendar/parse.py." }),
  view('calendar/parse.py', '  1\timport re\n  2\tISO = re.compile(r"(\\d{4})-(\\d{2})-(\\d{2})")\n  3\tdef parse(s):\n  4\t    m_ = ISO.match(s)'),
  edit('calendar/parse.py', 'def parse(s):\n    m_', 'def parse(s, tz=None):\n    m_', { error: 'ERROR: No replacement was performed: multiple occurrences of old_str in /workspace/calendar/calendar/parse.py.' }),
  view('calendar/parse.py', '  1\timport re\n  2\tISO = re.compile(r"(\\d{4})-(\\d{2})-(\\d{2})")\n  3\tdef parse(s):\n  4\t    m_ = ISO.match(s)'),
  edit('calendar/parse.py', 'def parse(s):\n    m_', 'def parse(s, tz=None):\n    m_', { error: 'ERROR: No replacement was performed: multiple occurrences of old_str in /workspace/calendar/calendar/parse.py.' }),
  bash(PYTEST, { result: '1 failed, 11 passed in 0.42s', error: '[exit 1] 1 failed, 11 passed' }),
  bash(PYTEST, { result: '1 failed, 11 passed in 0.42s', error: '[exit 1] 1 failed, 11 passed' }),
  bash(PYTEST, { result: '1 failed, 11 passed in 0.42s', error: '[exit 1] 1 failed, 11 passed' }),
];
