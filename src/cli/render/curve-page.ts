/**
 * `loopwatch eval --html FILE`: the curve of an evaluation as one self-contained page, no script and no
 * network (a Content-Security-Policy allowing only its own style): two plots drawn as inline SVG, step_limit
 * runs broken (up) against finished work broken (false alarms, across) and against finished work warned,
 * each with a line per replay through the presets in order (quietest first) and any other policy (a
 * config) as its own marker; then the figures as a table. Every text from outside (a config's path, the
 * folder) is redacted and escaped.
 *
 * ```
 *  broken %  ▲            aggressive ●
 *            │      balanced ●
 *            │  default ●        ◆ fitted.json
 *            │●conservative
 *            └──────────────────────▶ false alarms %
 * ```
 */
import { createHash } from 'node:crypto';
import type { PendingOutput } from './pending-output.js';
import { CURVE_PRESETS, type CurveFigures, type CurvePoint } from '../../eval/eval-curve.js';
import type { Share } from '../../eval/wilson.js';
import { escapeHtml } from '../../report/embed-json.js';
import { redactSecrets } from '../../text/redact.js';
import { UsageError } from '../usage-error.js';
import { shareText } from './eval-text.js';

/** What the page says it measured. */
export interface CurvePageFacts {
  readonly dir: string;
  readonly runs: number;
  readonly calls: number;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d232b}h1{font-size:1.3rem}
