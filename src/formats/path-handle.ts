/**
 * Handles that open nothing (Linux `O_PATH`): a path taken as such a handle can be looked at (fstat) without
 * the effects of opening it (a FIFO's blocked writer let go, a device's driver run, a terminal taken), and
 * the very file looked at is then opened through the handle, whatever was renamed over the path meanwhile.
 * Used where what is read must be what was looked at: a hook's transcript (hooks/transcript-open.ts) and a
 * FIFO named as an input (named-fifo.ts).
 */

/** Linux's O_PATH (a handle that opens nothing); 0 where there is none (then open by the path instead). */
export const O_PATH = process.platform === 'linux' ? 0o10000000 : 0;

/** The path that opens the file the handle `fd` holds (ENOENT where there is no `/proc`: open by the path). */
export function handlePath(fd: number): string {
  return `/proc/self/fd/${fd}`;
}
