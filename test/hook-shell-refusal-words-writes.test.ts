/**
 * hostile15 made a failed shell command's "Invalid patch: " count as args refused only where the command
 * writes (src/policy/outcome-facts.ts): an `apply_patch` run by the shell. Checked through the hook (s21,
 * hostile16): a failing test script that prints those words and whose output the agent writes to a file
 * (`> test.log`, `| tee test.log`: commands that write) is stopped as the same runs without the words are,
 * and never counts as a patch slip answered (src/policy/evidence-screen.ts's formSlipsAnswered needs each
 * refused file changed by a later call that succeeded: a failing run changes nothing). This passed on integ
 * (de6f187) too: a confirmation, no fix.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { afterPayload, beforePayload, hook, proposeAction } from './helpers/hook-payloads.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

const FLAGS = ['', ' -- --runInBand', ' -- -t config', ' -- --verbose', ' -- --ci', ' -- --no-cache', ' -- -i', ' -- --bail'];
const failure = (head: string): string => `${head}Error: Cannot find module './build/config.json'\n  at Module._resolveFilename (node:internal/modules/cjs/loader:1140:15)\nExit code 1`;

/** The proposals' actions of eight failing runs (`command(i)`) through the hook; a blocked one is not run. */
async function actions(command: (i: number) => string, error: string): Promise<string[]> {
  const stateDir = join(tempFolder('refusal-words-writes'), 'state');
  const out: string[] = [];
  for (let i = 0; i < FLAGS.length; i++) {
    const call = { tool: 'Bash', args: { command: command(i) }, error };
    const run = i === 0 ? hook : hookInProcess; // the first through a real hook process
    const before = await run(['--agent', 'claude-code', '--state-dir', stateDir], beforePayload('claude-code', 'w', call, `t${i}`));
    const action = proposeAction('claude-code', before.stdout);
    out.push(action);
    if (action !== 'deny' && action !== 'stop') await hookInProcess(['--agent', 'claude-code', '--state-dir', stateDir], afterPayload('claude-code', 'w', call, `t${i}`, i));
  }
  return out;
}

describe('a failing shell command that writes its output and prints "Invalid patch: "', () => {
  it.each([
    ['> test.log', (i: number) => `npm test${FLAGS[i]} > test.log 2>&1`],
    ['| tee tN.log', (i: number) => `npm test${FLAGS[i]} 2>&1 | tee t${i}.log`],
  ])('should be blocked as without the words (%s)', async (_name, command) => {
    const plain = await actions(command, failure(''));
    expect(plain).toContain('deny');
    expect(await actions(command, failure('Invalid patch: '))).toEqual(plain);
  }, 60_000);
});
