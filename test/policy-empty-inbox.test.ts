/**
 * An agent's empty mailbox checked again is a poll of the world (quiet6; a real Claude Code patrol agent of
 * the devset, broken in both replays once eval compared Bash calls as the hook does, without their
 * `description`): `gt mail inbox` answered "(0 messages, 0 unread) (no messages)" each patrol cycle, between
 * heartbeats, issue updates and waits for a signal. The same answer each time was a state repeat, stalled:
 * broken one-phase, blocked two-phase. Its answer changes when another agent or a person writes, not when
 * this agent tries something else (src/text/empty-inbox.ts): waiting on others, asked about, never broken,
 * as a status still under way is. The stuck twin is still flagged: the same check back to back.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { saysInboxEmpty } from '../src/text/empty-inbox.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const sh = (command: string, result: string): ToolEvent => ({ tool: 'Bash', args: { command }, result });
const inbox = (): ToolEvent => sh('gt mail inbox', '📬 Inbox: deacon/ (0 messages, 0 unread)\n  (no messages)\nShell cwd was reset to /home/gastown/gt/deacon');

/** A patrol cycle: the inbox, a heartbeat, an issue updated, a wait for a signal (received after a new delay each time). */
const cycles: ToolEvent[] = Array.from({ length: 12 }, (_, c) => [
  inbox(),
  sh(`gt deacon heartbeat "patrol cycle ${c}"`, `✓ Heartbeat updated: patrol cycle ${c}`),
  sh(`bd update hq-wisp-${c} --status=in_progress`, `✓ Updated issue: hq-wisp-${c}`),
  sh('gt mol step await-signal --agent-bead hq-deacon --timeout 60s', `⏳ Awaiting signal (timeout: 1m0s, idle: 0)...\n✓ Signal received after ${97 + 13 * c}ms`),
]).flat();

/** The same check back to back. */
const stuck: ToolEvent[] = Array.from({ length: 12 }, inbox);

describe.each(ENGINES)('an empty inbox checked each patrol cycle (%s engine)', (engine) => {
  it('should not break the session, one-phase', () => {
    expect(flaggedActions(cycles, engine)).not.toContain('break');
  });

  it('should not block a check, two-phase', () => {
    const actions = liveActions(cycles, engine);
    expect(actions).not.toContain('deny');
    expect(actions).not.toContain('stop');
  });

  it('should still flag the same check back to back', () => {
    expect(flaggedActions(stuck, engine).length).toBeGreaterThan(0);
  });
});

describe('an empty inbox', () => {
  it('should read the answers of an empty mailbox', () => {
    expect(saysInboxEmpty('📬 Inbox: deacon/ (0 messages, 0 unread)\n  (no messages)')).toBe(true);
    expect(saysInboxEmpty('No new messages.')).toBe(true);
    expect(saysInboxEmpty('Mailbox is empty')).toBe(true);
  });

  it('should not read messages, or longer outputs, as an empty inbox', () => {
    expect(saysInboxEmpty('📬 Inbox: deacon/ (2 messages, 1 unread)\n  hq-1: Handoff from witness')).toBe(false);
    expect(saysInboxEmpty('commit 6ba04d3 no-messages-flag cleanup')).toBe(false);
    expect(saysInboxEmpty(`${'x'.repeat(400)} no messages`)).toBe(false);
  });
});
