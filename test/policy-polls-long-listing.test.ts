/**
 * A poll of the world whose answer is a long listing: `gh run list --json ...` of ten runs (some 2,400
 * characters, longer than a status report is read whole), the run just pushed in progress in its first
 * record and older runs failed below it. The first record's status field makes it a poll, asked about at
 * most, one- and two-phase, both engines; the same listing with every run over still breaks, and a long
 * text of another shape holding the field (a log, a nested record) is no status report.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { STATUS_LOOK, reportsStatusUnderWay } from '../src/text/status-field.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

/** `gh run list --json ...` as gemini-cli shows it: `runs` runs, newest first, the first with `status`. */
function listing(status: string, runs = 10): string {
  const rows = Array.from({ length: runs }, (_, i) => ({
    conclusion: i === 0 ? (status === 'completed' ? 'failure' : '') : 'failure',
    databaseId: 22308939669 - i * 1000,
    name: 'CI/CD — Dashboard (consolidated)',
    status: i === 0 ? status : 'completed',
    url: `https://github.com/acme/dashboard/actions/runs/${22308939669 - i * 1000}`,
  }));
  return `Output: ${JSON.stringify(rows, null, 2)}\nProcess Group PGID: 23336`;
}

const POLL = { command: 'gh run list --branch dev --json status,conclusion,url,name,databaseId', description: 'Poll GitHub Actions runs for the current branch.' };
const poll = (status: string): ToolEvent => ({ tool: 'run_shell_command', args: POLL, result: listing(status) });

/** CI polled at once eight times while its newest run is in progress, then done. */
const unpaced: ToolEvent[] = [...Array.from({ length: 8 }, () => poll('in_progress')), poll('completed')];

/** The same listing, every run over, asked for at once again and again. */
const finished: ToolEvent[] = Array.from({ length: 8 }, () => poll('completed'));

describe('a long listing of records as a status report', () => {
  it('should read the status field of its first record', () => {
    const text = listing('in_progress');
    expect(text.length).toBeGreaterThan(STATUS_LOOK);
    expect(reportsStatusUnderWay(text)).toBe(true);
    expect(reportsStatusUnderWay(JSON.stringify([{ id: 1, state: 'running' }, ...Array.from({ length: 60 }, (_, i) => ({ id: i + 2, state: 'done' }))]))).toBe(true);
  });

  it('should not read a field of a later record, of a nested record, or in a long text of another shape', () => {
    const later = `Output: ${JSON.stringify([{ id: 0, status: 'completed' }, { id: 1, status: 'in_progress' }, ...Array.from({ length: 40 }, (_, i) => ({ id: i + 2, status: 'completed', note: 'x'.repeat(20) }))], null, 2)}`;
    expect(later.length).toBeGreaterThan(STATUS_LOOK);
    expect(reportsStatusUnderWay(later)).toBe(false);
    expect(reportsStatusUnderWay(listing('completed'))).toBe(false);
    const nested = JSON.stringify([{ job: { status: 'in_progress' }, steps: 'y'.repeat(STATUS_LOOK) }]);
    expect(reportsStatusUnderWay(nested)).toBe(false);
    expect(reportsStatusUnderWay(`${'log line\n'.repeat(STATUS_LOOK / 9)}[{"status": "in_progress"}]`)).toBe(false);
  });
});

describe.each(ENGINES)('polls answered by a long listing (%s engine)', (engine) => {
  it('should ask at most, never break, while the newest run is in progress', () => {
    expect(flaggedActions(unpaced, engine)).not.toContain('break');
    expect(liveActions(unpaced, engine, { afterBlock: 'end' }).filter((a) => a === 'deny' || a === 'stop')).toEqual([]);
  });

  it('should still break the same long listing, every run over, asked for again and again', () => {
    expect(flaggedActions(finished, engine)).toContain('break');
    expect(liveActions(finished, engine, { afterBlock: 'end' })).toContain('deny');
  });
});
