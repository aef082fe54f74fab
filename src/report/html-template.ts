/**
 * The HTML report's template: the page's markup and style, written around the embedded data. The file is
 * self-contained: no fonts, images, scripts or styles from anywhere else, and a Content-Security-Policy
 * that lets the page load nothing (`default-src 'none'`) and run only its own script and style (by hash),
 * so even text that got past the escaping could not run. The page script (src/report/page/) fills the
 * sections from the JSON blocks.
 *
 * ```
 *   head (title, CSP, style) · skeleton (header, sections)
 *   <script type="application/json" id="lw-sessions">[ rows, written as sessions end ]</script>
 *   <script type="application/json" id="lw-report">{ the rest, written at the end }</script>
 *   <script>page script</script>
 * ```
 */
import { createHash } from 'node:crypto';
import { PAGE_SCRIPT } from './generated/page-script.js';
import { escapeHtml } from './embed-json.js';

/**
 * CSS that draws the table `sel` as one card per row (each cell a line, its column's name, from the cell's
 * `data-label`, before it), so a narrow window cuts no column; the header row becomes a row of sort buttons
 * (after `sortBy`) or is hidden. The table keeps its semantics through explicit roles (set by the page).
 */
function cards(sel: string, sortBy: string | null): string {
  const head = sortBy === null
    ? `${sel} thead { display: none; }`
    : `${sel} thead, ${sel} thead tr { display: flex; flex-wrap: wrap; align-items: baseline; gap: 2px 14px; }
  ${sel} thead { padding: 4px 8px; border-bottom: 1px solid var(--line); background: var(--panel); }
  ${sel} thead tr::before { content: "${sortBy}"; color: var(--muted); font-size: .85rem; }
  ${sel} thead th { position: static; border: 0; padding: 0; }`;
  return `  ${sel}, ${sel} tbody, ${sel} tr { display: block; min-width: 0; }
  ${head}
  ${sel} tbody tr { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 20rem), 1fr)); padding: 6px 0; border-bottom: 1px solid var(--line); }
  ${sel} tbody td { display: block; position: relative; border: 0; padding: 1px 8px 1px calc(6.5rem + 16px); text-align: left; min-width: 0; max-width: none; }
  ${sel} tbody td.id, ${sel} tbody td.file, ${sel} tbody td.call, ${sel} tbody td.outcome, ${sel} tbody td.verdict, ${sel} tbody td[colspan] { grid-column: 1 / -1; }
  ${sel} tbody td::before { content: attr(data-label); position: absolute; left: 8px; width: 6.5rem; color: var(--muted); font: .8rem/1.7 system-ui, sans-serif; font-style: normal; }
  ${sel} tbody td:empty { display: none; }
  ${sel} tbody td[colspan] { padding-left: 8px; }
  ${sel} tbody td[colspan]::before { content: none; }
  ${sel} td.file .file-line { max-width: none; }`;
}

