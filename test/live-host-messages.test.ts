/**
 * A verdict's message says what the host really does with it (src/live/host-message.ts): a call recorded
 * after it ran was not blocked and no run was stopped; a host without an approval step asked no human; a
 * host that cannot stop a run (Codex's hook, the MCP proxy, LangChain's exitBehavior 'continue') says the call
 * was blocked, not that the run is being stopped. Hosts that stop the run keep the verdict's words.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import { ALREADY_RAN, FULL_REACH, USER_TOLD, hostMessage, recordedMessage } from '../src/live/host-message.js';
import type { LiveDecision } from '../src/live/live-call.js';
import { BLOCKED, CONSEQUENCE } from '../src/policy/message.js';
import { replayHook } from './helpers/hook-payloads.js';
import { type LiveScenario, STUCK } from './helpers/live-scenarios.js';
import { tempFolder } from './helpers/temp-folder.js';

const STOPPED = CONSEQUENCE.break;
const ASKED = CONSEQUENCE.ask;
const stuck = STUCK[0] as LiveScenario;

/**
 * The record decisions of a stuck scenario's calls recorded without proposals (a host that checks calls only
 * after they ran, as a PostToolUse-only hook does), with `ladder`: its verdicts are given at record time.
 */
function recorded(ladder: readonly ('warn' | 'ask' | 'break')[]): LiveDecision[] {
  const d = new LoopDetector({ policy: { ladder } }, 's');
  const out = stuck.calls.map((c) => d.record(c));
  d.dispose();
  return out;
}

describe('record phase: the call already ran', () => {
  it('should not say the run is being stopped for a break recorded after its call ran', () => {
    const breaks = recorded(['warn', 'break']).filter((r) => r.verdict?.action === 'break' && r.message !== undefined);
    expect(breaks.length).toBeGreaterThan(0);
    for (const r of breaks) {
      expect(r.message).not.toContain(STOPPED.trim());
      expect(r.message).not.toContain(BLOCKED.trim());
      expect(r.message?.endsWith(ALREADY_RAN)).toBe(true);
      // the verdict itself (what a one-phase caller acts on) is unchanged
      expect(r.verdict?.message.endsWith(STOPPED)).toBe(true);
    }
  });

  it('should not say a human was asked for an ask recorded after its call ran', () => {
    const asks = recorded(['warn', 'ask']).filter((r) => r.verdict?.action === 'ask' && r.message !== undefined);
    expect(asks.length).toBeGreaterThan(0);
    for (const r of asks) expect(r.message).not.toContain(ASKED.trim());
  });
});

describe('propose phase: per host', () => {
  const body = '[loopwatch] You appear to be in a loop (exact_repeat, confidence 0.90, since call #0): x. Stop repeating it.';
  const stop = { phase: 'propose', action: 'stop', message: body + STOPPED } as const;
  const ask = { phase: 'propose', action: 'ask', message: body + ASKED } as const;

  it('should keep the verdict words where the host stops runs and asks humans', () => {
    expect(hostMessage(stop, FULL_REACH)).toBe(stop.message);
    expect(hostMessage(ask, FULL_REACH)).toBe(ask.message);
  });

  it('should say the call was blocked where a stop only blocks it', () => {
    expect(hostMessage(stop, { stop: 'call', asks: true })).toBe(body + BLOCKED);
    expect(hostMessage(stop, { stop: 'user', asks: true })).toBe(body + USER_TOLD);
  });

  it('should not say a human was asked where the host has no approval step', () => {
    expect(hostMessage(ask, { stop: 'run', asks: false })).toBe(body);
  });

  it('should leave a message without a known ending (an onDetect text) and a record as they are', () => {
    expect(hostMessage({ phase: 'propose', action: 'stop', message: 'custom' }, { stop: 'call', asks: false })).toBe('custom' + BLOCKED);
    expect(hostMessage({ phase: 'record', action: 'warn', message: body + ALREADY_RAN }, { stop: 'call', asks: false })).toBe(body + ALREADY_RAN);
    expect(recordedMessage(body, 'warn')).toBe(body);
  });
});

describe('the Codex hook: a hook cannot stop a Codex run', () => {
  it('should tell the model its call was blocked and the user was told, not that the run is being stopped', async () => {
    // the first call and every third after it through hook processes, the others in this process (the same state files)
    const steps = await replayHook('codex', 'codex-stop', stuck.calls, ['--state-dir', tempFolder('host-messages')], 3);
    const stops = steps.filter((s) => s.propose === 'stop');
    expect(stops.length).toBeGreaterThan(0);
    for (const s of stops) {
      const reason = (JSON.parse(s.proposeReply) as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;
      expect(reason).not.toContain(STOPPED.trim());
      expect(reason.endsWith(USER_TOLD)).toBe(true);
    }
  }, 120_000);
});
