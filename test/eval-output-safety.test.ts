/**
 * `loopwatch eval` prints what its runs and labels hold as scan prints it: a session id or agent name
 * holding a terminal escape (a clear screen, OSC 52 writing the clipboard, a window title, a bidirectional
 * override) or a secret is shown escaped and redacted in the tables, the `--list` lines and `--json`.
 * Before, eval wrote them raw: a labels file from someone else could clear the screen or set the clipboard
 * of whoever evaluated it, and a key in a session id was printed whole.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { SECRET_SHAPES, shownPart } from './helpers/secret-shapes.js';

/** What a terminal acts on: C0 but line breaks and tabs (the tables' own), DEL, C1, bidirectional controls, line separators. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const HOSTILE = [
  'clear\u001b[2J\u001b[H',
  'clip\u001b]52;c;ZWNobyBvd25lZA==\u0007',
  'title\u001b]0;owned\u0007',
  'csi\u009b31mC1',
  'admin\u202eexe.txt',
  'line\nbreak\u2028sep',
];
const SECRETS = SECRET_SHAPES.filter((s) => !s.text.includes('\n')).slice(0, 8);

const dir = tempDir();
const runsDir = join(dir, 'runs');
const calls: unknown[] = [];
const labels: unknown[] = [];
const ids = [...HOSTILE.map((h, k) => `run ${k} ${h}`), ...SECRETS.map((s, k) => `secret ${k} ${s.text}`)];
ids.forEach((id, k) => {
  for (let step = 0; step < 8; step++) calls.push({ session: id, step, tool: 'bash', args: { cmd: 'ls' } });
  // every other run finished (its break a false alarm, listed), the rest cut off by their step cap
  const agent = k < HOSTILE.length ? `agent ${HOSTILE[k]}` : `agent ${SECRETS[k - HOSTILE.length]?.text}`;
  labels.push({ session: id, exit_status: k % 2 === 0 ? 'submitted' : 'step_limit', agent });
});
mkdirSync(runsDir);
writeJsonl(runsDir, 'runs.jsonl', calls);
writeJsonl(runsDir, 'sessions.jsonl', labels);

function safe(what: string, out: string): void {
  const m = RAW_CONTROL.exec(out);
  expect(m, `${what}: raw U+${m?.[0].charCodeAt(0).toString(16).padStart(4, '0')} in ${JSON.stringify(out.slice(Math.max(0, (m?.index ?? 0) - 40), (m?.index ?? 0) + 20))}`).toBeNull();
  for (const s of SECRETS) expect(shownPart(out, s), `${what}: ${s.name} shown`).toBeNull();
}

describe('what eval prints of its runs and labels', () => {
  it('should show control characters as escapes and no secret in the tables, --list and --json', async () => {
    for (const flags of [[], ['--list', 'false-alarms'], ['--list', 'misses'], ['--json'], ['--by', 'agent']]) {
      const r = await loopwatchInProcess(['eval', runsDir, '--workers', '0', ...flags]);
      expect(r.code, `${flags.join(' ')}: ${r.stderr}`).toBe(0);
      safe(`eval ${flags.join(' ')} stdout`, r.stdout);
      safe(`eval ${flags.join(' ')} stderr`, r.stderr);
    }
  });

  it('should still list each run, its escapes visible and its JSON readable', async () => {
    const list = await loopwatchInProcess(['eval', runsDir, '--workers', '0', '--list', 'false-alarms']);
    expect(list.stdout).toContain('run 0 clear\\x1b[2J\\x1b[H\t');
    expect(list.stdout).toContain('secret 0 [REDACTED]');
    const json = JSON.parse((await loopwatchInProcess(['eval', runsDir, '--workers', '0', '--json'])).stdout) as { falseAlarms: { session: string }[] };
    expect(json.falseAlarms.map((r) => r.session)).toContain('run 4 admin\u202eexe.txt');
  });
});
