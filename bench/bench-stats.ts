/**
 * The two small figures every benchmark of the suite reads its runs with: the process's CPU time so far, and
 * the median of a round's figures (the mean of the two middle ones for an even count).
 */

/** CPU microseconds this process has used so far, user and system together (all its threads). */
export function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** The median of `xs` (the mean of the two middle figures when their count is even); NaN for none. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 === 1 ? (v[(v.length - 1) / 2] as number) : ((v[v.length / 2 - 1] as number) + (v[v.length / 2] as number)) / 2;
}
