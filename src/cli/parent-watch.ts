/**
 * A server started by `npx loopwatch serve` (npm exec) stops when npx goes away. npm 11 (11.19.1 here) ends
 * on SIGTERM without passing it on, and the `sh -c` it ran the command in ends with it, so the server went on
 * running orphaned (its parent now init or a subreaper): its port held, its sessions never written, and a
 * supervisor that signalled npx believing it stopped the server. Under npm exec (npm sets `npm_command=exec`
 * for the command it runs) the server looks at its parent once a second and, once the parent is gone, stops
 * as at a SIGTERM. A server started otherwise is left alone: one a shell put in the background and left to
 * run (`nohup loopwatch serve &`) is meant to outlive it.
 */

/** How often the parent is looked at, in milliseconds. */
export const PARENT_CHECK_MS = 1000;

/** What a stop waits for besides the signals: a reason to stop (resolves), or nothing (never resolves). */
export function parentGone(env: NodeJS.ProcessEnv = process.env, everyMs = PARENT_CHECK_MS): Promise<string> {
  if (env.npm_command !== 'exec') return new Promise<string>(() => undefined);
  const parent = process.ppid;
  return new Promise<string>((resolve) => {
    const timer = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(timer);
      resolve(`npx (its parent process, pid ${parent}) went away`);
    }, everyMs);
    timer.unref(); // never what keeps the process alive
  });
}
