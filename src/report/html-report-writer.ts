/**
 * Writes the HTML report a piece at a time, as `--json` is written: the template's head first (before any
 * input is read), each session's row once the session has ended, then the rest of the report and the page
 * script at the end. The session table is never held whole in memory, however many sessions there are.
 */
import type { ReportDocument, ReportSession } from './report-data.js';
import { scriptJson } from './embed-json.js';
import { reportHead, reportTail } from './html-template.js';

/** The HTML report, written as the scan goes. */
export class HtmlReportWriter {
  private rows = 0;

  constructor(
    private readonly write: (text: string) => void,
    title: string,
  ) {
    this.write(reportHead(title));
  }

  /** Rows written so far (the next row's number). */
  get rowCount(): number {
    return this.rows;
  }

  /** One session's row; its `row` must be {@link rowCount}. */
  session(r: ReportSession): void {
    this.write(`${this.rows++ === 0 ? '\n' : ',\n'}${scriptJson(r)}`);
  }

  /** The rest of the report, closing the page. */
  end(doc: ReportDocument): void {
    this.write(`${this.rows === 0 ? '' : '\n'}${reportTail(scriptJson(doc))}`);
  }
}
