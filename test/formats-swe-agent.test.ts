/**
 * The SWE-agent reader: one `.traj` document per session, the tool the first word of the action, the
 * session named by the path under the folder scanned (or the base name), steps without an action reported.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { actionTool } from '../src/formats/swe-agent.js';
import { collect } from './helpers/trace-files.js';
import { tempFolder } from './helpers/temp-folder.js';

const dir = tempFolder('formats-swe');

const traj = {
  environment: 'swe_main',
  trajectory: [
    { action: 'find_file "setup.py"\n', observation: 'Found 1 matches', thought: 'Find the setup file.', response: '...' },
    { action: '  open setup.py', observation: '[File: setup.py (20 lines total)]', thought: '' },
    { action: '', observation: 'empty', thought: 'nothing' },
    { observation: 'no action at all' },
    { action: 'submit', observation: null, thought: 'Done.' },
  ],
  info: { exit_status: 'submitted' },
  history: [{ role: 'system', content: 'ignored' }],
};

describe('SWE-agent format', () => {
  it('should take the first word of each action as the tool, in step order, and report steps without an action', async () => {
    const root = join(dir, 'scan');
    const sub = join(root, 'run1', 'django');
    mkdirSync(sub, { recursive: true });
    const file = join(sub, 'django__django-1.traj');
    writeFileSync(file, JSON.stringify(traj, null, 2));
    const session = 'run1/django/django__django-1.traj';
    expect(await collect([root])).toEqual([
      { kind: 'call', session, event: { tool: 'find_file', args: { command: 'find_file "setup.py"\n' }, result: 'Found 1 matches', text: 'Find the setup file.', step: 0 }, errorInfo: 'unknown', file, line: 1 },
      { kind: 'call', session, event: { tool: 'open', args: { command: '  open setup.py' }, result: '[File: setup.py (20 lines total)]', step: 1 }, errorInfo: 'unknown', file, line: 1 },
      { kind: 'issue', code: 'bad-record', file, line: 1, message: 'trajectory step 2 has no action (received action "" (string)); skipped' },
      { kind: 'issue', code: 'bad-record', file, line: 1, message: 'trajectory step 3 has no action (received action undefined); skipped' },
      { kind: 'call', session, event: { tool: 'submit', args: { command: 'submit' }, result: null, text: 'Done.', step: 2 }, errorInfo: 'unknown', file, line: 1 },
      { kind: 'end', session, file },
    ]);
  });

  it('should name the session by the base name when the file is given, gzip or not, minified or not', async () => {
    const a = join(dir, 'one.traj');
    const b = join(dir, 'two.traj.gz');
    writeFileSync(a, JSON.stringify(traj));
    writeFileSync(b, gzipSync(JSON.stringify(traj, null, 4)));
    const ends = (await collect([a, b])).filter((i) => i.kind === 'end').map((e) => e.session);
    expect(ends).toEqual(['one.traj', 'two.traj.gz']);
  });

  it('should report a .traj file that is not a trajectory', async () => {
    const file = join(dir, 'wrong.traj');
    writeFileSync(file, JSON.stringify({ steps: [] }));
    expect(await collect([file])).toEqual([{ kind: 'issue', code: 'bad-record', file, line: 1, message: 'expected an object with a "trajectory" array, received an object without one' }]);
  });

  it('should split actions on any white space', () => {
    expect(['python -c "x"', '\tedit 1:2\nfoo', 'submit', '  ls  '].map(actionTool)).toEqual(['python', 'edit', 'submit', 'ls']);
  });
});
