/**
 * A readable report of a fleet score: recall per injected loop kind, precision per kind of first
 * verdict, and false positives per legitimate pattern, as three aligned plain-text tables.
 */
import type { FleetScore } from './score.js';

/** A share as a percentage with one decimal, or `-` when there is nothing to divide. */
export function percent(v: number | null): string {
  return v === null ? '-' : `${(100 * v).toFixed(1)}%`;
}

/**
 * Rows of cells as aligned columns, a rule under the header. `align` has one letter per column, `l` or
 * `r`; columns it does not cover are right-aligned, except the first (left).
 */
export function table(rows: readonly (readonly string[])[], align = 'l'): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  const line = (r: readonly string[]) => r.map((c, i) => (align.charAt(i) === 'l' ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ').trimEnd();
  const out = rows.map(line);
  out.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  return out.join('\n');
}

function delay(v: number | null): string {
  return v === null ? '-' : Number.isInteger(v) ? String(v) : v.toFixed(1);
}

/** The score as text: three tables and a line saying how verdicts were read. */
export function formatFleetScore(score: FleetScore): string {
  const recall = table([
    ['injected loop', 'sessions', 'caught', 'recall', 'same kind', 'flagged early', 'median delay'],
    ...score.recall.map((r) => [r.kind, String(r.injected), String(r.caught), percent(r.recall), String(r.sameKind), String(r.early), delay(r.medianDelay)]),
  ]);
  const precision = table([
    ['first verdict', 'flagged', 'true pos', 'false pos', 'precision'],
    ...score.precision.map((p) => [p.kind, String(p.flagged), String(p.truePositives), String(p.falsePositives), percent(p.precision)]),
  ]);
  const legit = table([
    ['clean sessions', 'sessions', 'flagged', 'rate', 'at break', 'flagged as'],
    ...score.legit.map((l) => [l.pattern, String(l.sessions), String(l.flagged), percent(l.rate), percent(l.sessions === 0 ? null : l.broken / l.sessions), Object.entries(l.byKind).map(([k, n]) => `${k} ${n}`).join(', ')]),
  ], 'lrrrrl');
  const how = `${score.sessions} session${score.sessions === 1 ? '' : 's'}; a flag is a verdict at ${score.minAction} or above; a loop is caught by a verdict at most ${score.slack} call${score.slack === 1 ? '' : 's'} before its start or later; delay in calls from the loop's start.`;
  return `${recall}\n\n${precision}\n\n${legit}\n\n${how}`;
}
