/**
 * Running a command as a user the file system's permissions apply to: as root (the test machine's user)
 * every chmod is passed over, so an EACCES a person meets cannot be seen. As root the command runs as
 * nobody (uid/gid 65534, through util-linux's setpriv) in folders given to that user; as anyone else it
 * runs as it is.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempFolder } from './temp-folder.js';

const ROOT = process.getuid?.() === 0;
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
const NOBODY = 65534;

/** Whether permission tests can run here: not as root, or as root with setpriv to drop to nobody. */
export const canDropPrivileges = process.platform !== 'win32' && (!ROOT || SETPRIV !== undefined);

/** `argv` as the unprivileged user runs it. */
export function unprivileged(argv: readonly string[]): string[] {
  return ROOT ? [SETPRIV as string, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...argv] : [...argv];
}

/** A new folder (in a temporary folder removed with the test file) owned by the user `unprivileged` runs as. */
export function unprivilegedFolder(prefix: string, name = 'home'): string {
  const top = tempFolder(prefix);
  chmodSync(top, 0o755);
  // the run's own temp folder (test/setup/temp-folders.ts, mode 0700) is passed through, not listed
  const run = dirname(top);
  if (ROOT) chmodSync(run, (statSync(run).mode & 0o777) | 0o111);
  const dir = join(top, name);
  mkdirSync(dir);
  if (ROOT) chownSync(dir, NOBODY, NOBODY);
  return dir;
}