.plots{display:flex;flex-wrap:wrap;gap:24px}svg{background:#fff;border:1px solid #d6dbe1}
text{font-size:11px;fill:#1d232b}.axis{stroke:#57606a}.grid{stroke:#eef0f3}.one{stroke:#0969da;fill:#0969da}
.two{stroke:#cf222e;fill:#cf222e}polyline{fill:none;stroke-width:2}table{border-collapse:collapse;margin-top:20px}
td,th{padding:3px 10px;border-bottom:1px solid #e3e6ea;text-align:left;font-variant-numeric:tabular-nums}
.muted{color:#57606a}`;

const W = 440;
const H = 320;
const PAD = { left: 48, right: 16, top: 16, bottom: 40 };
const safe = (t: string): string => escapeHtml(redactSecrets(t));
const pc = (x: number | null): number => (x === null ? 0 : 100 * x);

/** A round upper bound for an axis holding `max` percent. */
function axisMax(max: number): number {
  for (const m of [1, 2, 5, 10, 20, 25, 50, 100]) if (max <= m * 0.95) return m;
  return 100;
}

/** One plot: broken (y) against `x` of each replay. */
function plot(curve: readonly CurvePoint[], title: string, x: (f: CurveFigures) => Share): string {
  const xs = curve.flatMap((p) => [pc(x(p.onePhase).rate), pc(x(p.twoPhase).rate)]);
  const xMax = axisMax(Math.max(1, ...xs));
  const px = (v: number): number => PAD.left + (v / xMax) * (W - PAD.left - PAD.right);
  const py = (v: number): number => H - PAD.bottom - (v / 100) * (H - PAD.top - PAD.bottom);
  const out: string[] = [`<svg width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(title)}">`];
  for (let k = 0; k <= 4; k++) {
    const gx = px((xMax * k) / 4);
    const gy = py(25 * k);
    out.push(`<line class="grid" x1="${gx}" y1="${PAD.top}" x2="${gx}" y2="${H - PAD.bottom}"/><line class="grid" x1="${PAD.left}" y1="${gy}" x2="${W - PAD.right}" y2="${gy}"/>`);
    out.push(`<text x="${gx}" y="${H - PAD.bottom + 14}" text-anchor="middle">${(xMax * k) / 4}%</text><text x="${PAD.left - 6}" y="${gy + 4}" text-anchor="end">${25 * k}%</text>`);
  }
  out.push(`<line class="axis" x1="${PAD.left}" y1="${H - PAD.bottom}" x2="${W - PAD.right}" y2="${H - PAD.bottom}"/><line class="axis" x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${H - PAD.bottom}"/>`);
  out.push(`<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 8}" text-anchor="middle">${escapeHtml(title)}</text>`);
  out.push(`<text x="12" y="${(PAD.top + H - PAD.bottom) / 2}" text-anchor="middle" transform="rotate(-90 12 ${(PAD.top + H - PAD.bottom) / 2})">step_limit runs broken</text>`);
  for (const [cls, pick] of [['one', (p: CurvePoint) => p.onePhase], ['two', (p: CurvePoint) => p.twoPhase]] as const) {
    const presets = curve.filter((p) => CURVE_PRESETS.includes(p.policy));
    const points = presets.map((p) => `${px(pc(x(pick(p)).rate)).toFixed(1)},${py(pc(pick(p).stepLimitBroken.rate)).toFixed(1)}`);
    if (points.length > 1) out.push(`<polyline class="${cls}" points="${points.join(' ')}"/>`);
    for (const p of curve) {
      const cx = px(pc(x(pick(p)).rate));
      const cy = py(pc(pick(p).stepLimitBroken.rate));
      const preset = CURVE_PRESETS.includes(p.policy);
      out.push(preset ? `<circle class="${cls}" cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="4"/>` : `<rect class="${cls}" x="${(cx - 5).toFixed(1)}" y="${(cy - 5).toFixed(1)}" width="10" height="10" transform="rotate(45 ${cx.toFixed(1)} ${cy.toFixed(1)})"/>`);
      out.push(`<text x="${(cx + 7).toFixed(1)}" y="${(cy - 6).toFixed(1)}">${safe(p.policy.length > 28 ? `…${p.policy.slice(-27)}` : p.policy)}</text>`);
    }
  }
  out.push('</svg>');
  return out.join('\n');
}

function row(p: CurvePoint): string {
  const f = (x: CurveFigures): string => [x.stepLimitBroken, x.finishedBroken, x.finishedWarned].map((s) => `<td>${escapeHtml(shareText(s))}</td>`).join('');
  return `<tr><td>${safe(p.policy)}</td>${f(p.onePhase)}${f(p.twoPhase)}</tr>`;
}

/** The page of `curve`. */
export function curvePage(curve: readonly CurvePoint[], facts: CurvePageFacts): string {
  const csp = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="referrer" content="no-referrer">
<title>loopwatch eval curve</title>
<style>${STYLE}</style>
</head>
<body>
<h1>loopwatch eval: the curve</h1>
<p class="muted">${safe(facts.dir)}: ${facts.runs.toLocaleString('en-US')} labelled runs, ${facts.calls.toLocaleString('en-US')} calls. Each policy replayed one-phase (<span class="one">blue</span>, each call checked after it ran) and two-phase (<span class="two">red</span>, proposed before it runs). Presets are dots joined from the quietest to the loudest; any other policy (a config) is a diamond. Finished work: submitted runs and interactive sessions.</p>
<div class="plots">
${plot(curve, 'finished work broken (false alarms)', (f) => f.finishedBroken)}
${plot(curve, 'finished work warned', (f) => f.finishedWarned)}
</div>
<table>
<tr><th rowspan="2">policy</th><th colspan="3">one-phase</th><th colspan="3">two-phase</th></tr>
<tr><th>step_limit broken</th><th>false alarms</th><th>warned</th><th>step_limit broken</th><th>false alarms</th><th>warned</th></tr>
${curve.map(row).join('\n')}
</table>
</body>
</html>
`;
}

/**
 * Writes the page of `curve` into `out`, the `--html` file opened before the evaluation began. Throws
 * UsageError when it cannot be written.
 */
export function writeCurvePage(out: PendingOutput, curve: readonly CurvePoint[], facts: CurvePageFacts): void {
  const page = curvePage(curve, facts);
  try {
    out.write(page);
  } catch (e) {
    throw new UsageError(`--html ${out.path}: cannot write the page (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}
