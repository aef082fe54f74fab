/**
 * The real agent traces in `../shared/data/traces` (never copied into the repo): their calls in order,
 * each with its session. `traceDir` is null when the traces are absent, so tests can skip.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { ToolEvent } from '../../src/index.js';
import { defaultTraceDir } from '../../src/eval/trace-dir.js';

/** Where the traces are, or null. */
export const traceDir = defaultTraceDir(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'));

/** The unzipped events file, once per worker process (a string: every caller parses its own objects). */
let eventsText: string | undefined;

/**
 * The text of the traces' events.jsonl.gz, unzipped once per worker process and kept (~0.2 CPU-s a read: 21
 * files read it, most in the shared workers); '' when the traces are absent. The objects of each call of
 * {@link traceCalls} are parsed from it anew, so no file sees another's objects.
 */
export function traceEventsText(): string {
  if (traceDir === null) return '';
  eventsText ??= gunzipSync(readFileSync(join(traceDir, 'events.jsonl.gz'))).toString('utf8');
  return eventsText;
}

/** The trace calls in order, each with its session (new objects on every call). */
export function traceCalls(): [string, ToolEvent][] {
  if (traceDir === null) return [];
  const text = traceEventsText();
  const out: [string, ToolEvent][] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const e = JSON.parse(line) as Record<string, unknown>;
    out.push([String(e.session), { tool: String(e.tool), args: e.args, result: e.result, error: e.error as string | undefined, text: e.text as string | undefined, ...(typeof e.step === 'number' ? { step: e.step } : {}) }]);
  }
  return out;
}
