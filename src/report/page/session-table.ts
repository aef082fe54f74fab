/**
 * The session table: sortable by every column (buttons in the headers, so the keyboard sorts too;
 * `aria-sort` says how), filtered by a text box (session, file, kinds, label) and by action and label,
 * and shown a page at a time so a scan of a hundred thousand sessions stays responsive. A session's id is
 * a button that opens its timeline.
 */
import { type ReportAction, type ReportSession, TABLE_PAGE_ROWS } from '../report-data.js';
import { el, fill, fmt } from './dom.js';
import { fileCell } from './file-cell.js';
import { callName, loopBegan } from '../../text/call-number.js';

const PAGE_ROWS = TABLE_PAGE_ROWS;

type Key = 'session' | 'file' | 'calls' | 'worst' | 'kinds' | 'loopStart' | 'wasted' | 'label';

interface Column {
  readonly key: Key;
  readonly title: string;
  readonly numeric: boolean;
  /** Sorted from the largest first when first clicked. */
  readonly descFirst: boolean;
}

const RANK: Readonly<Record<ReportAction, number>> = { warn: 1, ask: 2, break: 3 };

/** What the table needs from the page. */
export interface TableOptions {
  readonly rows: readonly ReportSession[];
  /** Whether a row has a timeline. */
  readonly hasTimeline: (row: number) => boolean;
  /** Opens a row's timeline (or says why it has none). */
  readonly open: (row: number) => void;
}

/** The value a row is sorted by; null sorts last whichever the direction. */
function sortValue(r: ReportSession, key: Key): string | number | null {
  switch (key) {
    case 'worst':
      return r.worst === null ? 0 : RANK[r.worst];
    case 'kinds':
      return r.kinds[0] ?? null;
    case 'loopStart':
      return r.loopStart;
    case 'label':
      return r.label;
    default:
      return r[key];
  }
}

/** Ties on the column sorted by: worst first (as the summary ranks), then in the order sessions ended. */
function worseFirst(a: ReportSession, b: ReportSession): number {
  const rank = (r: ReportSession): number => (r.worst === null ? 0 : RANK[r.worst]);
  return b.wasted - a.wasted || rank(b) - rank(a) || b.verdicts - a.verdicts || a.row - b.row;
}

function compare(a: ReportSession, b: ReportSession, key: Key, dir: 1 | -1): number {
  const x = sortValue(a, key);
  const y = sortValue(b, key);
  if (x === null || y === null) return x === y ? worseFirst(a, b) : x === null ? 1 : -1;
  const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
  return c === 0 ? worseFirst(a, b) : c * dir;
}

/** The folder every row's file is in (up to its last `/`), to show the files below it; empty when they share none. */
function commonFolder(files: readonly string[]): string {
  const first = files[0];
  if (first === undefined) return '';
  let prefix = first.slice(0, first.lastIndexOf('/') + 1);
  for (const f of files) {
    while (prefix !== '' && !f.startsWith(prefix)) {
      const cut = prefix.length < 2 ? -1 : prefix.lastIndexOf('/', prefix.length - 2);
      prefix = cut < 0 ? '' : prefix.slice(0, cut + 1);
    }
    if (prefix === '') break;
  }
  return prefix;
}

function loopCell(r: ReportSession): string {
  if (r.loopStart === null) return '';
  if (r.flaggedAt === null || r.flaggedCall === null) return callName(r.loopStart);
  const b = loopBegan(r.loopStart, r.loopStartStep, r.flaggedCall, r.flaggedAt);
  return `${b.from} → ${b.at}`;
}

