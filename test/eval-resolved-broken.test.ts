/**
 * `loopwatch eval` counts resolved runs broken (issue 27): labels that say `resolved` (a benchmark's
 * verdict that the run's work was correct) give the share of resolved runs a break would have destroyed,
 * over all resolved runs and over the submitted ones, in both replays, as text and JSON, and the runs
 * themselves (listed under the tables, `resolvedBroken` in the JSON, `--list resolved`); labels without it
 * print nothing more.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir, writeJsonl } from './helpers/cli.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The same failing build, 10 times (broken in both replays). */
const stuck = (session: string): unknown[] => Array.from({ length: 10 }, () => ({ session, tool: 'bash', args: { command: 'make build' }, error: 'make: *** [all] Error 2' }));
/** Six reads of six files (never flagged). */
const quiet = (session: string): unknown[] => Array.from({ length: 6 }, (_, i) => ({ session, tool: 'read_file', args: { path: `src/f${i}.py` }, result: `body ${i}` }));

/** Runs: a resolved submitted run broken, a resolved submitted run left alone, a resolved step-limit run broken, an unresolved submitted run broken. */
function runs(withResolved: boolean): string {
  const dir = tempDir();
  dirs.push(dir);
  writeJsonl(dir, 'events.jsonl', [...stuck('ok-broken'), ...quiet('ok-quiet'), ...stuck('limit-ok'), ...stuck('wrong-broken')]);
  const r = (v: boolean): object => (withResolved ? { resolved: v } : {});
  writeJsonl(dir, 'sessions.jsonl', [
    { session: 'ok-broken', exit_status: 'submitted', ...r(true) },
    { session: 'ok-quiet', exit_status: 'submitted', ...r(true) },
    { session: 'limit-ok', exit_status: 'step_limit', ...r(true) },
    { session: 'wrong-broken', exit_status: 'submitted', ...(withResolved ? { resolved: null } : {}) },
  ]);
  return dir;
}

interface Share {
  count: number;
  of: number;
}
interface Doc {
  onePhase: { overall: { resolvedBroken: Share; resolvedSubmittedBroken: Share } };
  twoPhase: { overall: { resolvedBroken: Share; resolvedSubmittedBroken: Share } };
}

describe('loopwatch eval: resolved runs broken', () => {
  it('should count the resolved runs broken, all and submitted, in both replays', async () => {
    const run = await loopwatchInProcess(['eval', runs(true), '--json']);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as Doc;
    for (const t of [doc.onePhase, doc.twoPhase]) {
      expect(t.overall.resolvedBroken).toMatchObject({ count: 2, of: 3 });
      expect(t.overall.resolvedSubmittedBroken).toMatchObject({ count: 1, of: 2 });
    }
  });

  it('should print the line under the tables', async () => {
    const run = await loopwatchInProcess(['eval', runs(true)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Resolved runs broken (correct work a break would have destroyed): one-phase 2 of 3 (66.7%), submitted 1 of 2 (50.0%); two-phase 2 of 3 (66.7%), submitted 1 of 2 (50.0%)');
  });

  it('should list the resolved runs broken, with where each replay broke them', async () => {
    const dir = runs(true);
    const run = await loopwatchInProcess(['eval', dir]);
    expect(run.code).toBe(0);
    const at = run.stdout.indexOf('Resolved runs broken (labelled resolved');
    expect(at).toBeGreaterThan(0);
    const listed = run.stdout.slice(at).split('\n').filter((l) => l.startsWith('  ') && !l.includes('session'));
    expect(listed.map((l) => /\b(ok-broken|limit-ok|ok-quiet|wrong-broken)\b/.exec(l)?.[1])).toEqual(['ok-broken', 'limit-ok']);
    for (const l of listed) expect(l).toMatch(/break at call #\d+.*break at call #\d+/);
    const doc = JSON.parse((await loopwatchInProcess(['eval', dir, '--json'])).stdout) as { resolvedBroken: { session: string }[] };
    expect(doc.resolvedBroken.map((r) => r.session)).toEqual(['ok-broken', 'limit-ok']);
    const list = await loopwatchInProcess(['eval', dir, '--list', 'resolved']);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n').filter((l) => l !== '').map((l) => l.split('\t')[0])).toEqual(['ok-broken', 'limit-ok']);
  });

  it('should print no such line when no label says whether its run was resolved', async () => {
    const run = await loopwatchInProcess(['eval', runs(false)]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('Resolved runs');
    expect((await loopwatchInProcess(['eval', runs(false), '--list', 'resolved'])).stdout).toBe('');
  });
});
