/** The scan's summary as a readable terminal report. */
import type { ScanSummary, SessionReport } from '../scan/scan-summary.js';

const n = (x: number): string => x.toLocaleString('en-US');
const pct = (x: number, of: number): string => (of === 0 ? '0%' : `${((100 * x) / of).toFixed(1)}%`);

function cell(s: string, width: number): string {
  return s.length > width ? `${s.slice(0, width - 1)}…` : s.padEnd(width);
}

function loopBegan(s: SessionReport): string {
  const f = s.firstVerdict;
  if (f === null) return '';
  const at = f.loopStartStep === null ? `call #${f.loopStart}` : `step ${f.loopStartStep}`;
  return `${at}, flagged at step ${f.step}`;
}

/** The report, lines joined with newlines (no trailing newline). */
export function summaryText(s: ScanSummary, options: { readonly minAction: string }): string {
  const lines: string[] = [];
  const seconds = s.eventsPerSecond > 0 ? s.events / s.eventsPerSecond : 0;
  lines.push(`loopwatch scan: ${n(s.sessions)} sessions, ${n(s.events)} calls in ${seconds.toFixed(1)} s (${n(s.eventsPerSecond)} calls/s)`);
  if (s.skipped > 0) lines.push(`skipped: ${n(s.skipped)} lines, elements or inputs (each named on stderr)`);
  if (s.evictedSessions > 0) lines.push(`ended early: ${n(s.evictedSessions)} sessions, to stay within --max-sessions`);
  lines.push('');
  lines.push(`flagged sessions (${options.minAction} or above): ${n(s.flaggedSessions)} of ${n(s.sessions)} (${pct(s.flaggedSessions, s.sessions)})`);
  lines.push(`  by action: break ${n(s.byAction.break)} · ask ${n(s.byAction.ask)} · warn ${n(s.byAction.warn)}`);
  const kinds = Object.entries(s.byKind);
  lines.push(`  by kind:   ${kinds.length === 0 ? '-' : kinds.map(([k, c]) => `${k} ${n(c)}`).join(' · ')}`);
  lines.push(`calls after the first break-level verdict: ${n(s.wastedCalls)} of ${n(s.events)} (${pct(s.wastedCalls, s.events)})`);
  if (s.topTools.length > 0) {
    lines.push('');
    lines.push('top looping tools');
    lines.push(`  ${cell('tool', 28)} ${'verdicts'.padStart(9)} ${'sessions'.padStart(9)}`);
    for (const t of s.topTools) lines.push(`  ${cell(t.tool, 28)} ${n(t.verdicts).padStart(9)} ${n(t.sessions).padStart(9)}`);
  }
  if (s.worstSessions.length > 0) {
    lines.push('');
    lines.push('worst sessions');
    lines.push(`  ${cell('session', 44)} ${'calls'.padStart(6)} ${'wasted'.padStart(7)} ${cell('action', 6)} ${cell('kind', 14)} loop began`);
    for (const w of s.worstSessions) {
      lines.push(`  ${cell(w.session, 44)} ${n(w.calls).padStart(6)} ${n(w.wastedCalls).padStart(7)} ${cell(w.worstAction ?? '', 6)} ${cell(w.kinds[0] ?? '', 14)} ${loopBegan(w)}`);
    }
  }
  return lines.join('\n');
}
