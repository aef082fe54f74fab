/**
 * The machine-readable outputs: one JSON line per verdict (`--jsonl`) and one JSON document for the whole
 * scan (`--json`), written as the scan goes: each session's report once it has ended, the summary at the
 * end, so the document never has to be held whole. Field names and order are part of the CLI's contract
 * (docs/cli.md, "Output schemas").
 */
import type { Verdict } from '../../types.js';
import type { CallSite } from '../scan/scan-pipeline.js';
import type { ScanSummary, SessionReport } from '../scan/scan-summary.js';

/** One `--jsonl` line (without the newline) for a verdict about the session's call `index`. */
export function verdictLine(v: Verdict, call: CallSite, index: number): string {
  return JSON.stringify({
    session: call.session,
    file: call.file,
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
}

/** Writes the `--json` document a piece at a time: `{"sessions": [...], "summary": {...}}`. */
export class JsonDocumentWriter {
  private count = 0;
  private started = false;

  constructor(private readonly write: (text: string) => void) {}

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.write('{\n  "sessions": [');
  }

  /** One session's report (one line of the array). */
  session(r: SessionReport): void {
    this.start();
    this.write(`${this.count++ === 0 ? '\n    ' : ',\n    '}${JSON.stringify(r)}`);
  }

  /** The summary, closing the document. */
  end(summary: ScanSummary): void {
    this.start();
    const body = JSON.stringify(summary, null, 2).replace(/\n/g, '\n  ');
    this.write(`${this.count === 0 ? '' : '\n  '}],\n  "summary": ${body}\n}\n`);
  }
}
