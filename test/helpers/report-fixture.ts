/**
 * Inputs for the report tests: an events file whose session ids, args and results are hostile to HTML and
 * Markdown (`</script>`, tags, pipes, quotes, a secret), looping and clean sessions, a labels file beside
 * it, and the pieces of a written HTML report read back.
 */
import { readFileSync } from 'node:fs';
import type { ReportDocument, ReportSession } from '../../src/report/report-data.js';
import { tempDir, writeJsonl } from './cli.js';

/** A session id holding a secret (reports show it redacted). */
export const SECRET_ID = 'token=sk-abcdefghijklmnopqrstuvwxyz12345';

/** Session ids of the fixture: four loop (hostile ones among them), one does not. */
export const HOSTILE_IDS = ['loop-a', '</script><script>alert(1)</script>', 'a|b|c `x` *y*', `<img src=x onerror=alert(2)> "q" 'q' &amp;`, SECRET_ID] as const;
/** The session that does not loop. */
export const CLEAN_ID = 'clean-1';

/** Calls of one session: two reads, then (when it loops) the same failing command over and over. */
export function sessionCalls(session: string, loops: boolean, n = 12): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) =>
    loops && i >= 2
      ? { session, step: i, tool: 'bash', args: { command: 'pytest -x </script><b>bold</b>' }, result: '1 failed <script>alert(3)</script>', error: 'exit status 1' }
      : { session, step: i, tool: 'read_file', args: { path: `src/f${i}.py` }, result: `ok ${i}` },
  );
}

/** A folder with `events.jsonl` (the hostile sessions and the clean one) and, unless `labels` is false, `sessions.jsonl` beside it. */
export function hostileFolder(labels = true): { dir: string; events: string } {
  const dir = tempDir();
  const events = writeJsonl(dir, 'events.jsonl', [...HOSTILE_IDS.flatMap((id) => sessionCalls(id, true)), ...sessionCalls(CLEAN_ID, false)]);
  if (labels) writeJsonl(dir, 'sessions.jsonl', [...HOSTILE_IDS, CLEAN_ID].map((session, k) => ({ session, exit_status: k % 2 === 0 ? 'submitted' : 'step_limit', resolved: k === 0 })));
  return { dir, events };
}

/** A written HTML report, read back: its text, rows and document. */
export interface ReadReport {
  readonly html: string;
  readonly rows: ReportSession[];
  readonly doc: ReportDocument;
}

/** Reads the report at `path`; the JSON blocks are found by their closing tags, which escaped data can never hold. */
export function readReport(path: string): ReadReport {
  const html = readFileSync(path, 'utf8');
  const block = (id: string): unknown => {
    const m = new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(html);
    if (m === null) throw new Error(`no ${id} block in ${path}`);
    return JSON.parse(m[1] as string);
  };
  return { html, rows: block('lw-sessions') as ReportSession[], doc: block('lw-report') as ReportDocument };
}
