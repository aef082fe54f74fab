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
 *
 * A name is changed only when it is exactly `mcp_<server>_<tool>` of those; anything else keeps its name.
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
