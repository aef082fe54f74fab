/**
 * How `loopwatch explain` shows a session: one line per call (index, step, call preview, outcome preview,
 * and beside it the verdict), the signals of a fused verdict indented under it, a footer with what the
 * session cost, and the same rows as JSON for tools. Cells are cut with `…` to fit the terminal, after their
 * control characters are written as escapes (`terminal-text.ts`): a cut falls between code points, never
 * inside an escape.
 */
import { previewArgs as argsPreview } from '../../text/call-preview.js';
import { oneLine } from '../../text/shown-text.js';
import { headSafe, jsonSafe, terminalSafe } from '../../text/terminal-text.js';
import { anyOwnStep, callAt, callNumber } from '../../text/call-number.js';
import type { LoopAction, ToolEvent, Verdict } from '../../types.js';

/** Characters of result or error text kept in an outcome preview. */
export const OUTCOME_PREVIEW_LENGTH = 160;

/** One call of the explained session, as shown. */
export interface ExplainRow {
  /** Position of the call in the session, from 0 (every call read, exempt tools included). */
  readonly index: number;
  /** The caller's step number, when the record had one. */
  readonly step: number | null;
  /** The tool name as shown (cut to 256 characters, secrets redacted unless `--no-redact`). */
  readonly tool: string;
  /** The args preview (`previewCall` without the tool name; secrets redacted unless `--no-redact`). */
  readonly args: string;
  /** The outcome preview: `error: ...`, the result on one line, or empty when unknown (redacted likewise). */
  readonly outcome: string;
  /** What loopwatch said about the call. */
  readonly verdict: Verdict | null;
  /** Position (as `index`) of the call where the verdict's loop began; null without a verdict. */
  readonly loopStart: number | null;
}

/** What the footer says beyond the rows: the session's metadata, when known. */
export interface ExplainContext {
  readonly agent?: string;
  readonly exitStatus?: string;
}

/** The args part of `previewCall(tool, args)` (empty without args). */
export function previewArgs(args: unknown): string {
  return args === undefined ? '' : argsPreview(args);
}

function outcomeText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string') return (v as { message: string }).message;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return '[unserialisable]';
  }
}

/** A one-line preview of what the call returned: `error: <message>` for a failure, else the result. */
export function previewOutcome(e: ToolEvent): string {
  const failed = e.error !== undefined && e.error !== null && e.error !== false;
  const result = outcomeText(e.result);
  if (!failed) return oneLine(result, OUTCOME_PREVIEW_LENGTH);
  const message = e.error === true ? '' : outcomeText(e.error);
  const text = [message, result].filter((t) => t !== '').join(' — ');
  return oneLine(text === '' ? 'error' : `error: ${text}`, OUTCOME_PREVIEW_LENGTH);
}

/** `s` (terminal-safe) cut to `width` characters with `…`. */
function cut(s: string, width: number): string {
  return s.length > width ? `${headSafe(s, width - 1)}…` : s;
}

const cell = (s: string, width: number): string => cut(s, width).padEnd(width);
const conf = (c: number): string => c.toFixed(2);
const gap = (n: number, idxW: number): string => `${'…'.padStart(idxW)} ${n} call${n === 1 ? '' : 's'}`;

function verdictText(r: ExplainRow): string {
  const v = r.verdict;
  if (v === null) return '';
  return `${v.action.toUpperCase().padEnd(5)} ${v.kind} ${conf(v.confidence)} since #${callNumber(r.loopStart ?? v.loopStart)} ${v.recommended}`;
}

/** The rows shown with `--around n`: those within `n` calls of a verdict. */
export function aroundVerdicts(rows: readonly ExplainRow[], n: number): ExplainRow[] {
  const hits = rows.filter((r) => r.verdict !== null).map((r) => r.index);
  let h = 0;
  return rows.filter((r) => {
    while (h < hits.length && (hits[h] as number) < r.index - n) h++;
    return h < hits.length && Math.abs((hits[h] as number) - r.index) <= n;
  });
}

