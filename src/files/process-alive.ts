/**
 * Whether a process still runs, asked by pid: for leftovers named by their writer's pid (a hook's lock, a
 * whole-file write's `.<name>.<pid>.tmp`), which may be removed only once that writer is gone.
 */

/** Whether process `pid` exists: `kill(pid, 0)` succeeds, or says EPERM (another user's process). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
