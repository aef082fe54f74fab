/**
 * An evaluation as a readable report: the one-phase and the two-phase table (per family or agent, then
 * every run), each share with its 95% interval, then the runs behind each false alarm, each warning on an
 * interactive session, each miss and each resolved run broken. The benchmark columns (step_limit, submitted) are shown unless every
 * run is an interactive session; the interactive columns when there is one.
 */
import { type EvalRow, type EvalTable, JUDGED_STATUSES, type JudgedRun } from '../../eval/eval-row.js';
import type { EvalReport, ListedRun } from '../../eval/eval-report.js';
import type { Share } from '../../eval/wilson.js';
import { callName, callNumber } from '../../text/call-number.js';
import { redactSecrets } from '../../text/redact.js';
import { cutSafe, terminalSafe } from '../../text/terminal-text.js';

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

/** Text read from the runs or labels (a family, an agent, a session id, a file) as scan prints it: secrets redacted, controls escaped. */
const shown = (s: string): string => terminalSafe(redactSecrets(s));

/** {@link shown} text in a column of `width`, cut between code points and outside escapes. */
function textCell(s: string, width: number): string {
  return cutSafe(shown(s), width).padEnd(width);
}

const SHARE = 19;

/** Which groups of columns a report shows. */
interface Columns {
  readonly bench: boolean;
  readonly interactive: boolean;
}

function columnsOf(report: EvalReport): Columns {
  const rows = [report.onePhase.overall, report.twoPhase.overall];
  const interactive = rows.some((r) => r.interactiveWarned.of > 0);
  return { interactive, bench: !interactive || rows.some((r) => r.stepLimitWarned.of + r.submittedWarned.of > 0) };
}

function header(title: string, c: Columns): string {
  const cells = [cell(title, 24), 'runs'.padStart(6)];
  if (c.bench) cells.push('step_limit'.padStart(10), cell('warned', SHARE), cell('broken', SHARE), 'submitted'.padStart(9), cell('warned', SHARE), cell('broken', SHARE));
  if (c.interactive) cells.push('interactive'.padStart(11), cell('warned', SHARE), cell('broken', SHARE));
  cells.push('1st brk'.padStart(7));
  if (c.bench) cells.push('saved/limit calls'.padStart(17));
  return cells.join(' ');
}

function line(r: EvalRow, c: Columns): string {
  const brk = r.medianFirstBreak === null ? '-' : `#${callNumber(r.medianFirstBreak)}`;
  const cells = [textCell(r.group, 24), n(r.sessions).padStart(6)];
  if (c.bench) cells.push(n(r.stepLimitWarned.of).padStart(10), cell(shareText(r.stepLimitWarned), SHARE), cell(shareText(r.stepLimitBroken), SHARE), n(r.submittedWarned.of).padStart(9), cell(shareText(r.submittedWarned), SHARE), cell(shareText(r.submittedBroken), SHARE));
  if (c.interactive) cells.push(n(r.interactiveWarned.of).padStart(11), cell(shareText(r.interactiveWarned), SHARE), cell(shareText(r.interactiveBroken), SHARE));
  cells.push(brk.padStart(7));
  if (c.bench) cells.push(`${n(r.savedCalls)}/${n(r.limitCalls)}`.padStart(17));
  return cells.join(' ');
}

function table(title: string, t: EvalTable, c: Columns): string[] {
  const head = header(title, c);
  const rule = '-'.repeat(head.length);
  return [head, rule, ...t.rows.map((r) => line(r, c)), rule, line(t.overall, c)];
}

/** How many of `runs` `pick` holds for, one-phase and two-phase (`2 / 1 of 3`). */
function flagged(runs: readonly ListedRun[], pick: (r: JudgedRun) => boolean): string {
  const one = runs.filter((r) => r.onePhase !== null && pick(r.onePhase)).length;
  const two = runs.filter((r) => r.twoPhase !== null && pick(r.twoPhase)).length;
  return `${n(one)} / ${n(two)} of ${n(runs.length)}`;
}

/** What a replay said of a listed run: its first verdict and break, or `none` when it was not listed there. */
function verdictAt(r: JudgedRun | null, none: string): string {
  if (r === null) return none;
  const f = r.first;
  if (f === null) return r.firstBreak === null ? none : `break at ${callName(r.firstBreak)}`;
  return `${f.kind} at ${callName(f.index)}${r.firstBreak === null ? '' : `, break at ${callName(r.firstBreak)}`}`;
}

function listing(title: string, runs: readonly ListedRun[], said: (r: JudgedRun | null) => string): string[] {
  const one = runs.filter((r) => r.onePhase !== null).length;
  const two = runs.filter((r) => r.twoPhase !== null).length;
  const out = [`${title}: ${n(runs.length)} (one-phase ${n(one)}, two-phase ${n(two)})`];
  if (runs.length === 0) return out;
  const width = Math.min(60, Math.max(7, ...runs.map((r) => shown(r.session).length)));
  const ones = runs.map((r) => said(r.onePhase));
  const oneWidth = Math.min(60, Math.max(38, ...ones.map((s) => s.length)));
  out.push(`  ${cell('family', 16)} ${cell('session', width)} ${'calls'.padStart(6)}  ${cell('one-phase', oneWidth)} two-phase`);
  runs.forEach((r, i) => {
    out.push(`  ${textCell(r.family, 16)} ${textCell(r.session, width)} ${n(r.calls).padStart(6)}  ${cell(ones[i] as string, oneWidth)} ${said(r.twoPhase)}`);
  });
  return out;
}

