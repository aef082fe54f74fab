/**
 * `loopwatch hook --help` says what a user needs to write the command by hand: every preset name, the
 * reset command, the allowlist file and the agent-version flag.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../src/cli/detection-options.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

describe('loopwatch hook --help', () => {
  it('should list every preset name, reset, the allowlist and --agent-version', async () => {
    const r = await loopwatchInProcess(['hook', '--help']);
    expect(r.code).toBe(0);
    const presets = /--preset NAME +detection preset[^\n]*\n\s+([^\n]+)\n/.exec(r.stdout)?.[1]; // the option's line, not the usage lines naming [--preset NAME]
    expect(presets?.split(', ')).toEqual(Object.keys(PRESETS));
    expect(r.stdout).toContain('loopwatch hook reset [--session ID]');
    expect(r.stdout).toContain('.loopwatch.json');
    expect(r.stdout).toContain('--agent-version V');
  });
});
