/**
 * The curve of an evaluation as a table: per policy (the presets, then a config), one-phase and two-phase,
 * step_limit runs broken against finished work broken (false alarms) and warned, each with its 95%
 * Wilson interval, and the calls a break saved.
 */
import type { CurveFigures, CurvePoint } from '../../eval/eval-curve.js';
import { shareText } from './eval-text.js';

const W = 19;
const cell = (s: string, width: number): string => (s.length > width ? `${s.slice(0, width - 1)}…` : s.padEnd(width));
const saved = (f: CurveFigures): string => (f.limitCalls === 0 ? '-' : `${((100 * f.savedCalls) / f.limitCalls).toFixed(1)}%`);

function cells(f: CurveFigures): string[] {
  return [cell(shareText(f.stepLimitBroken), W), cell(shareText(f.finishedBroken), W), cell(shareText(f.finishedWarned), W), saved(f).padStart(6)];
}

/** The curve as text lines. */
export function curveText(curve: readonly CurvePoint[]): string {
  const name = Math.min(40, Math.max(14, ...curve.map((p) => p.policy.length)));
  const heads = [cell('broken', W), cell('false alarms', W), cell('warned', W), 'saved'.padStart(6)];
  const half = heads.join(' ').length;
  const lines = [
    'Curve: step_limit runs broken against finished work broken (false alarms) and warned, overall',
    `${cell('', name)}   ${cell('One-phase', half)}   Two-phase`,
    `${cell('policy', name)}   ${heads.join(' ')}   ${heads.join(' ')}`,
  ];
  const rule = '-'.repeat(lines[2]?.length ?? 0);
  lines.push(rule);
  for (const p of curve) lines.push(`${cell(p.policy, name)}   ${cells(p.onePhase).join(' ')}   ${cells(p.twoPhase).join(' ')}`);
  lines.push(rule);
  lines.push('finished work: submitted runs and interactive sessions (genuine loops aside). saved: calls from the first break on,');
  lines.push('of the calls of runs ended on a limit. Each policy is a full evaluation of the runs above.');
  return `${lines.join('\n')}\n`;
}