const STYLE = `
:root { color-scheme: light dark; --bg: #fbfbfa; --fg: #1d2125; --muted: #667079; --line: #dde1e5; --panel: #ffffff;
  --accent: #2457a6; --warn: #a66a00; --ask: #b4460f; --break: #b3261e; --loop: rgba(36, 87, 166, .13);
  --heat-rgb: 179 38 30; --mono: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
@media (prefers-color-scheme: dark) { :root { --bg: #15181b; --fg: #e4e7ea; --muted: #9aa4ad; --line: #2e353b;
  --panel: #1c2024; --accent: #8ab4f8; --warn: #e3b341; --ask: #f0883e; --break: #ff7b72; --loop: rgba(138, 180, 248, .16);
  --heat-rgb: 255 123 114; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
header.top, main { max-width: 1280px; margin: 0 auto; padding: 0 20px; }
header.top { padding-top: 20px; }
h1 { font-size: 1.5rem; margin: 0 0 4px; }
h2 { font-size: 1.15rem; margin: 28px 0 10px; }
h2:focus { outline: none; }
h2:focus-visible { outline: 2px solid var(--accent); outline-offset: 3px; }
p { margin: 6px 0; }
.meta, .hint, .muted, .status, .facts { color: var(--muted); }
.meta { overflow-wrap: anywhere; font-size: .9rem; }
.warning, .note { border-left: 4px solid var(--warn); background: var(--panel); padding: 6px 10px; }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 12px; }
.tile { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
.tile .value { font-size: 1.7rem; font-weight: 650; font-variant-numeric: tabular-nums; }
.tile.alert .value { color: var(--break); }
.tile .label { font-weight: 600; }
.tile .sub { color: var(--muted); font-size: .85rem; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: var(--panel); font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { position: sticky; top: 0; background: var(--panel); font-size: .85rem; white-space: nowrap; }
.num { text-align: right; }
table.matrix { width: auto; min-width: min(480px, 100%); }
table.matrix td.heat { background: rgb(var(--heat-rgb) / calc(var(--heat, 0) * .3)); }
table.matrix .sessions { color: var(--muted); font-size: .8rem; }
th button { font: inherit; font-weight: 650; color: inherit; background: none; border: 0; padding: 2px 0; cursor: pointer; }
th button:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.controls { display: flex; flex-wrap: wrap; gap: 8px 18px; align-items: center; margin-bottom: 6px; }
input[type=search], select { font: inherit; padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg); }
input[type=search] { width: min(360px, 70vw); }
td.id, td.file, td.call, td.outcome { overflow-wrap: anywhere; }
td.id { min-width: 14em; max-width: 34em; }
td.file { font-family: var(--mono); font-size: .8rem; color: var(--muted); min-width: 9em; white-space: nowrap; }
td.file .file-line { display: flex; align-items: baseline; gap: 4px; max-width: 24em; }
td.file .path { display: flex; min-width: 0; overflow: hidden; }
td.file .head, td.file .tail { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
td.file .head { flex: 0 1 auto; min-width: 2ch; }
td.file .tail { flex: 0 1 auto; min-width: 6ch; direction: rtl; text-align: left; }
td.file .tail > span { direction: ltr; unicode-bidi: isolate; }
button.copy { flex: none; font: .75rem/1 system-ui, sans-serif; color: var(--muted); background: none; border: 1px solid transparent; border-radius: 4px; padding: 1px 3px; cursor: pointer; }
button.copy::before { content: "copy"; }
button.copy[data-copied="yes"]::before { content: "copied"; }
tr:hover button.copy, button.copy:focus-visible { border-color: var(--line); }
.offscreen { position: fixed; left: -9999px; top: 0; }
button.session { font: .85rem/1.4 var(--mono); color: var(--accent); background: none; border: 0; padding: 0; text-align: left; cursor: pointer; overflow-wrap: anywhere; }
button.session:hover { text-decoration: underline; }
button.more { margin-top: 8px; font: inherit; padding: 4px 12px; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg); cursor: pointer; }
.pill { display: inline-block; margin-left: 6px; padding: 0 6px; border-radius: 9px; font-size: .72rem; background: var(--loop); color: var(--accent); }
.pill.muted { color: var(--muted); background: transparent; border: 1px solid var(--line); }
.badge { display: inline-block; min-width: 3.2em; padding: 0 6px; border-radius: 4px; font-size: .8rem; font-weight: 650; text-align: center; color: #fff; }
.badge.warn { background: var(--warn); } .badge.ask { background: var(--ask); } .badge.break { background: var(--break); }
.resolved { color: var(--accent); }
.nowrap { white-space: nowrap; }
.empty { text-align: center; color: var(--muted); }
.id { font-family: var(--mono); overflow-wrap: anywhere; }
pre.command { font-family: var(--mono); background: var(--panel); border: 1px solid var(--line); padding: 8px; overflow-x: auto; }
h3.key-title { font-size: .95rem; margin: 10px 0 4px; }
ul.key.marks { list-style: none; padding: 0; margin: 4px 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 340px), 1fr)); gap: 4px 24px; font-size: .85rem; }
ul.key .mark { font-family: var(--mono); font-size: .8rem; }
ul.key .mark.heat { background: rgb(var(--heat-rgb) / .15); padding: 0 4px; font-family: inherit; }
ul.key .pill { margin-left: 0; }
dl.key.kinds { display: grid; grid-template-columns: fit-content(40%) 1fr; gap: 2px 16px; margin: 4px 0; font-size: .85rem; }
dl.key.kinds dt { font-family: var(--mono); font-weight: 600; overflow-wrap: anywhere; }
dl.key.kinds dd { margin: 0; color: var(--muted); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; list-style: none; padding: 0; margin: 8px 0; font-size: .85rem; color: var(--muted); }
.legend li { display: flex; align-items: center; gap: 6px; }
.legend .cell { display: inline-block; width: 14px; height: 14px; flex: none; }
.strip { display: flex; gap: 1px; align-items: stretch; height: 34px; margin: 8px 0 12px; overflow-x: auto; }
.strip .cell { flex: 1 1 0; min-width: 2px; }
.cell { position: relative; background: var(--line); }
.cell.loop { background: var(--loop); box-shadow: inset 0 -3px 0 var(--accent); }
.cell.wasted { background-image: repeating-linear-gradient(135deg, transparent 0 3px, rgb(var(--heat-rgb) / .35) 3px 5px); }
.cell.failed::after { content: ""; position: absolute; left: 50%; bottom: 3px; width: 4px; height: 4px; margin-left: -2px; border-radius: 50%; background: var(--break); }
.cell.v-warn { box-shadow: inset 0 5px 0 var(--warn); } .cell.v-ask { box-shadow: inset 0 5px 0 var(--ask); } .cell.v-break { box-shadow: inset 0 5px 0 var(--break); }
.strip .cell.gap { flex: 0 0 auto; padding: 0 6px; font-size: .75rem; color: var(--muted); display: flex; align-items: center; background: repeating-linear-gradient(90deg, var(--line) 0 2px, transparent 2px 5px); }
table.calls { font-size: .85rem; }
table.calls td.call, table.calls td.outcome { font-family: var(--mono); font-size: .8rem; }
table.calls td.call { min-width: 16em; }
table.calls td.verdict { min-width: 14em; }
table.calls tr.loop td:first-child { box-shadow: inset 4px 0 0 var(--accent); }
table.calls tr.loop { background: var(--loop); }
table.calls tr.wasted td { background-image: linear-gradient(rgb(var(--heat-rgb) / .07), rgb(var(--heat-rgb) / .07)); }
table.calls tr.failed td.outcome { color: var(--break); }
table.calls tr.gap td { color: var(--muted); font-style: italic; text-align: center; }
ul.signals { margin: 2px 0 0; padding-left: 16px; color: var(--muted); }
.two { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 0 32px; }
dl.cost { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
dl.cost dt { color: var(--muted); } dl.cost dd { margin: 0; font-variant-numeric: tabular-nums; }
ul.limits { margin: 0; padding-left: 20px; } ul.limits li { margin: 4px 0; }
footer { max-width: 1280px; margin: 32px auto; padding: 0 20px; color: var(--muted); font-size: .85rem; }
@media (max-width: 800px) {
  header.top, main, footer { padding-left: 12px; padding-right: 12px; }
  .strip { gap: 0; } .strip .cell { min-width: 1px; }
${cards('table.sessions', 'Sort by')}
}
@media (max-width: 640px) {
  table.matrix .sessions { display: block; } table.matrix th, table.matrix td { padding: 4px 6px; } table.matrix .badge { min-width: 0; }
${cards('table.calls', null)}
}
`;

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The report's page up to the start of the session rows' JSON array (the caller writes the rows, then {@link reportTail}). */
export function reportHead(title: string): string {
  const csp = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(PAGE_SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header class="top">
<h1>loopwatch scan report</h1>
<p class="meta" id="lw-meta">${escapeHtml(title)}</p>
</header>
<main>
<noscript><p class="warning">This report draws its tables with JavaScript; allow scripts for this file to see them.</p></noscript>
<div id="lw-warnings"></div>
<section aria-labelledby="h-summary"><h2 id="h-summary">Summary</h2><div class="tiles" id="lw-tiles"></div></section>
<section aria-labelledby="h-key"><h2 id="h-key">Key</h2><div id="lw-legend"></div></section>
<section aria-labelledby="h-matrix"><h2 id="h-matrix">Detectors × actions</h2>
<p class="hint">Verdicts each detector gave at each action (and the sessions that had one), over every session scanned.</p><div id="lw-matrix"></div></section>
<section aria-labelledby="h-sessions"><h2 id="h-sessions">Sessions</h2><p class="hint" id="lw-timeline-about"></p><div id="lw-table-host"></div></section>
<section aria-labelledby="lw-timeline-title"><h2 id="lw-timeline-title" tabindex="-1">Timeline</h2>
<div id="lw-timeline"><p class="hint">Choose a session in the table to see its calls with the verdicts beside them.</p></div></section>
<div class="two">
<section aria-labelledby="h-cost"><h2 id="h-cost">Cost</h2><dl class="cost" id="lw-cost"></dl></section>
<section aria-labelledby="h-limits"><h2 id="h-limits">What this cannot tell you</h2><ul class="limits" id="lw-limits"></ul></section>
</div>
</main>
<footer>Made by loopwatch scan. Self-contained: this file loads nothing from anywhere.</footer>
<script type="application/json" id="lw-sessions">[`;
}

/** The rest of the page after the session rows: the report's JSON (already made safe by `scriptJson`) and the page script. */
export function reportTail(reportJson: string): string {
  return `]</script>
<script type="application/json" id="lw-report">${reportJson}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