/** What the report is about, for its first line. */
export interface EvalTextContext {
  readonly policy: string;
  readonly engine: string;
  readonly by: 'family' | 'agent';
}

/** The note under the tables of runs with benchmark labels only. */
const NOTE_BENCH = [
  'Shares of the runs in each group, with their 95% Wilson interval. step_limit: runs cut off by their step cap (warned: a',
  'message was shown; broken: a break stopped or turned the run); submitted: runs the agent finished (broken: a false alarm,',
  "work a break would have destroyed). 1st brk: median call of the first break (#1: a run's first call). saved/limit",
  'calls: calls from the first break on, in runs ended on a step, cost or context limit, of all their calls.',
];

/** The note under the tables when some runs are interactive sessions (`bench`: with the benchmark columns). */
function noteInteractive(bench: boolean): string[] {
  return [
    'Shares of the runs in each group, with their 95% Wilson interval.',
    ...(bench ? ['step_limit: runs cut off by their step cap (warned: a message was shown; broken: a break stopped or turned the run);', 'submitted: runs the agent finished (broken: a false alarm, work a break would have destroyed).'] : []),
    "interactive: a person's sessions, ordinary work (warned: a message shown, a cost; broken: a false alarm); sessions",
    'labelled as genuine loops (loop: true) are left out of these shares and listed below, one-phase / two-phase.',
    "1st brk: median call of the first break (#1: a run's first call).",
    ...(bench ? ['saved/limit calls: calls from the first break on, in runs ended on a step, cost or context limit, of all their calls.'] : []),
  ];
}

/** Of a resolved share: `count of n (p%)`. */
const ofResolved = (s: Share): string => `${s.count} of ${s.of} (${s.rate === null ? '-' : `${(100 * s.rate).toFixed(1)}%`})`;

/** The line on resolved runs broken (correct work a break would have destroyed), when labels say which were resolved. */
function resolvedLines(report: EvalReport): string[] {
  const one = report.onePhase.overall;
  const two = report.twoPhase.overall;
  if (one.resolvedBroken.of === 0) return [];
  const said = (r: EvalRow): string => `${ofResolved(r.resolvedBroken)}, submitted ${ofResolved(r.resolvedSubmittedBroken)}`;
  return [`Resolved runs broken (correct work a break would have destroyed): one-phase ${said(one)}; two-phase ${said(two)}`, ''];
}

/**
 * The runs whose exit status no figure counts (a typo such as `steplimit` would otherwise vanish from every
 * share unsaid), and the statuses that are counted.
 */
function unjudgedNote(report: EvalReport): string {
  const by = Object.entries(report.unjudged);
  if (by.length === 0) return '';
  const total = by.reduce((a, [, k]) => a + k, 0);
  const shown = by.slice(0, 5).map(([status, k]) => `${JSON.stringify(status.length > 40 ? `${status.slice(0, 40)}...` : status)} ${n(k)}`).join(', ');
  return `, ${n(total)} of them labelled with an exit status no figure counts (${shown}${by.length > 5 ? ', ...' : ''}; counted: ${JUDGED_STATUSES.join(', ')})`;
}

/** The report as text lines. */
export function evalText(report: EvalReport, ctx: EvalTextContext): string {
  const judged = report.onePhase.overall.sessions;
  const c = columnsOf(report);
  const notFlagged = (none: string) => (r: JudgedRun | null) => verdictAt(r, none);
  const lines = [
    `${n(report.calls)} calls, ${n(judged)} labelled runs judged${report.unlabelled.length === 0 ? '' : `, ${n(report.unlabelled.length)} runs without a label left out`}${report.unmatchedLabels === 0 ? '' : `, ${n(report.unmatchedLabels)} labels without a run`}${unjudgedNote(report)} (${ctx.policy} policy, ${ctx.engine} engine; one-phase ${(report.millis.onePhase / 1000).toFixed(1)} s, two-phase ${(report.millis.twoPhase / 1000).toFixed(1)} s)`,
    '',
    'One-phase: each call checked after it ran, with its outcome',
    ...table(ctx.by, report.onePhase, c),
    '',
    'Two-phase: each call proposed before it runs (a break blocks it, and the replay of that run ends), then recorded',
    ...table(ctx.by, report.twoPhase, c),
    '',
    ...(c.interactive ? noteInteractive(c.bench) : NOTE_BENCH),
    '',
    ...resolvedLines(report),
    ...listing(c.interactive ? 'False alarms (submitted runs and interactive sessions broken)' : 'False alarms (submitted runs broken)', report.falseAlarms, notFlagged('not broken')),
    ...(c.interactive ? ['', ...listing('Warnings on interactive sessions (warned, not broken)', report.warnings, notFlagged('not warned'))] : []),
    ...(report.loops.length > 0 ? ['', ...listing(`Genuine loops (interactive sessions labelled loop: true; should be flagged; warned ${flagged(report.loops, (r) => r.warned)}, broken ${flagged(report.loops, (r) => r.firstBreak !== null)})`, report.loops, notFlagged('not warned'))] : []),
    ...(c.bench ? ['', ...listing('Misses (step_limit runs never warned)', report.misses, (r) => (r === null ? 'warned' : 'never warned'))] : []),
    ...(report.resolvedBroken.length > 0 ? ['', ...listing('Resolved runs broken (labelled resolved: correct work, whatever their exit)', report.resolvedBroken, notFlagged('not broken'))] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/** The runs of a list, one per line: session, family, calls, file (for `loopwatch explain`). */
export function listText(runs: readonly ListedRun[]): string {
  return runs.map((r) => `${shown(r.session)}\t${shown(r.family)}\t${r.calls}\t${shown(r.file)}\n`).join('');
}
