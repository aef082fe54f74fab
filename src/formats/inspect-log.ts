/**
 * Inspect AI eval logs in their JSON form (`inspect eval --log-format json`, or `inspect log convert --to
 * json` of a `.eval` file): one document `{version, status, eval: {task, ...}, samples: [...]}`. Each sample
 * (each epoch of it) is a session `<task>/<sample id>#<epoch>`; its `messages` are chat messages: an
 * `assistant` message's `tool_calls` (`{id, function, arguments}`) are its calls, the message's text parts
 * (reasoning left out) its first call's text, `round` its position among assistant messages; a `tool`
 * message answers the call its `tool_call_id` names, `error` (`{type, message}`, older logs' `tool_error`)
 * a known failure, none a known success. Strings stored aside as `attachment://<hash>` are read from the
 * sample's `attachments`. `.eval` files (zip) hand their samples here one at a time (inspect-eval-archive.ts).
 */
import { describe } from '../options/checks.js';
import { nonEmpty, partIssue } from './conversation-record.js';
import type { FormatReader } from './format-reader.js';
import { contentText, isRecord, parseArguments } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { SessionCalls } from './session-calls.js';
import { type TraceItem, issue } from './trace-record.js';
import { sampleEntryName } from './inspect-log-standing.js';
import { type PassedOver, passedOverNote } from './inspect-sample-copies.js';

/** Whether `v` is an Inspect eval log by its marks: an `eval` spec object and a `samples` array, or a log's header alone ({@link isInspectHeader}). */
export function isInspectLog(v: Readonly<Record<string, unknown>>): boolean {
  return isRecord(v.eval) && (Array.isArray(v.samples) || isInspectHeader(v));
}

/**
 * Whether `v` is an Inspect eval log without samples: `{version, status, eval: {task, ...}, plan?, results?,
 * stats?}` and no `samples` key. Inspect writes its JSON logs without the keys it has no value for, so a log
 * of an eval run with `--no-log-samples`, one that failed before any sample was written, and a log written
 * header-only (an eval set's logs are rewritten so) have no `samples`.
 */
export function isInspectHeader(v: Readonly<Record<string, unknown>>): boolean {
  return v.samples === undefined && typeof v.version === 'number' && typeof v.status === 'string' && isRecord(v.eval) && typeof v.eval.task === 'string';
}

const ATTACHMENT = 'attachment://';

/** `v` with a string `attachment://<hash>` replaced by the attachment, when the sample has it. */
function resolve(v: unknown, attachments: Readonly<Record<string, unknown>>): unknown {
  if (typeof v !== 'string' || !v.startsWith(ATTACHMENT)) return v;
  const found = attachments[v.slice(ATTACHMENT.length)];
  return typeof found === 'string' ? found : v;
}

/** `args` with its top-level string values resolved from the attachments. */
function resolveArgs(args: unknown, attachments: Readonly<Record<string, unknown>>): unknown {
  if (!isRecord(args)) return resolve(args, attachments);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[k] = resolve(v, attachments);
  return out;
}

/** The text of an assistant message's content: a string, or its `text` parts joined by newlines (reasoning, images, tool uses left out). */
function messageText(content: unknown, attachments: Readonly<Record<string, unknown>>): string | undefined {
  if (!Array.isArray(content)) return nonEmpty(resolve(content, attachments));
  const texts: string[] = [];
  for (const p of content) if (isRecord(p) && p.type === 'text' && typeof p.text === 'string' && p.text !== '') texts.push(resolve(p.text, attachments) as string);
  return texts.length === 0 ? undefined : texts.join('\n');
}

/** A tool message's content, resolved: a string, or its parts as text (images as placeholders). */
function resultOf(content: unknown, attachments: Readonly<Record<string, unknown>>): unknown {
  if (!Array.isArray(content)) return resolve(content, attachments);
  return contentText(content.map((p) => (isRecord(p) && typeof p.text === 'string' ? { ...p, text: resolve(p.text, attachments) } : p)));
}

/** The session id of a sample: `<task>/<id>#<epoch>`. */
function sampleSession(task: string, s: Readonly<Record<string, unknown>>, index: number): string {
  const id = typeof s.id === 'string' || typeof s.id === 'number' ? String(s.id) : `sample-${index}`;
  const epoch = typeof s.epoch === 'number' ? s.epoch : 1;
  return `${task}/${id}#${epoch}`;
}

