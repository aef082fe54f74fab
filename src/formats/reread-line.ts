/**
 * A routed line (routed-lines.ts) read again the way the reader would have read it, had it not been
 * handed over unread: decoded, parsed, its format checked and read by the events reader. The scan does this
 * for a line its worker could not read into a call (so the line's issue is worded as the reader words it),
 * and for the tool of a line whose call got a verdict.
 */
import { detectFormat } from './detect-format.js';
import { createEventsReader } from './events.js';
import { readEventLine } from './event-line.js';
import { parseJson } from './json-value.js';
import { decodeLine } from './line-reader.js';
import type { TraceLine } from './routed-lines.js';
import { type TraceItem, issue } from './trace-record.js';

/** The items the reader gives for line `l` of an input found to be in the events format. */
export function rereadLine(l: TraceLine): TraceItem[] {
  const text = decodeLine(l.bytes, l.line);
  if (text === null) return [issue('invalid-utf8', l.file, l.line, 'line is not valid UTF-8')];
  const p = parseJson(text);
  if (!p.ok) return [issue('invalid-json', l.file, l.line, p.message)];
  const guess = detectFormat(p.value, l.file);
  if (guess !== null && guess.decisive && guess.format !== 'events') {
    return [issue('bad-record', l.file, l.line, `record is in the ${guess.format} format, but the input was found to be events; skipped`)];
  }
  return [...createEventsReader({ file: l.file, name: l.file }).record({ kind: 'record', value: p.value, file: l.file, line: l.line, fallbackSession: `${l.file}:${l.line}` })];
}

/** The tool of the call routed line `l` holds (it held one: its worker read it). */
export function lineTool(l: TraceLine): string {
  const fast = readEventLine(l.bytes);
  if (fast !== null) return fast.event.tool;
  for (const item of rereadLine(l)) if (item.kind === 'call') return item.event.tool;
  return '';
}