/** The call lines of `shown` (rows of a session of `total` calls, in order), fitted to `width` columns. */
export function callLines(shown: readonly ExplainRow[], total: number, width: number): string[] {
  const idxW = Math.max(1, String(Math.max(1, total)).length);
  // the step column only when the input numbers its calls itself: a step that is the call's index, from 0, beside a # from 1 misleads
  const steps = anyOwnStep(shown);
  const stepW = steps ? Math.max(4, ...shown.map((r) => String(r.step ?? '').length)) : 0;
  const stepCell = (s: string): string => (steps ? ` ${s.padStart(stepW)}` : '');
  const verdictW = Math.max(0, ...shown.map((r) => verdictText(r).length));
  const lead = idxW + (steps ? 1 + stepW : 0) + 2;
  const rest = Math.max(30, width - lead - 2 - (verdictW > 0 ? 2 + Math.min(verdictW, 48) : 0));
  const callW = Math.max(16, Math.round(rest * 0.6));
  const outW = Math.max(10, rest - callW);
  const line = (s: string): string => cut(s.trimEnd(), width);
  const out = [line(`${'#'.padStart(idxW)}${stepCell('step')}  ${cell('call', callW)}  ${cell('outcome', outW)}  ${verdictW > 0 ? 'verdict' : ''}`)];
  let next = 0;
  for (const r of shown) {
    if (r.index > next) out.push(gap(r.index - next, idxW));
    next = r.index + 1;
    const call = terminalSafe(r.args === '' ? r.tool : `${r.tool} ${r.args}`);
    out.push(line(`${String(callNumber(r.index)).padStart(idxW)}${stepCell(String(r.step ?? ''))}  ${cell(call, callW)}  ${cell(terminalSafe(r.outcome), outW)}  ${verdictText(r)}`));
    const signals = r.verdict?.signals ?? [];
    if (signals.length > 1) {
      for (const s of signals) {
        const by = s.detector === s.kind ? '' : ` (${s.detector})`;
        out.push(line(`${' '.repeat(lead)}↳ ${s.kind}${by} ${conf(s.confidence)} ${s.progress ?? 'unknown'}`));
      }
    }
  }
  if (total > next) out.push(gap(total - next, idxW));
  return out;
}

/** The footer: calls, verdicts per action, the first verdict, the first break and what came after it. */
export function footerLines(rows: readonly ExplainRow[], context: ExplainContext): string[] {
  const byAction: Record<LoopAction, number> = { warn: 0, ask: 0, break: 0 };
  for (const r of rows) if (r.verdict !== null) byAction[r.verdict.action]++;
  const at = (r: ExplainRow): string => callAt(r.index, r.step);
  const first = rows.find((r) => r.verdict !== null);
  const firstBreak = rows.find((r) => r.verdict?.action === 'break');
  const lines = [`calls: ${rows.length} · verdicts: warn ${byAction.warn} · ask ${byAction.ask} · break ${byAction.break}`];
  lines.push(`first verdict: ${first?.verdict == null ? 'none' : `${at(first)} ${first.verdict.kind} (${first.verdict.action})`}`);
  if (firstBreak?.verdict != null) {
    lines.push(`first break: ${at(firstBreak)} ${firstBreak.verdict.kind}; calls after it: ${rows.length - firstBreak.index - 1}`);
  } else lines.push('first break: none');
  if (context.agent !== undefined || context.exitStatus !== undefined) {
    lines.push(terminalSafe(`agent: ${context.agent ?? '?'} · exit status: ${context.exitStatus ?? '?'}`));
  }
  return lines;
}

/** The `--json` document: one `{index, step, tool, args, outcome, verdict}` per row shown. */
export function explainJson(shown: readonly ExplainRow[]): string {
  return jsonSafe(JSON.stringify(
    shown.map((r) => ({ index: r.index, step: r.step, tool: r.tool, args: r.args, outcome: r.outcome, verdict: r.verdict })),
    null,
    2,
  ));
}
