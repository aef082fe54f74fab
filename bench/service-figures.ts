/**
 * Figures of the service benchmarks (`--scope serve`, `--scope nats`): calls per second and the latency of
 * one request or message (p50, p99), beside a baseline measured in the same run.
 */

/** One measured way of running calls through the service. */
export interface ServiceFigure {
  scope: string;
  impl: string;
  callsPerSecond: number;
  /** Latency of one request (HTTP) or message (NATS), send to answer, in ms. */
  p50Ms: number;
  p99Ms: number;
  /** callsPerSecond over the scope's baseline's (the first figure of the scope). */
  vsBaseline: number;
}

/** The q-quantile (0..1) of some numbers (sorted in place). */
export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  xs.sort((a, b) => a - b);
  return xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] as number;
}

/** Adds a figure to `out`, its ratio taken against the first figure of its scope there. */
export function push(out: ServiceFigure[], f: Omit<ServiceFigure, 'vsBaseline'>): void {
  const base = out.find((x) => x.scope === f.scope);
  out.push({ ...f, vsBaseline: base === undefined ? 1 : f.callsPerSecond / base.callsPerSecond });
}

/** The scope's figures as a Markdown table. */
export function serviceTable(scope: string, note: string, figures: readonly ServiceFigure[]): string {
  const rows = figures.filter((f) => f.scope === scope);
  if (rows.length === 0) return '';
  const lines = [`\n## ${scope}\n${note}`, '| how | calls/s | vs first row | p50 | p99 |', '|---|---|---|---|---|'];
  // NaN (no latency measured) comes back from a scope's process as null
  const ms = (x: number | null): string => (typeof x === 'number' && Number.isFinite(x) ? `${x.toFixed(2)} ms` : '-');
  for (const f of rows) lines.push(`| ${f.impl} | ${Math.round(f.callsPerSecond).toLocaleString('en')} | ${f.vsBaseline.toFixed(2)}x | ${ms(f.p50Ms)} | ${ms(f.p99Ms)} |`);
  return lines.join('\n');
}
