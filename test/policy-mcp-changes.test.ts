/**
 * An MCP tool whose name says it changes what its server holds (`n8n_update_partial_workflow`,
 * `create_entities`, `issue_write`) changes the workspace, as an edit does (quiet5; a real Claude Code
 * 2.1.45 session of holdout3, two copies, broken in both replays): the agent built an n8n workflow through
 * the n8n MCP server, each change bracketed by `deactivateWorkflow` and `activateWorkflow`, the same
 * answers each time, a new node update or new sub-workflows between. Taken as reads, nothing was done
 * between the deactivations: the same call with the same answer, stalled, broken at the third (one-phase)
 * or blocked at the fourth (two-phase). With the updates read as changes (src/policy/workspace-changes.ts's
 * mcpChanges), a step re-run after each new change is progress. The stuck twin still fires: the same update
 * made again and again. (This shorter replay breaks one-phase without the fix; two-phase it is not blocked
 * either way.)
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { changesWorkspace, mcpChanges } from '../src/policy/workspace-changes.js';
import { plainChangesWorkspace } from './helpers/outcome-reference.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const ID = 'LHPHYhAPIEHVxGBo';
const N8N = 'mcp__n8n-mcp__';
const answer = (active: boolean, nodes: number): string =>
  `{\n  "success": true,\n  "data": {\n    "id": "${ID}",\n    "name": "Core Engine",\n    "active": ${active},\n    "nodeCount": ${nodes},\n    "operationsApplied": 1\n  },\n  "message": "Workflow \\"Core Engine\\" updated successfully. Applied 1 operations."\n}`;
const op = (operation: object, active: boolean, nodes: number): ToolEvent => ({ tool: `${N8N}n8n_update_partial_workflow`, args: { id: ID, operations: [operation] }, result: answer(active, nodes) });
const deactivate = (nodes: number): ToolEvent => op({ type: 'deactivateWorkflow' }, false, nodes);
const activate = (nodes: number): ToolEvent => op({ type: 'activateWorkflow' }, true, nodes);
const updateNode = (text: string, nodes: number): ToolEvent => op({ type: 'updateNode', nodeId: 'a1b2c3d4-0005', updates: { parameters: { text } } }, false, nodes);
const create = (name: string, id: string): ToolEvent => ({
  tool: `${N8N}n8n_create_workflow`,
  args: { name, nodes: [{ id: `${id}-1`, name: 'Execute Trigger', type: 'n8n-nodes-base.executeWorkflowTrigger' }], connections: {} },
  result: `{\n  "success": true,\n  "data": {\n    "id": "${id}",\n    "name": "${name}",\n    "active": false,\n    "nodeCount": 6\n  }\n}`,
});
const structure = (nodes: number): ToolEvent => ({ tool: `${N8N}n8n_get_workflow`, args: { id: ID, mode: 'structure' }, result: `{\n  "success": true,\n  "data": {\n    "id": "${ID}",\n    "nodes": ${nodes}\n  }\n}` });
const todo = (n: number): ToolEvent => ({ tool: 'TodoWrite', args: { todos: [{ content: `Pole ${n}`, status: 'in_progress' }] }, result: 'Todos have been modified successfully.' });

/**
 * Each pole: its three sub-workflows created (every other pole: a second pass over the router alone), then
 * the router's prompt updated between a deactivation and an activation.
 */
const poles: ToolEvent[] = [1, 2, 3, 4, 5, 6].flatMap((n) => [
  todo(n),
  ...(n % 2 === 0 ? [] : [create(`Pole ${n} Analyst`, `p${n}a`), create(`Pole ${n} Architect`, `p${n}b`), create(`Pole ${n} Strategist`, `p${n}c`)]),
  deactivate(16),
  updateNode(`Route the request to pole ${n}: analyst, architect or strategist.`, 16),
  activate(16),
  structure(16),
]);

/** The same update, made again and again between the same deactivation and activation. */
const stuck: ToolEvent[] = Array.from({ length: 5 }, () => [deactivate(16), updateNode('Route the request.', 16), activate(16), structure(16)]).flat();

describe.each(ENGINES)('a workflow changed through an MCP server, step by step (%s engine)', (engine) => {
  it('should not break the session, one-phase', () => {
    expect(flaggedActions(poles, engine)).not.toContain('break');
  });

  it('should not block a deactivation, two-phase', () => {
    expect(liveActions(poles, engine)).not.toContain('deny');
  });

  it('should still break the same update made again and again', () => {
    expect(flaggedActions(stuck, engine)).toContain('break');
  });
});

describe('MCP tools that change what their server holds', () => {
  it('should read an MCP tool named for a change as one', () => {
    for (const t of ['mcp__n8n-mcp__n8n_update_partial_workflow', 'mcp__n8n-mcp__n8n_create_workflow', 'mcp__github__issue_write', 'mcp__memory__add_observations', 'mcp__filesystem__write_file', 'mcp__claude_ai_Vercel__deploy_to_vercel', 'mcp__omnifocus__updateTasks']) {
      expect(mcpChanges(t)).toBe(true);
      expect(changesWorkspace(t, {})).toBe(true);
      expect(plainChangesWorkspace(t, {})).toBe(true);
    }
  });

  it('should not read MCP reads, or other tools, as changes', () => {
    for (const t of ['mcp__n8n-mcp__n8n_get_workflow', 'mcp__n8n-mcp__n8n_validate_workflow', 'mcp__claude_ai_Vercel__list_deployments', 'mcp__filesystem__read_text_file', 'mcp__memory__search_nodes', 'mcp__settings__get', 'update_reservation_flights', 'TaskUpdate']) {
      expect(mcpChanges(t)).toBe(false);
      expect(plainChangesWorkspace(t, {})).toBe(false);
    }
  });
});
