/**
 * The report's key: what each verdict kind, action and mark in the matrix, the session table and the
 * timelines means, shown as text beside them (never only on hover, never hidden from screen readers).
 * Kinds are listed as they appear in this report (the built-in ones with their detector's one-line
 * meaning from docs/detectors.md, any other as a custom detector's), so a reader meets no unexplained word.
 */
import { meaning } from '../kind-meanings.js';
import type { ReportAction } from '../report-data.js';
import { el } from './dom.js';

/** What each action means. */
export const ACTION_MEANINGS: Readonly<Record<ReportAction, string>> = {
  warn: 'the agent is told it looks stuck and may go on',
  ask: 'a person is asked before the call goes on',
  break: 'the run should stop here',
};

/** Kinds listed at most (custom detectors could be many); the rest are counted. */
export const MAX_KINDS = 64;

/** The kinds in `seen` (each once, in the order first seen, at most {@link MAX_KINDS}), each with its meaning. */
export function kindList(seen: Iterable<string>): HTMLElement[] {
  const kinds = [...new Set(seen)];
  if (kinds.length === 0) return [el('p', { class: 'hint' }, 'No verdict in this report, so no kind to explain.')];
  const list = el(
    'dl',
    { class: 'key kinds', id: 'lw-legend-kinds' },
    ...kinds.slice(0, MAX_KINDS).flatMap((k) => [el('dt', { 'data-kind': k }, k), el('dd', {}, meaning(k))]),
  );
  return kinds.length <= MAX_KINDS ? [list] : [list, el('p', { class: 'hint' }, `and ${kinds.length - MAX_KINDS} more custom kinds`)];
}

const swatch = (cls: string): HTMLElement => el('span', { class: cls, 'aria-hidden': 'true' });

/** The marks of the session table and the matrix, each with what it means. */
function marks(actions: readonly ReportAction[]): HTMLElement {
  const item = (mark: HTMLElement | string, text: string): HTMLElement => el('li', {}, typeof mark === 'string' ? el('span', { class: 'mark' }, mark) : mark, ` ${text}`);
  return el(
    'ul',
    { class: 'key marks', id: 'lw-legend-marks' },
    ...actions.map((a) => item(el('span', { class: `badge ${a}` }, a), ACTION_MEANINGS[a])),
    item(el('span', { class: 'mark muted' }, '–'), 'no verdict at or above the minimum action'),
    item(el('span', { class: 'pill' }, 'timeline'), 'choose the session to see its calls with the verdicts beside them'),
    item(el('span', { class: 'pill muted' }, 'ended early'), 'cut to stay within --max-sessions; its detectors started afresh'),
    item('call #7 → call #15', 'loop start: the call where the loop began → the call it was flagged at, counted from 1 (by the input\'s own steps when it gives them: step 7 → step 15)'),
    item('✓', 'the run solved its task (when the labels say)'),
    item(el('span', { class: 'mark heat' }, '12 (3 sessions)'), 'matrix: verdicts, and the sessions that had one; the deeper the shade, the more verdicts'),
  );
}

/** The key shown above the matrix: actions and marks, then the kinds seen. */
export function legend(kinds: Iterable<string>): HTMLElement[] {
  return [el('h3', { class: 'key-title' }, 'Actions and marks'), marks(['warn', 'ask', 'break']), el('h3', { class: 'key-title' }, 'Kinds of loop (and the detectors of the same name)'), ...kindList(kinds)];
}

/** The timeline strip's key: each cell mark and what it means (the swatches are decoration, the text is read). */
export function timelineKey(): HTMLElement {
  const items: readonly (readonly [string, string])[] = [
    ['cell', 'a call'],
    ['cell loop', 'in a loop (shaded, underlined)'],
    ['cell wasted', 'after the first break (hatched)'],
    ['cell failed', 'the call failed (dot)'],
    ['cell v-warn', 'warn verdict (top bar)'],
    ['cell v-ask', 'ask verdict (top bar)'],
    ['cell v-break', 'break verdict (top bar)'],
  ];
  return el('ul', { class: 'legend', 'aria-label': 'Timeline key' }, ...items.map(([cls, text]) => el('li', {}, swatch(cls), text)));
}
