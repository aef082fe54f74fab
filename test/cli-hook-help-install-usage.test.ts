/**
 * `loopwatch hook --help`'s usage line for `hook install` names every option the "install / uninstall:"
 * section says install takes: --preset, --config and --agent-version were missing from it (newuser33), so a
 * user reading the usage lines alone did not learn install writes a preset or a config into the command.
 */
import { describe, expect, it } from 'vitest';
import { HOOK_HELP } from '../src/cli/help-text.js';

/** The flags (`--name`) in `text`. */
const flags = (text: string): Set<string> => new Set(text.match(/--[a-z][a-z-]*/g) ?? []);

describe('loopwatch hook --help', () => {
  it('should name in the install usage line every option of the install section', () => {
    // the install usage: its line and the lines continuing it, up to the next verb's
    const usage = HOOK_HELP.slice(HOOK_HELP.indexOf('loopwatch hook install '), HOOK_HELP.indexOf('loopwatch hook uninstall '));
    const start = HOOK_HELP.indexOf('\ninstall / uninstall:\n');
    expect(start).toBeGreaterThan(0);
    const section = HOOK_HELP.slice(start, HOOK_HELP.indexOf('\n\n', start + 1));
    const named = flags(usage);
    // each option line's option column: what comes before its description (two spaces or more)
    const column = section.split('\n').filter((l) => l.startsWith('  --')).map((l) => l.trim().split(/ {2,}/)[0] ?? '');
    const listed = flags(column.join('\n'));
    expect(listed).toContain('--preset');
    for (const flag of listed) expect(named, flag).toContain(flag);
  });
});
