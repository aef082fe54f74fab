/**
 * `loopwatch --help` names every subcommand of `loopwatch hook`: `hook status` and `hook reset` (the way
 * to see what the hooks did and the way back after a stop, docs/hooks.md) were missing from it, so a user
 * reading the main help did not learn they exist.
 */
import { describe, expect, it } from 'vitest';
import { HOOK_VERBS } from '../src/cli/hook-command.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

describe('loopwatch --help', () => {
  it('should name every hook subcommand', async () => {
    const r = await loopwatchInProcess(['--help']);
    expect(r.code).toBe(0);
    const hookLines = r.stdout.split('\n').filter((l) => l.startsWith('  hook '));
    const named = new Set(hookLines.flatMap((l) => (l.trim().split(/\s+/)[1] ?? '').split('|')));
    for (const verb of HOOK_VERBS) expect(named, verb).toContain(verb);
  });
});
