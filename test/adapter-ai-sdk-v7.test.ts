/**
 * loopwatch/ai-sdk against AI SDK v7's shapes. v7 needs Node 22, so it cannot be installed here: its types
 * are written out below (from ai@7's own declaration files: ToolApprovalStatus, the generic toolApproval
 * function, ToolExecutionEndEvent, StopCondition, Steering, Tool's execute/needsApproval/toModelOutput) and
 * the helpers' results are assigned to them, which `tsc` checks. At run time, a stuck scenario is played in
 * v7's order (toolApproval before the tool, onToolExecutionEnd after, stopWhen after each step).
 */
import { describe, expect, it } from 'vitest';
import { approveCalls, stopOnLoop, wrapTools } from '../src/adapters/ai-sdk.js';
import { STUCK } from './helpers/live-scenarios.js';
import type { LiveScenario } from './helpers/live-scenarios.js';
import { SpyGuard, received } from './helpers/sdk-runs.js';

// --- AI SDK v7 shapes, written out ---------------------------------------------------------------
type V7ToolApprovalStatus =
  | undefined
  | 'not-applicable'
  | 'approved'
  | 'denied'
  | 'user-approval'
  | { type: 'not-applicable'; reason?: never }
  | { type: 'approved'; reason?: string }
  | { type: 'denied'; reason?: string }
  | { type: 'user-approval'; reason?: string };
interface V7ToolCall {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: unknown;
  dynamic?: boolean;
}
type V7GenericToolApprovalFunction = (options: { toolCall: V7ToolCall; tools: Record<string, unknown> | undefined; toolsContext: unknown; runtimeContext: unknown; messages: unknown[] }) => V7ToolApprovalStatus | PromiseLike<V7ToolApprovalStatus>;
type V7ToolOutput = { type: 'tool-result'; toolCallId: string; toolName: string; input: unknown; output: unknown } | { type: 'tool-error'; toolCallId: string; toolName: string; input: unknown; error: unknown };
interface V7ToolExecutionEndEvent {
  readonly callId: string;
  readonly toolExecutionMs: number;
  readonly messages: unknown[];
  readonly toolCall: V7ToolCall;
  readonly toolContext: unknown;
  readonly toolOutput: V7ToolOutput;
}
interface V7StepResult {
  readonly stepNumber: number;
}
type V7StopCondition = (options: { steps: V7StepResult[] }) => PromiseLike<boolean> | boolean;
interface V7Steering {
  steer(message: string | { role: 'user'; content: string }, options?: { id?: string }): Promise<{ readonly type: 'delivered' | 'not-delivered' }>;
}
/** The v7 call options loopwatch's helpers fill. */
interface V7CallOptions {
  toolApproval?: V7GenericToolApprovalFunction;
  onToolExecutionEnd?: (event: V7ToolExecutionEndEvent) => PromiseLike<void> | void;
  stopWhen?: V7StopCondition | V7StopCondition[];
}
interface V7ExecutionOptions {
  toolCallId: string;
  messages: unknown[];
  abortSignal?: AbortSignal;
  context: { tenant: string };
}
interface V7Tool {
  description?: string;
  execute: (input: { command: string }, options: V7ExecutionOptions) => Promise<string>;
  needsApproval?: boolean | ((input: { command: string }, options: { toolCallId: string; messages: unknown[]; context: { tenant: string } }) => boolean | PromiseLike<boolean>);
  toModelOutput?: (options: { toolCallId: string; input: { command: string }; output: string }) => { type: 'text'; value: string } | PromiseLike<{ type: 'text'; value: string }>;
}
// -------------------------------------------------------------------------------------------------

const isStepCount = (n: number): V7StopCondition => ({ steps }) => steps.length >= n;

describe('loopwatch/ai-sdk against AI SDK v7 shapes', () => {
  it('should type-check against v7 call options and tools', () => {
    const spy = new SpyGuard();
    const steering: V7Steering = { steer: async () => ({ type: 'delivered' }) };
    const options: V7CallOptions = approveCalls(spy, 's', { stopWhen: isStepCount(20), steering });
    const stops: V7CallOptions = stopOnLoop(spy, 's', { stopWhen: [isStepCount(20)] });
    const tools: Record<string, V7Tool> = wrapTools({ bash: { execute: async (i: { command: string }) => i.command } satisfies V7Tool }, spy, 's');
    expect(typeof options.toolApproval).toBe('function');
    expect(Array.isArray(stops.stopWhen)).toBe(true);
    expect(typeof tools.bash?.toModelOutput).toBe('function');
    spy.inner.close();
  });

  it('should deny with the reason, steer the warning, and stop, in v7 order', async () => {
    const s = STUCK[0] as LiveScenario;
    const spy = new SpyGuard();
    const steered: string[] = [];
    const o: V7CallOptions = approveCalls(spy, 'run', { stopWhen: isStepCount(100), steering: { steer: async (m: string) => (steered.push(m), { type: 'delivered' }) } });
    const statuses: V7ToolApprovalStatus[] = [];
    const steps: V7StepResult[] = [];
    let ran = 0;
    for (const [i, c] of s.calls.entries()) {
      const toolCall: V7ToolCall = { type: 'tool-call', toolCallId: `c${i}`, toolName: c.tool, input: c.args };
      const status = await o.toolApproval?.({ toolCall, tools: undefined, toolsContext: {}, runtimeContext: {}, messages: [] });
      statuses.push(status);
      if (status === undefined) {
        ran++;
        await o.onToolExecutionEnd?.({ callId: 'g', toolExecutionMs: 1, messages: [], toolCall, toolContext: undefined, toolOutput: { type: 'tool-error', toolCallId: `c${i}`, toolName: c.tool, input: c.args, error: new Error(c.error) } });
      }
      steps.push({ stepNumber: i });
      const conditions = Array.isArray(o.stopWhen) ? o.stopWhen : [];
      if ((await Promise.all(conditions.map((cond) => cond({ steps })))).some(Boolean)) break;
    }
    const warn = spy.decisions.find((d) => d.action === 'warn');
    expect(received(steered, warn?.message as string)).toBe(true);
    const denied = statuses.find((x) => typeof x === 'object' && x.type === 'denied');
    expect(denied).toEqual({ type: 'denied', reason: spy.decisions.find((d) => d.action === 'deny')?.message });
    expect(spy.stopped('run')?.action).toBe('stop');
    expect(ran).toBeLessThan(s.calls.length);
    expect(steps.length).toBeLessThan(s.calls.length);
    spy.inner.close();
  });
});
