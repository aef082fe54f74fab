/**
 * A tool's answer too large for the harness, answered by calls asking for less, is no wall. A Claude Code
 * session (holdout9) searches an MCP server's index: a search for a domain fails "MCP tool "search_index"
 * response (25800 tokens) exceeds maximum allowed tokens (25000). Please use pagination, filtering, or limit
 * parameters to reduce the response size." at `limit` 50, 20, 5 and 1; the agent turns to the next question
 * (an address), which works, and writes its report. Two-phase that next search was blocked as the dead end of
 * the four. The call was right and the answer there; the harness's advice is to ask for less, which each try
 * did (src/text/answer-too-large.ts), as Claude Code's `Read` of a file too large is answered by reads with an
 * offset. The same call sent again and again is still a loop, and searches failing with a real error a wall.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { TOO_LARGE_LOOK, answerTooLarge, saysAnswerTooLarge } from '../src/text/answer-too-large.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const tooLarge = (tokens: number): string =>
  `MCP tool "search_index" response (${tokens} tokens) exceeds maximum allowed tokens (25000). Please use pagination, filtering, or limit parameters to reduce the response size.`;
const SEARCH = 'mcp__intel__search_index';
/** A call failing with `out` (the reader gives the failure as the error and the result). */
const failed = (tool: string, args: Record<string, unknown>, out: string): ToolEvent => ({ tool, args, result: out, error: out });
const ok = (tool: string, args: Record<string, unknown>, result: string): ToolEvent => ({ tool, args, result });
const byDomain = (limit: number): Record<string, unknown> => ({ indicator: 'domain', text: 'example.news', limit, order: 'desc' });

/** The session's shape: a lookup, a search too large at four limits, the next question, the report. */
const narrowed: ToolEvent[] = [
  ok(`${SEARCH.replace('search_index', 'quotas')}`, {}, "{'allowed': 3000, 'used': 2171}"),
  ok('TodoWrite', { todos: [{ content: 'Look up the domain', status: 'in_progress' }] }, 'Todos have been modified successfully.'),
  ok(SEARCH, { indicator: 'group', text: 'Acme', limit: 50 }, "{'totalCount': 15, 'data': [{'victim': 'Example'}]}"),
  failed(SEARCH, byDomain(50), tooLarge(25800)),
  failed(SEARCH, byDomain(20), tooLarge(66849)),
  failed(SEARCH, byDomain(5), tooLarge(67709)),
  failed(SEARCH, byDomain(1), tooLarge(67709)),
  ok(SEARCH, { indicator: 'ip', text: '192.0.2.16', limit: 50, order: 'desc' }, "{'totalCount': 0, 'data': []}"),
  ok('TodoWrite', { todos: [{ content: 'Look up the domain', status: 'completed' }] }, 'Todos have been modified successfully.'),
  ok('Write', { file_path: '/w/report.json', content: '{"domain": "example.news"}' }, 'File created successfully at: /w/report.json'),
];
/** The same too-large search sent again and again. */
const sameCall: ToolEvent[] = Array.from({ length: 6 }, () => failed(SEARCH, byDomain(50), tooLarge(25800)));
/** Different searches failing with one real error. */
const realError: ToolEvent[] = [50, 20, 5, 1, 2].map((l) => failed(SEARCH, byDomain(l), "Error calling the API: Client error '422 Unprocessable Entity'"));

describe('what the harness says of an answer too large to pass on', () => {
  it("should read an MCP tool's response and a read file's content over the cap, in tags or labelled", () => {
    expect(saysAnswerTooLarge(tooLarge(25800))).toBe(true);
    expect(saysAnswerTooLarge('File content (31005 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters to read specific portions of the file, or use the GrepTool to search for specific content.')).toBe(true);
    expect(saysAnswerTooLarge('File content (28191 tokens) exceeds maximum allowed tokens (25000). Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file.')).toBe(true);
    expect(saysAnswerTooLarge('<tool_use_error>File content (302.5KB) exceeds maximum allowed size (256KB). Please use offset and limit parameters to read specific portions of the file, or use the GrepTool to search for specific content.</tool_use_error>')).toBe(true);
    expect(saysAnswerTooLarge(`Error: ${tooLarge(30000)}`)).toBe(true);
  });

  it('should read anything more, a result saved elsewhere, or another failure, as no such answer', () => {
    expect(saysAnswerTooLarge(`${tooLarge(25800)}\nTraceback (most recent call last):`)).toBe(false);
    expect(saysAnswerTooLarge('Error: result (120 000 characters) exceeds maximum allowed tokens. Output has been saved to /w/out.txt.')).toBe(false);
    expect(saysAnswerTooLarge('Request body exceeds maximum allowed size (10MB).')).toBe(false);
    expect(saysAnswerTooLarge("Error calling the API: Client error '422 Unprocessable Entity'")).toBe(false);
    expect(saysAnswerTooLarge('')).toBe(false);
    expect(saysAnswerTooLarge(`MCP tool "${'x'.repeat(TOO_LARGE_LOOK)}" response (1 tokens) exceeds maximum allowed tokens (0). Please use pagination, filtering, or limit parameters.`)).toBe(false);
    expect(answerTooLarge(tooLarge(25800), 'Traceback (most recent call last):')).toBe(false);
    expect(answerTooLarge(tooLarge(25800), undefined)).toBe(true);
  });
});

describe.each(ENGINES)('a search too large at four limits, then the next question (%s engine)', (engine) => {
  it('should not break the session one-phase, nor block the next search two-phase', () => {
    expect(flaggedActions(narrowed, engine)).not.toContain('break');
    expect(liveActions(narrowed, engine)).not.toContain('deny');
    expect(liveActions(narrowed, engine)).not.toContain('stop');
  });

  it('should still break the same search sent again and again', () => {
    expect(flaggedActions(sameCall, engine)).toContain('break');
    expect(liveActions(sameCall, engine)).toContain('deny');
  });

  it('should still flag different searches failing with one real error', () => {
    expect(flaggedActions(realError, engine)).toContain('warn');
    expect(liveActions(realError, engine)).toContain('warn');
  });
});
