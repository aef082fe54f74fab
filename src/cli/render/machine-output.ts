/**
 * The machine-readable outputs: one JSON line per verdict (`--jsonl`) and one JSON document for the whole
 * scan (`--json`), written as the scan goes: each session's report once it has ended, the summary at the
 * end, so the document never has to be held whole. Field names and order are part of the CLI's contract
 * (docs/cli.md, "Output schemas"). Session ids and files are redacted as the rest (`shown`), and the
 * characters a terminal acts on that JSON leaves raw are escaped (`jsonSafe`).
 */
import { jsonSafe } from '../../text/terminal-text.js';
import type { Verdict } from '../../types.js';
import type { CallSite } from '../scan/scan-pipeline.js';
import type { ScanSummary, SessionReport } from '../scan/scan-summary.js';

const asIs = (text: string): string => text;

/** One `--jsonl` line (without the newline) for a verdict about the session's call `index`; `shown` redacts the session id and file. */
export function verdictLine(v: Verdict, call: CallSite, index: number, shown: (text: string) => string = asIs): string {
  const line = JSON.stringify({
    session: shown(call.session),
    file: shown(call.file),
    index,
    step: call.step ?? index,
    tool: call.tool,
    kind: v.kind,
    detector: v.detector,
    confidence: Math.round(v.confidence * 1000) / 1000,
    action: v.action,
    loopStart: v.loopStart,
    recommended: v.recommended,
    message: v.message,
  });
  return jsonSafe(line);
}

/** Writes the `--json` document a piece at a time: `{"sessions": [...], "summary": {...}}`. */
export class JsonDocumentWriter {
  private count = 0;
  private started = false;

  constructor(
    private readonly write: (text: string) => void,
    /** Session ids and files as shown (redacted unless `--no-redact`). */
    private readonly shown: (text: string) => string = asIs,
  ) {}

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.write('{\n  "sessions": [');
  }

  /** One session's report (one line of the array). */
  session(r: SessionReport): void {
    this.start();
    const shown = { ...r, session: this.shown(r.session), file: this.shown(r.file) };
    this.write(`${this.count++ === 0 ? '\n    ' : ',\n    '}${jsonSafe(JSON.stringify(shown))}`);
  }

  /** The summary, closing the document. */
  end(summary: ScanSummary): void {
    this.start();
    const worstSessions = summary.worstSessions.map((r) => ({ ...r, session: this.shown(r.session), file: this.shown(r.file) }));
    const body = jsonSafe(JSON.stringify({ ...summary, worstSessions }, null, 2)).replace(/\n/g, '\n  ');
    this.write(`${this.count === 0 ? '' : '\n  '}],\n  "summary": ${body}\n}\n`);
  }
}
