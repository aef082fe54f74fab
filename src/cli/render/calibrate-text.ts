/**
 * A calibration as a readable report: the data and budgets, the held-out figures of each replay (pooled
 * over the folds, 95% Wilson interval, the folds' range), the starting point on the same runs for
 * comparison, the held-out figures per family, what was fitted, and the time it took.
 */
import type { Calibration } from '../../calibrate/calibrate.js';
import type { Figure, ReplayFigures } from '../../calibrate/held-out.js';
import { type ReplayTotals, inScope } from '../../calibrate/objective.js';
import { shareText } from './eval-text.js';
import { redactSecrets } from '../../text/redact.js';
import { terminalSafe } from '../../text/terminal-text.js';

const n = (x: number): string => x.toLocaleString('en-US');
const pc = (x: number | null): string => (x === null ? '-' : `${(100 * x).toFixed(1)}%`);
const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** `45.9% [38.8-53.2] folds 38.0-52.1%`. */
function figureText(f: Figure): string {
  const range = f.min === null ? '' : ` folds ${(100 * f.min).toFixed(1)}-${pc(f.max)}`;
  if (f.low === null) return `${pc(f.rate)} (${n(f.count)} of ${n(f.of)})${range}`;
  return `${shareText(f)}${range}`;
}

const ROWS: readonly [string, (r: ReplayFigures) => Figure | null][] = [
  ['step_limit broken', (r) => r.stepLimitBroken],
  ['step_limit warned', (r) => r.stepLimitWarned],
  ['finished broken', (r) => r.finishedBroken],
  ['finished warned', (r) => r.finishedWarned],
  ['resolved broken', (r) => r.resolvedBroken],
  ['calls saved', (r) => r.savedCalls],
];

function startLine(label: string, t: ReplayTotals): string {
  const share = (k: number, of: number): string => (of === 0 ? '-' : pc(k / of));
  return `  ${label.padEnd(10)} step_limit broken ${share(t.stuckBroken, t.stuck)}, warned ${share(t.stuckWarned, t.stuck)}; finished broken ${share(t.finishedBroken, t.finished)}, warned ${share(t.finishedWarned, t.finished)}; ${n(t.saved)} calls saved`;
}

/** The report as text; `output` names the config file written (undefined: standard output). */
export function calibrateText(c: Calibration, output: string | undefined): string {
  const d = c.data;
  const out: string[] = [];
  out.push(`loopwatch calibrate: ${n(d.runs)} labelled runs (${n(d.calls)} calls; ${n(d.stepLimit)} step_limit, ${n(d.finished)} finished${d.resolved > 0 ? `, ${n(d.resolved)} resolved` : ''}) in ${n(d.groups)} task groups; ${c.folds} folds, seed ${c.seed}${d.unlabelled > 0 ? `; ${n(d.unlabelled)} runs without a label left out` : ''}`);
  const b = c.budget;
  const free = (r: 0 | 1): boolean => !inScope(b.scope, r) && b.maxFalseAlarms[r] >= 1 && b.maxWarnings[r] >= 1;
  const budget = (r: 0 | 1): string =>
    free(r) ? 'none (its finished runs broken, then warned, only break ties)' : `at most ${pc(b.maxFalseAlarms[r])} of finished runs broken${inScope(b.scope, r) && (b.margin ?? 0) > 0 ? ' (by their Wilson centre)' : ''} and ${pc(b.maxWarnings[r])} warned${inScope(b.scope, r) ? '' : " (the starting point's own)"}`;
  out.push(`fitted for the ${b.scope === 'both' ? 'one-phase and two-phase replays' : `${b.scope} replay`}; budget one-phase: ${budget(0)}; two-phase: ${budget(1)}`);
  out.push('');
  out.push('held out: each fold replayed with the fit made without it; pooled over folds [95% interval], range over folds');
  out.push(`  ${''.padEnd(18)} ${'one-phase'.padEnd(44)} two-phase`);
  for (const [label, get] of ROWS) {
    const a = get(c.heldOut.onePhase);
    const b = get(c.heldOut.twoPhase);
    if (a === null || b === null) continue;
    out.push(`  ${label.padEnd(18)} ${figureText(a).padEnd(44)} ${figureText(b)}`);
  }
  out.push('');
  out.push('held out per fold (one-phase / two-phase):');
  out.push(`  ${'fold'.padEnd(6)} ${'runs'.padStart(6)}  ${'step_limit broken'.padEnd(22)} ${'finished broken'.padEnd(22)} finished warned`);
  const both = (a: Figure, b: Figure): string => `${pc(a.rate)} / ${pc(b.rate)}`;
  for (const f of c.perFold) {
    out.push(`  ${String(f.fold).padEnd(6)} ${n(f.runs).padStart(6)}  ${both(f.onePhase.stepLimitBroken, f.twoPhase.stepLimitBroken).padEnd(22)} ${both(f.onePhase.finishedBroken, f.twoPhase.finishedBroken).padEnd(22)} ${both(f.onePhase.finishedWarned, f.twoPhase.finishedWarned)}`);
  }
  out.push('');
  out.push('the starting point on the same runs (not fitted, nothing held out):');
  out.push(startLine('one-phase', c.starting.one));
  out.push(startLine('two-phase', c.starting.two));
  if (c.perFamily.length > 1) {
    out.push('');
    out.push('held out per family (one-phase / two-phase):');
    out.push(`  ${'family'.padEnd(24)} ${'runs'.padStart(6)}  ${'step_limit broken'.padEnd(22)} ${'finished broken'.padEnd(22)} finished warned`);
    for (const f of c.perFamily) {
      out.push(`  ${terminalSafe(redactSecrets(f.family)).slice(0, 24).padEnd(24)} ${n(f.runs).padStart(6)}  ${both(f.onePhase.stepLimitBroken, f.twoPhase.stepLimitBroken).padEnd(22)} ${both(f.onePhase.finishedBroken, f.twoPhase.finishedBroken).padEnd(22)} ${both(f.onePhase.finishedWarned, f.twoPhase.finishedWarned)}`);
    }
  }
  const own = Object.keys(c.familyFits);
  if (own.length > 0 || c.pooledFamilies.length > 0) {
    out.push('');
    out.push(`fitted per family (the config's families): ${own.length === 0 ? 'none' : own.map((f) => terminalSafe(redactSecrets(f))).join(', ')}`);
    for (const p of c.pooledFamilies) out.push(`  ${terminalSafe(redactSecrets(p.family))}: the pooled fit (${p.why})`);
  }
  out.push('');
  out.push('fitted on every run:');
  for (const [k, v] of Object.entries(c.fitted.policy)) out.push(`  policy.${k} ${JSON.stringify(v)}`);
  for (const [det, fields] of Object.entries(c.fitted.detectors)) for (const [k, v] of Object.entries(fields)) out.push(`  detectors.${det}.${k} ${v}`);
  out.push('');
  out.push(`time: recording ${secs(c.millis.record)}, fitting ${secs(c.millis.fit)} (${n(c.search.evaluations)} points, ${n(c.search.simulations)} run simulations), held-out replay ${secs(c.millis.replay)}`);
  out.push(`config written to ${output ?? 'standard output'}`);
  return `${out.join('\n')}\n`;
}

/** The report as one JSON document (skipped inputs as a count). */
export function calibrateJson(c: Calibration): string {
  const { issues, ...rest } = c;
  return `${JSON.stringify({ ...rest, skipped: issues.length }, null, 2)}\n`;
}