/** Builds the table into `host`. */
export function sessionTable(host: HTMLElement, o: TableOptions): void {
  const labelled = o.rows.some((r) => r.label !== null);
  const columns: Column[] = [
    { key: 'session', title: 'session', numeric: false, descFirst: false },
    { key: 'file', title: 'file', numeric: false, descFirst: false },
    { key: 'calls', title: 'calls', numeric: true, descFirst: true },
    { key: 'worst', title: 'worst action', numeric: false, descFirst: true },
    { key: 'kinds', title: 'kinds', numeric: false, descFirst: false },
    { key: 'loopStart', title: 'loop start', numeric: true, descFirst: false },
    { key: 'wasted', title: 'wasted calls', numeric: true, descFirst: true },
    ...(labelled ? [{ key: 'label', title: 'label', numeric: false, descFirst: false } as const] : []),
  ];
  let sort: { key: Key; dir: 1 | -1 } = { key: 'wasted', dir: -1 };
  const folder = commonFolder(o.rows.map((r) => r.file));
  let limit = PAGE_ROWS;

  const search = el('input', { type: 'search', id: 'lw-filter', placeholder: 'session, file, kind, label', 'aria-controls': 'lw-table', autocomplete: 'off' });
  const action = el(
    'select',
    { id: 'lw-action', 'aria-controls': 'lw-table' },
    ...[['', 'any'], ['flagged', 'flagged'], ['break', 'break'], ['ask', 'ask'], ['warn', 'warn'], ['none', 'not flagged']].map(([v, t]) => el('option', { value: v }, t)),
  );
  const labels = [...new Set(o.rows.map((r) => r.label).filter((l): l is string => l !== null))].sort().slice(0, 100);
  const label = el('select', { id: 'lw-label', 'aria-controls': 'lw-table' }, el('option', { value: '' }, 'any'), ...labels.map((l) => el('option', { value: l }, l)));
  const status = el('p', { class: 'status', id: 'lw-count', 'aria-live': 'polite' });
  const more = el('button', { type: 'button', class: 'more', id: 'lw-more' });
  const body = el('tbody');
  const headCells = columns.map((c) => {
    const b = el('button', { type: 'button', 'data-key': c.key }, c.title, el('span', { class: 'arrow', 'aria-hidden': 'true' }));
    b.addEventListener('click', () => {
      sort = sort.key === c.key ? { key: c.key, dir: sort.dir === 1 ? -1 : 1 } : { key: c.key, dir: c.descFirst ? -1 : 1 };
      limit = PAGE_ROWS;
      render();
    });
    return el('th', { scope: 'col', role: 'columnheader', class: c.numeric ? 'num' : null, 'data-key': c.key }, b);
  });
  // explicit roles: below 800 px the rows are drawn as cards (CSS display), which must not cost the table its semantics
  body.setAttribute('role', 'rowgroup');
  const table = el('table', { id: 'lw-table', class: 'sessions', role: 'table' }, el('thead', { role: 'rowgroup' }, el('tr', { role: 'row' }, ...headCells)), body);

  function matches(r: ReportSession, text: string, act: string, lab: string): boolean {
    if (act === 'flagged' ? r.worst === null : act === 'none' ? r.worst !== null : act !== '' && r.worst !== act) return false;
    if (lab !== '' && r.label !== lab) return false;
    if (text === '') return true;
    return [r.session, r.file, r.label ?? '', ...r.kinds].some((s) => s.toLowerCase().includes(text));
  }

  function rowOf(r: ReportSession): HTMLTableRowElement {
    const has = o.hasTimeline(r.row);
    const id = el('button', { type: 'button', class: has ? 'session has-timeline' : 'session', 'data-row': r.row, title: has ? 'open its timeline' : 'no timeline kept: shows how to get one' }, r.session);
    id.addEventListener('click', () => o.open(r.row));
    const cells: Record<Key, HTMLTableCellElement> = {
      session: el('td', { class: 'id' }, id, has ? el('span', { class: 'pill' }, 'timeline') : null, r.endedEarly ? el('span', { class: 'pill muted', title: 'ended early to stay within --max-sessions' }, 'ended early') : null),
      file: fileCell(r.file, folder),
      calls: el('td', { class: 'num' }, fmt(r.calls)),
      worst: el('td', {}, r.worst === null ? el('span', { class: 'muted' }, '–') : el('span', { class: `badge ${r.worst}` }, r.worst)),
      kinds: el('td', { class: 'kinds' }, r.kinds.join(', ')),
      loopStart: el('td', { class: 'num nowrap' }, loopCell(r)),
      wasted: el('td', { class: 'num' }, r.wasted === 0 ? '' : fmt(r.wasted)),
      label: el('td', {}, r.label === null ? '' : r.label, r.resolved === true ? el('span', { class: 'resolved', title: 'solved its task' }, ' ✓') : null),
    };
    for (const c of columns) {
      cells[c.key].setAttribute('data-label', c.title);
      cells[c.key].setAttribute('role', 'cell');
    }
    return el('tr', { 'data-row': r.row, role: 'row' }, ...columns.map((c) => cells[c.key]));
  }

  function render(): void {
    const text = search.value.trim().toLowerCase();
    const shown = o.rows.filter((r) => matches(r, text, action.value, label.value)).sort((a, b) => compare(a, b, sort.key, sort.dir));
    fill(body, ...shown.slice(0, limit).map(rowOf));
    if (shown.length === 0) fill(body, el('tr', { role: 'row' }, el('td', { colspan: columns.length, class: 'empty', role: 'cell' }, 'No session matches the filters.')));
    for (const th of headCells) {
      const key = th.getAttribute('data-key');
      const on = key === sort.key;
      th.setAttribute('aria-sort', on ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none');
      const arrow = th.querySelector('.arrow');
      if (arrow !== null) arrow.textContent = on ? (sort.dir === 1 ? ' ▲' : ' ▼') : '';
    }
    const n = Math.min(limit, shown.length);
    status.textContent = `${fmt(shown.length)} of ${fmt(o.rows.length)} sessions match${shown.length > n ? `; showing the first ${fmt(n)}` : ''}`;
    more.hidden = shown.length <= limit;
    more.textContent = `Show ${fmt(Math.min(PAGE_ROWS, shown.length - limit))} more`;
  }

  search.addEventListener('input', () => {
    limit = PAGE_ROWS;
    render();
  });
  for (const s of [action, label]) {
    s.addEventListener('change', () => {
      limit = PAGE_ROWS;
      render();
    });
  }
  more.addEventListener('click', () => {
    limit += PAGE_ROWS;
    render();
  });
  const controls = el(
    'div',
    { class: 'controls' },
    el('label', { for: 'lw-filter' }, 'Filter ', search),
    el('label', { for: 'lw-action' }, 'Action ', action),
    labelled ? el('label', { for: 'lw-label' }, 'Label ', label) : null,
  );
  const where = folder === '' ? null : el('p', { class: 'hint' }, 'Files below ', el('span', { class: 'id' }, folder));
  fill(host, controls, where, status, el('div', { class: 'scroll' }, table), more);
  render();
}
