/**
 * One events-format record given as bytes (a JSON Lines line, an HTTP body, a message), to the session's
 * call it holds: read from its bytes where `event-line.ts` can, else parsed and read by the events reader,
 * so both ways give the same call. A record that holds no call, or names no session, is an
 * InvalidEventError naming why.
 */
import { InvalidEventError } from '../errors.js';
import { describe } from '../options/checks.js';
import { readEventLine } from '../formats/event-line.js';
import { createEventsReader } from '../formats/events.js';
import { parseJson } from '../formats/json-value.js';
import { type SessionEvent, sessionEvent } from './session-event.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** The reader of records given as bytes: its input has no name, so a record without a session is refused. */
const reader = createEventsReader({ file: '', name: '' });

/** The call `bytes` hold, with its session, or why they hold none. */
export function eventFromBytes(bytes: Uint8Array): SessionEvent | InvalidEventError {
  const fast = readEventLine(bytes);
  return fast !== null ? sessionEvent(fast.session, fast.event) : parsedEvent(bytes);
}

/** {@link eventFromBytes} the parsing way only: for bytes `readEventLine` has already declined. */
export function parsedEvent(bytes: Uint8Array): SessionEvent | InvalidEventError {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return new InvalidEventError('event', 'the record is not valid UTF-8');
  }
  const p = parseJson(text);
  if (!p.ok) return new InvalidEventError('event', `the record is not JSON: ${p.message}`);
  for (const item of reader.record({ kind: 'record', value: p.value, file: '', line: 0, fallbackSession: '' })) {
    if (item.kind === 'issue') return new InvalidEventError('event', item.message.replace(/; skipped$/, ''));
    if (item.kind === 'call') {
      if (item.session === '') return new InvalidEventError('session', 'the record names no session ("session", "id" or "conversation_id")');
      return sessionEvent(item.session, item.event);
    }
  }
  return new InvalidEventError('event', 'the record holds no tool call');
}

/**
 * The call line `i` of a `checkLines` batch holds ({@link eventFromBytes}), or its error naming the line:
 * what an engine and a pool both give in the line's place.
 */
export function eventOfLine(line: unknown, i: number): SessionEvent | InvalidEventError {
  if (!(line instanceof Uint8Array)) return new InvalidEventError('lines', `lines[${i}] must be a Uint8Array, received ${describe(line)}`);
  return atLine(eventFromBytes(line), i);
}

/** `e`, or its error as line `i` of a `checkLines` batch gets it. */
export function atLine(e: SessionEvent | InvalidEventError, i: number): SessionEvent | InvalidEventError {
  return e instanceof InvalidEventError ? new InvalidEventError(e.field, `lines[${i}]: ${e.message}`) : e;
}
