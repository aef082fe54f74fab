/**
 * Gemini CLI's MCP tools named as Claude Code and Codex name theirs, `mcp__<server>__<tool>`, where it is
 * known for sure that the call is an MCP tool's: so what loopwatch reads from an MCP tool's name (whether
 * it changes what its server holds, src/policy/workspace-changes.ts `mcpChanges`) holds for Gemini's too.
 *
 * Gemini CLI 0.61 names an MCP tool `mcp_<server>_<tool>` (single underscores): from the name alone the
 * server cannot be told from the tool (`mcp_notes_writer_list`), nor an MCP tool from a local tool whose
 * name starts `mcp_`. What says so:
 *
 * | where                               | what names the server and the tool                                   |
 * |-------------------------------------|----------------------------------------------------------------------|
 * | a hook payload (BeforeTool, AfterTool; a log of them) | `mcp_context: {server_name, tool_name, ...}`       |
 * | a chat file's tool call (`toolCalls[]`) | `displayName: "<tool> (<server> MCP Server)"`                    |
 * | a checkpoint's `functionCall` (`/chat save`, gemini-checkpoint.ts) | nothing: its name alone, split as Gemini CLI splits it |
 *
 * A name is changed only when it is exactly `mcp_<server>_<tool>` of those; anything else keeps its name.
 * A checkpoint holds the model's history as Gemini API contents, `functionCall: {id, name, args}` and
 * nothing else of the tool, so its name is read by Gemini CLI's own rule (0.61's `parseMcpToolName`, what
 * its policy engine uses): a name starting `mcp_` is an MCP tool's (Gemini gives every MCP tool that prefix,
 * `generateValidName`), its server the text up to the next `_`, its tool the rest. This names a call as the
 * hook does unless the server's own name holds a `_` (the hook, told the server, names `mcp_notes_writer_list`
 * `mcp__notes_writer__list`; a checkpoint, `mcp__notes__writer_list`) or a local tool's name starts `mcp_`; a
 * name Gemini shortened to fit 64 characters (`...` in it) is kept, as the hook keeps it.
 */
import { isRecord } from './json-value.js';

/** How Gemini CLI shows an MCP tool in a chat file: `lookup (lw MCP Server)`. */
const DISPLAY = /^([^\s()]+) \(([^()]+) MCP Server\)$/;

/** `name` as `mcp__<server>__<tool>` when it is Gemini's `mcp_<server>_<tool>` of these, else `name`. */
function renamed(name: string, server: unknown, tool: unknown): string {
  if (typeof server !== 'string' || typeof tool !== 'string' || server === '' || tool === '') return name;
  return name === `mcp_${server}_${tool}` ? `mcp__${server}__${tool}` : name;
}

/** The tool of a Gemini hook payload named `name`, renamed when its `mcp_context` says it is an MCP tool's (see the header). */
export function geminiPayloadTool(name: string, mcpContext: unknown): string {
  return isRecord(mcpContext) ? renamed(name, mcpContext.server_name, mcpContext.tool_name) : name;
}

/** The tool of a Gemini chat file's tool call named `name`, renamed when its `displayName` says it is an MCP tool's (see the header). */
export function geminiChatTool(name: string, displayName: unknown): string {
  if (typeof displayName !== 'string' || displayName.length > 512) return name;
  const m = DISPLAY.exec(displayName);
  return m === null ? name : renamed(name, m[2], m[1]);
}

/** Gemini CLI's split of an MCP tool name (`parseMcpToolName`): `mcp_`, a server without `_`, `_`, the tool. */
const PARSED = /^mcp_([^_]+)_(.+)$/;

/** The tool of a Gemini checkpoint's `functionCall` named `name`, split as Gemini CLI splits an MCP tool's name (see the header). */
export function geminiHistoryTool(name: string): string {
  if (name.length > 512 || name.includes('...')) return name;
  const m = PARSED.exec(name);
  return m === null ? name : `mcp__${m[1]}__${m[2]}`;
}
