/**
 * Gemini CLI checkpoints (`/chat save TAG` writes `~/.gemini/tmp/<project>/checkpoint-<tag>.json`): the
 * model's history as Gemini API contents, a bare array `[{role, parts}]` (older) or `{history: [...],
 * authType}`. A `model` content's `functionCall` parts (`{id?, name, args}`) are its calls and its text
 * parts (thoughts left out) are said once, the text of its first call; a `user` content's
 * `functionResponse` parts (`{id?, name, response}`) answer them, by id, else by name in order (older
 * histories carry no ids; those of mid-2025 give the response an id and its call none, so a response whose
 * id no call waits for answers the oldest call of its name waiting without one). A response with an `error`
 * and no `output` is a known failure (Gemini CLI answers a failed, denied or cancelled call so), and so is
 * a shell command's exit code other than 0 (gemini-parts.ts `shellOutcome`); any other is a known success.
 * The session is the record's fallback (the file's name): a checkpoint names none. An MCP tool's call
 * (`mcp_<server>_<tool>`) is named `mcp__<server>__<tool>` as the Gemini hook and the chat reader name it,
 * its name split as Gemini CLI splits it (gemini-mcp.ts `geminiHistoryTool`).
 */
import { describe } from '../options/checks.js';
import { nonEmpty, partIssue } from './conversation-record.js';
import { geminiHistoryTool } from './gemini-mcp.js';
import { partsText, responseOutcome, shellOutcome } from './gemini-parts.js';
import { isRecord } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { SessionCalls } from './session-calls.js';
import type { TraceItem } from './trace-record.js';
import { stableInput } from './volatile-input.js';

/** Pairing key of a call or response without id: its name, in a namespace real ids cannot reach. */
const byName = (name: string): string => `\u0000function:${name}`;

/** The items of the checkpoint `contents` (from `unit`), one session. */
export function* readGeminiCheckpoint(contents: readonly unknown[], unit: RecordUnit): Generator<TraceItem> {
  const calls = new SessionCalls(unit.fallbackSession, unit.file, unit.line);
  let round = -1;
  for (let i = 0; i < contents.length; i++) {
    const c = contents[i];
    if (!isRecord(c) || !Array.isArray(c.parts)) {
      yield partIssue(unit, 'content', i, `expected {role, parts: [...]}, received ${describe(c)}`);
      continue;
    }
    const model = c.role === 'model';
    if (model) round++;
    let first: number | undefined;
    const texts: string[] = [];
    for (let j = 0; j < c.parts.length; j++) {
      const p: unknown = c.parts[j];
      if (!isRecord(p)) continue;
      if (model && isRecord(p.functionCall)) {
        const name = nonEmpty(p.functionCall.name);
        if (name === undefined) {
          yield partIssue(unit, 'content', i, `part ${j}: functionCall has no name (received ${describe(p.functionCall.name)})`);
          continue;
        }
        const id = nonEmpty(p.functionCall.id) ?? byName(name);
        const tool = geminiHistoryTool(name); // an MCP tool as the Gemini hook names it (gemini-mcp.ts)
        const position = calls.call(id, { tool, args: stableInput('gemini', tool, p.functionCall.args), text: first === undefined ? partsText(texts.map((text) => ({ text }))) : undefined, round });
        first ??= position;
      } else if (model) {
        const t = partsText([p]);
        if (t === undefined) continue;
        texts.push(t);
        if (first !== undefined) calls.setText(first, texts.join('\n')); // said after its first call: still the content's
      } else if (isRecord(p.functionResponse)) {
        const r = p.functionResponse;
        const id = nonEmpty(r.id);
        const named = typeof r.name === 'string' ? byName(r.name) : undefined;
        const key = id !== undefined && calls.waits(id) ? id : named !== undefined && calls.waits(named) ? named : id ?? named;
        if (key === undefined) {
          yield partIssue(unit, 'content', i, `part ${j}: functionResponse has neither an id nor a name`);
          continue;
        }
        const answered = responseOutcome([p]);
        const o = r.name === 'run_shell_command' && answered.errorInfo !== 'known' && typeof answered.result === 'string' ? shellOutcome(answered.result) : answered;
        const bad = calls.result(key, o.result, o.errorInfo, o.errorInfo === 'known' ? o.error : undefined);
        if (bad !== null) yield bad;
      }
    }
  }
  yield* calls.items();
}
