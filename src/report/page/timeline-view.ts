/**
 * One session's timeline, as `loopwatch explain` prints it but drawn: a strip with a cell per call shown
 * (the loop's span shaded, the calls after the first break hatched, a verdict marked by its action, a
 * failed call dotted) and under it the calls, one row each, with the verdict beside them. Calls left out
 * of the window are one cell and one row that say how many, and which verdicts were among them.
 */
import type { ReportSession, ReportTimeline, TimelineCall, TimelineGap } from '../report-data.js';
import { count, el, fmt } from './dom.js';
import { timelineKey } from './legend.js';
import { anyOwnStep, callAt, callName, callNumber } from '../../text/call-number.js';

const inSpans = (t: ReportTimeline, i: number): boolean => t.spans.some(([s, e]) => i >= s && i <= e);
const wasted = (t: ReportTimeline, i: number): boolean => t.firstBreak !== null && i > t.firstBreak;

function gapText(g: TimelineGap, where: string): string {
  const v = (['break', 'ask', 'warn'] as const).filter((a) => g.verdicts[a] > 0).map((a) => `${a} ${fmt(g.verdicts[a])}`);
  return `${count(g.calls, 'call')} ${where} not shown${v.length === 0 ? '' : ` (verdicts: ${v.join(', ')})`}`;
}

function stateClass(t: ReportTimeline, c: TimelineCall): string {
  return [inSpans(t, c.index) ? 'loop' : '', wasted(t, c.index) ? 'wasted' : '', c.failed ? 'failed' : '', c.verdict === null ? '' : `v-${c.verdict.action}`].filter((s) => s !== '').join(' ');
}

function strip(t: ReportTimeline): HTMLElement {
  const cells: HTMLElement[] = [];
  const gapCell = (g: TimelineGap | null, where: string): void => {
    if (g !== null) cells.push(el('span', { class: 'cell gap', title: gapText(g, where) }, `… ${fmt(g.calls)}`));
  };
  gapCell(t.before, 'before');
  for (const c of t.shown) {
    const title = `${callAt(c.index, c.step)} ${c.tool}${c.verdict === null ? '' : ` — ${c.verdict.action} ${c.verdict.kind}`}`;
    cells.push(el('span', { class: `cell ${stateClass(t, c)}`, title }));
  }
  gapCell(t.after, 'after');
  return el('div', { class: 'strip', role: 'img', 'aria-label': `${count(t.calls, 'call')}; loop spans shaded, calls after the first break hatched` }, ...cells);
}

function verdictCell(c: TimelineCall): HTMLElement {
  const v = c.verdict;
  if (v === null) return el('td', { class: 'verdict' });
  const signals = v.signals.length === 0 ? null : el('ul', { class: 'signals' }, ...v.signals.map((s) => el('li', {}, `${s.kind}${s.detector === s.kind ? '' : ` (${s.detector})`} ${s.confidence.toFixed(2)}`)));
  return el(
    'td',
    { class: 'verdict', title: v.message },
    el('span', { class: `badge ${v.action}` }, v.action),
    ` ${v.kind} ${v.confidence.toFixed(2)} since ${callName(v.loopStart)} → ${v.recommended}`,
    v.detector === v.kind ? null : el('span', { class: 'muted' }, ` (${v.detector})`),
    signals,
  );
}

/** The columns, the step column only where a shown call has a step of the input's own (as `explain` prints it). */
const HEADS = ['#', 'step', 'call', 'outcome', 'verdict'] as const;
const heads = (steps: boolean): readonly string[] => (steps ? HEADS : HEADS.filter((h) => h !== 'step'));

function callRow(t: ReportTimeline, c: TimelineCall, steps: boolean): HTMLTableRowElement {
  const cells = [
    el('td', { class: 'num' }, callNumber(c.index)),
    steps ? el('td', { class: 'num muted' }, c.step ?? '') : null,
    el('td', { class: 'call' }, el('strong', {}, c.tool), c.args === '' ? null : ` ${c.args}`),
    el('td', { class: 'outcome' }, c.outcome),
    verdictCell(c),
  ].filter((td): td is HTMLTableCellElement => td !== null);
  const names = heads(steps);
  // the column's name on each cell: a narrow window draws the rows as cards, each cell named by it
  cells.forEach((td, i) => {
    td.setAttribute('data-label', names[i] ?? '');
    td.setAttribute('role', 'cell');
  });
  return el('tr', { class: stateClass(t, c), 'data-index': c.index, role: 'row' }, ...cells);
}

const gapRow = (g: TimelineGap | null, where: string, columns: number): HTMLTableRowElement | null => (g === null ? null : el('tr', { class: 'gap', role: 'row' }, el('td', { colspan: columns, role: 'cell' }, `… ${gapText(g, where)}`)));

/** The timeline of `r` drawn from `t`. */
export function timelineView(r: ReportSession, t: ReportTimeline): HTMLElement[] {
  const where = t.why === 'worst' ? 'among the worst sessions' : 'sampled';
  const shownText = t.before === null && t.after === null ? `all ${count(t.calls, 'call')}` : `${fmt(t.shown.length)} of ${count(t.calls, 'call')}`;
  const wastedCalls = t.firstBreak === null ? 0 : t.calls - t.firstBreak - 1;
  const facts = [shownText, where, t.firstBreak === null ? 'no break' : `first break at ${callName(t.firstBreak)}, ${count(wastedCalls, 'call')} after it`];
  if (r.label !== null) facts.push(`label: ${r.label}`);
  const steps = anyOwnStep(t.shown);
  const names = heads(steps);
  return [
    el('p', { class: 'facts' }, facts.join(' · ')),
    t.note === null ? null : el('p', { class: 'note' }, `Note: ${t.note}.`),
    timelineKey(),
    strip(t),
    el(
      'div',
      { class: 'scroll' },
      el(
        'table',
        { class: 'calls', role: 'table' },
        el('thead', { role: 'rowgroup' }, el('tr', { role: 'row' }, ...names.map((h) => el('th', { scope: 'col', role: 'columnheader', class: h === '#' || h === 'step' ? 'num' : null }, h)))),
        el('tbody', { role: 'rowgroup' }, gapRow(t.before, 'before', names.length), ...t.shown.map((c) => callRow(t, c, steps)), gapRow(t.after, 'after', names.length)),
      ),
    ),
  ].filter((e): e is HTMLElement => e !== null);
}