/**
 * The items of one Inspect eval log document: each sample's calls, then its end; a sample `passOver` names
 * (a copy of one a newer log of its task holds: inspect-sample-copies.ts) is passed over, said in one note.
 */
export function* readInspectLog(unit: RecordUnit, passOver?: PassedOver): Generator<TraceItem> {
  const v = unit.value;
  if (!isRecord(v) || !isInspectLog(v)) {
    return yield issue('bad-record', unit.file, unit.line, `expected an Inspect eval log (an object with an "eval" object and a "samples" array), received ${isRecord(v) ? 'an object without them' : describe(v)}`);
  }
  const spec = v.eval as Record<string, unknown>;
  const task = nonEmpty(spec.task) ?? 'task';
  if (isInspectHeader(v)) {
    return yield { kind: 'note', file: unit.file, line: unit.line, message: `passed over: an Inspect AI eval log of task ${JSON.stringify(task)} (status ${JSON.stringify(v.status)}) without samples (logged with --no-log-samples, or no sample was written), so without calls` };
  }
  const samples = v.samples as unknown[];
  let passed = 0;
  for (let i = 0; i < samples.length; i++) {
    const s: unknown = samples[i];
    if (passOver !== undefined && isRecord(s)) {
      const name = sampleEntryName(s);
      if (name !== null && passOver.entries.has(name)) {
        passed++;
        continue;
      }
    }
    if (!isRecord(s) || !Array.isArray(s.messages)) {
      yield partIssue(unit, 'sample', i, `expected an object with a "messages" array, received ${isRecord(s) ? 'an object without one' : describe(s)}`);
      continue;
    }
    yield* sampleCalls(unit, sampleSession(task, s, i), s.messages, isRecord(s.attachments) ? s.attachments : {});
  }
  if (passed > 0) yield passedOverNote(unit.file, passed, passOver!);
}

/** The calls of one sample's messages, then its end. */
function* sampleCalls(unit: RecordUnit, session: string, messages: readonly unknown[], attachments: Readonly<Record<string, unknown>>): Generator<TraceItem> {
  const calls = new SessionCalls(session, unit.file, unit.line);
  const at = (i: number, message: string) => issue('bad-record', unit.file, unit.line, `sample ${JSON.stringify(session)} message ${i}: ${message}; skipped`);
  let round = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!isRecord(m)) {
      yield at(i, `expected an object, received ${describe(m)}`);
      continue;
    }
    if (m.role === 'assistant') {
      const r = round++;
      if (m.tool_calls === undefined || m.tool_calls === null) continue;
      if (!Array.isArray(m.tool_calls)) {
        yield at(i, `"tool_calls" must be an array, received ${describe(m.tool_calls)}`);
        continue;
      }
      let text = messageText(m.content, attachments); // said once: the message's first call carries it
      for (let j = 0; j < m.tool_calls.length; j++) {
        const tc: unknown = m.tool_calls[j];
        const name = isRecord(tc) ? nonEmpty(tc.function) : undefined;
        if (!isRecord(tc) || name === undefined) {
          yield at(i, `tool call ${j} has no "function" name (received ${isRecord(tc) ? describe(tc.function) : describe(tc)})`);
          continue;
        }
        calls.call(typeof tc.id === 'string' ? tc.id : undefined, { tool: name, args: resolveArgs(parseArguments(tc.arguments), attachments), text, round: r });
        text = undefined;
      }
    } else if (m.role === 'tool') {
      if (typeof m.tool_call_id !== 'string') {
        yield at(i, `tool message without a string "tool_call_id" (received ${describe(m.tool_call_id)})`);
        continue;
      }
      const error = isRecord(m.error) ? (nonEmpty(m.error.message) ?? nonEmpty(m.error.type) ?? 'error') : nonEmpty(m.tool_error);
      const bad = calls.result(m.tool_call_id, resultOf(m.content, attachments), error === undefined ? 'absent' : 'known', error);
      if (bad !== null) yield bad;
    }
  }
  yield* calls.items();
}

/** A reader of Inspect eval logs (one per record; nothing kept between records); `passOver`: the samples of a JSON log read from a newer log. */
export function createInspectLogReader(passOver?: PassedOver): FormatReader {
  return { record: (unit) => readInspectLog(unit, passOver), finish: () => [] };
}
