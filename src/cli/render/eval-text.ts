/**
 * An evaluation as a readable report: the one-phase and the two-phase table (per family or agent, then
 * every run), each share with its 95% interval, then the runs behind each false alarm and each miss.
 */
import type { EvalRow, EvalTable, JudgedRun } from '../../eval/eval-row.js';
import type { EvalReport, ListedRun } from '../../eval/eval-report.js';
import type { Share } from '../../eval/wilson.js';

const n = (x: number): string => x.toLocaleString('en-US');
const pc = (x: number): string => (100 * x).toFixed(1);

/** A share as `84.2% [78.2-88.8]`, or `-` when the group has none of its runs. */
export function shareText(s: Share): string {
  if (s.rate === null) return '-';
  return `${pc(s.rate)}% [${pc(s.low as number)}-${pc(s.high as number)}]`;
}

function cell(s: string, width: number): string {
  return s.length > width ? `${s.slice(0, width - 1)}…` : s.padEnd(width);
}

const SHARE = 19;

function header(title: string): string {
  return `${cell(title, 24)} ${'runs'.padStart(6)} ${'step_limit'.padStart(10)} ${cell('warned', SHARE)} ${cell('broken', SHARE)} ${'submitted'.padStart(9)} ${cell('warned', SHARE)} ${cell('broken', SHARE)} ${'1st brk'.padStart(7)} ${'saved/limit calls'.padStart(17)}`;
}

function line(r: EvalRow): string {
  const brk = r.medianFirstBreak === null ? '-' : `#${r.medianFirstBreak}`;
  return `${cell(r.group, 24)} ${n(r.sessions).padStart(6)} ${n(r.stepLimitWarned.of).padStart(10)} ${cell(shareText(r.stepLimitWarned), SHARE)} ${cell(shareText(r.stepLimitBroken), SHARE)} ${n(r.submittedWarned.of).padStart(9)} ${cell(shareText(r.submittedWarned), SHARE)} ${cell(shareText(r.submittedBroken), SHARE)} ${brk.padStart(7)} ${`${n(r.savedCalls)}/${n(r.limitCalls)}`.padStart(17)}`;
}

function table(title: string, t: EvalTable): string[] {
  const head = header(title);
  const rule = '-'.repeat(head.length);
  return [head, rule, ...t.rows.map(line), rule, line(t.overall)];
}

function verdictAt(r: JudgedRun | null, missed: boolean): string {
  if (r === null) return missed ? 'warned' : 'not broken';
  if (missed) return 'never warned';
  const f = r.first;
  return `${f === null ? 'break' : f.kind} at #${f?.index ?? r.firstBreak}, break at #${r.firstBreak}`;
}

function listing(title: string, runs: readonly ListedRun[], missed: boolean): string[] {
  const one = runs.filter((r) => r.onePhase !== null).length;
  const two = runs.filter((r) => r.twoPhase !== null).length;
  const out = [`${title}: ${n(runs.length)} (one-phase ${n(one)}, two-phase ${n(two)})`];
  if (runs.length === 0) return out;
  const width = Math.min(60, Math.max(...runs.map((r) => r.session.length)));
  out.push(`  ${cell('family', 16)} ${cell('session', width)} ${'calls'.padStart(6)}  ${cell('one-phase', 38)} two-phase`);
  for (const r of runs) {
    out.push(`  ${cell(r.family, 16)} ${cell(r.session, width)} ${n(r.calls).padStart(6)}  ${cell(verdictAt(r.onePhase, missed), 38)} ${verdictAt(r.twoPhase, missed)}`);
  }
  return out;
}

/** What the report is about, for its first line. */
export interface EvalTextContext {
  readonly policy: string;
  readonly engine: string;
  readonly by: 'family' | 'agent';
}

/** The report as text lines. */
export function evalText(report: EvalReport, ctx: EvalTextContext): string {
  const judged = report.onePhase.overall.sessions;
  const lines = [
    `${n(report.calls)} calls, ${n(judged)} labelled runs judged${report.unlabelled.length === 0 ? '' : `, ${n(report.unlabelled.length)} runs without a label left out`}${report.unmatchedLabels === 0 ? '' : `, ${n(report.unmatchedLabels)} labels without a run`} (${ctx.policy} policy, ${ctx.engine} engine; one-phase ${(report.millis.onePhase / 1000).toFixed(1)} s, two-phase ${(report.millis.twoPhase / 1000).toFixed(1)} s)`,
    '',
    'One-phase: each call checked after it ran, with its outcome',
    ...table(ctx.by, report.onePhase),
    '',
    'Two-phase: each call proposed before it runs (a break blocks it, and the replay of that run ends), then recorded',
    ...table(ctx.by, report.twoPhase),
    '',
    'Shares of the runs in each group, with their 95% Wilson interval. step_limit: runs cut off by their step cap (warned: a',
    'message was shown; broken: a break stopped or turned the run); submitted: runs the agent finished (broken: a false alarm,',
    'work a break would have destroyed). 1st brk: median call of the first break. saved/limit calls: calls from the first',
    'break on, in runs ended on a step, cost or context limit, of all their calls.',
    '',
    ...listing('False alarms (submitted runs broken)', report.falseAlarms, false),
    '',
    ...listing('Misses (step_limit runs never warned)', report.misses, true),
  ];
  return `${lines.join('\n')}\n`;
}

/** The runs of a list, one per line: session, family, calls, file (for `loopwatch explain`). */
export function listText(runs: readonly ListedRun[]): string {
  return runs.map((r) => `${r.session}\t${r.family}\t${r.calls}\t${r.file}\n`).join('');
}
