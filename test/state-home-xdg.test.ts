/**
 * mend13: the one `$XDG_STATE_HOME/loopwatch` of the hooks' folder, the server's token and its sessions
 * (state-dir.ts loopwatchStateHome). Before, three copies of the expression took a relative XDG_STATE_HOME
 * as it was, so `XDG_STATE_HOME=state loopwatch serve` made its token and sessions under whatever folder it
 * started in; the XDG Base Directory specification says to ignore a relative one (as an empty one).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultStateDir } from '../src/cli/serve-command.js';
import { hookStateDir, loopwatchStateHome } from '../src/hooks/state-dir.js';
import { defaultTokenPath } from '../src/serve/serve-token-file.js';

const fallback = join(homedir(), '.local', 'state', 'loopwatch');

/** The three folders for an XDG_STATE_HOME (undefined: unset), with nothing else set. */
function folders(xdg: string | undefined): string[] {
  const env: NodeJS.ProcessEnv = xdg === undefined ? {} : { XDG_STATE_HOME: xdg };
  return [loopwatchStateHome(env), hookStateDir(undefined, env), defaultTokenPath(env), defaultStateDir(8123, env)];
}
const under = (home: string): string[] => [home, join(home, 'hooks'), join(home, 'serve.token'), join(home, 'serve-8123')];

describe('loopwatch\'s state home', () => {
  it('should be $XDG_STATE_HOME/loopwatch for an absolute XDG_STATE_HOME', () => {
    expect(folders('/srv/state')).toEqual(under('/srv/state/loopwatch'));
  });

  it('should be ~/.local/state/loopwatch without XDG_STATE_HOME or with an empty one', () => {
    expect(folders(undefined)).toEqual(under(fallback));
    expect(folders('')).toEqual(under(fallback));
  });

  it('should ignore a relative XDG_STATE_HOME, as the XDG specification asks', () => {
    for (const relative of ['state', './state', '../state', 'a/b']) expect(folders(relative)).toEqual(under(fallback));
  });

  it('should take the home folder from the environment it is given, os.homedir() without HOME', () => {
    // a command run with another environment than the process's (a test's, through its io) gets that HOME
    expect(loopwatchStateHome({ HOME: '/home/other' })).toBe('/home/other/.local/state/loopwatch');
    expect(hookStateDir(undefined, { HOME: '/home/other' })).toBe('/home/other/.local/state/loopwatch/hooks');
    expect(loopwatchStateHome({ HOME: '' })).toBe(fallback);
  });

  it('should still take the hooks\' --state-dir and $LOOPWATCH_STATE_DIR first', () => {
    expect(hookStateDir('/x/flag', { LOOPWATCH_STATE_DIR: '/x/env', XDG_STATE_HOME: '/x/xdg' })).toBe('/x/flag');
    expect(hookStateDir(undefined, { LOOPWATCH_STATE_DIR: '/x/env', XDG_STATE_HOME: '/x/xdg' })).toBe('/x/env');
    expect(hookStateDir('', { LOOPWATCH_STATE_DIR: '', XDG_STATE_HOME: '/x/xdg' })).toBe('/x/xdg/loopwatch/hooks');
  });
});
