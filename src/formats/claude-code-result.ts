/**
 * A Claude Code tool result as loopwatch compares it, wherever it is read: by the hook
 * (src/hooks/claude-code.ts, which then caps it) and by the reader of hook payload logs (hook-payloads.ts),
 * so `scan` of a hook's log measures what the hook did. Bash's `tool_response` object (and PowerShell's, Claude
 * Code's shell tool on Windows, of the same shape) becomes the text the
 * transcript gives the model (and `loopwatch eval` reads, claude-code.ts): its `stdout` and `stderr`; any
 * other result is left without what differs between identical runs (volatile-output.ts).
 */
import { stablePersistedText, stableResult } from './volatile-output.js';

/**
 * Bash's `tool_response` as the transcript gives it to the model: its `stdout` and `stderr`, those not
 * empty, joined by a line end (each without leading line ends and trailing white space); undefined for
 * another shape, or an interrupted or image output (kept as the object). Read as an object, no text of it
 * was read: not a pass (`tsc` printing nothing), a wait, an empty inbox or a runner's banner.
 */
export function bashResponseText(response: unknown): string | undefined {
  if (typeof response !== 'object' || response === null || Array.isArray(response)) return undefined;
  const r = response as Record<string, unknown>;
  if (typeof r.stdout !== 'string' || (r.stderr !== undefined && typeof r.stderr !== 'string') || r.interrupted === true || r.isImage === true) return undefined;
  const err = typeof r.stderr === 'string' ? r.stderr : '';
  // each without its leading line ends and trailing white space, as the transcript's text has them
  return [r.stdout, err].map((t) => t.trimEnd().replace(/^\n+/, '')).filter((t) => t !== '').join('\n');
}

/**
 * Tool `tool`'s `response` as compared (uncapped): Bash's and PowerShell's as their text ({@link bashResponseText}) with a
 * persisted output's path masked; any other without its volatile fields (volatile-output.ts stableResult).
 */
export function claudeCodeResult(tool: string, response: unknown): unknown {
  const text = tool === 'Bash' || tool === 'PowerShell' ? bashResponseText(response) : undefined;
  return text !== undefined ? stablePersistedText(text) : stableResult(tool, response);
}
