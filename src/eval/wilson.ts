/**
 * Shares with their 95% confidence interval, by the Wilson score interval (Wilson 1927): unlike the normal
 * approximation it stays inside [0, 1] and is sound for small groups and for shares near 0% or 100%, the
 * usual case here (a family of 9 step-limit runs, false alarms of 1-3%).
 *
 * ```
 *   p = k / n,  z = 1.96
 *   centre = (p + z²/2n) / (1 + z²/n)
 *   half   = z / (1 + z²/n) * sqrt(p(1 - p)/n + z²/4n²)
 *   interval = [centre - half, centre + half]
 * ```
 */

/** The normal quantile of a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/** `count` of `of` sessions, the share and its 95% Wilson interval (all null when `of` is 0). */
export interface Share {
  readonly count: number;
  readonly of: number;
  readonly rate: number | null;
  readonly low: number | null;
  readonly high: number | null;
}

/** The Wilson score interval of `k` successes in `n` trials (null when `n` is 0). */
export function wilsonInterval(k: number, n: number, z: number = Z95): { readonly low: number; readonly high: number } | null {
  if (n === 0) return null;
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // at 0 and n the bounds are exactly 0 and 1 (rounding would leave 0.9999999999999999)
  return { low: k === 0 ? 0 : Math.max(0, centre - half), high: k === n ? 1 : Math.min(1, centre + half) };
}

/** `k` of `n` as a {@link Share}. */
export function share(k: number, n: number): Share {
  const w = wilsonInterval(k, n);
  return { count: k, of: n, rate: n === 0 ? null : k / n, low: w?.low ?? null, high: w?.high ?? null };
}
