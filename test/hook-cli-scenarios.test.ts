/**
 * `loopwatch hook` as agents run it over the shared live scenarios, in each agent's payload shape: a child
 * process per hook call for every fourth call of a session, the others through the same command in this
 * process (helpers/hook-in-process.ts), on the same state files. Stuck loops: the model is warned (context) before the first deny, then the
 * calls are denied; legitimate work: never denied. The decisions are the library's (LoopDetector.propose
 * and record on the same calls): the door a call comes in by changes nothing, but that the hook does not
 * say a warning again that would say nothing new (src/hooks/said-once.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { AGENTS, type HookStep, inParallel, replayHook } from './helpers/hook-payloads.js';
import { actions, replay } from './helpers/live-replay.js';
import { LEGITIMATE, type LiveScenario, STUCK } from './helpers/live-scenarios.js';
import { tempFolder } from './helpers/temp-folder.js';

const stateDir = tempFolder('hook-scenarios');

/** Each stuck scenario with every agent; each legitimate one with one agent, in turn (every agent gets some). */
const RUNS: readonly { agent: AgentName; scenario: LiveScenario; session: string }[] = [
  ...STUCK.flatMap((scenario, k) => AGENTS.map((agent) => ({ agent, scenario, session: `stuck-${k}-${agent}` }))),
  ...LEGITIMATE.map((scenario, k) => ({ agent: AGENTS[k % AGENTS.length] as AgentName, scenario, session: `legit-${k}` })),
];

let results: HookStep[][] = [];

beforeAll(async () => {
  results = await inParallel(
    RUNS.map((r) => () => replayHook(r.agent, r.session, r.scenario.calls, ['--state-dir', stateDir], 4)),
    4,
  );
}, 600_000);

function hookActions(steps: readonly HookStep[]): string[] {
  return steps.flatMap((s, i) => (s.propose === 'allow' ? [] : [`${i}:${s.propose}`]));
}

describe('loopwatch hook over the shared scenarios, a process for every fourth hook call', () => {
  RUNS.forEach((run, k) => {
    it(`should ${run.scenario.stuck ? 'warn, then deny' : 'never deny'}: ${run.scenario.name} (${run.agent})`, () => {
      const steps = results[k] as HookStep[];
      expect(steps.map((s) => s.stderr).join('')).toBe('');
      const library = new LoopDetector({}, run.session);
      const expected = actions(replay(library, run.scenario.calls));
      library.dispose();
      // the library's decisions, but a warning that would repeat the one the hook last said is not said again
      // (src/hooks/said-once.ts): the same blocks at the same calls, the same first word, no warning of its own
      const said = hookActions(steps);
      const blocks = (a: readonly string[]): string[] => a.filter((x) => /:(deny|stop)$/.test(x));
      expect(blocks(said)).toEqual(blocks(expected));
      expect(said[0]).toEqual(expected[0]);
      for (const x of said) expect(expected).toContain(x);
      const firstDeny = steps.findIndex((s) => s.propose === 'deny' || s.propose === 'stop');
      if (!run.scenario.stuck) {
        expect(firstDeny).toBe(-1);
        return;
      }
      expect(firstDeny).toBeGreaterThan(0);
      const warned = steps.slice(0, firstDeny).findIndex((s) => s.propose === 'warn');
      expect(warned).toBeGreaterThanOrEqual(0);
      expect((steps[warned] as HookStep).proposeReply).toContain('[loopwatch] You appear to be in a loop');
      expect((steps[firstDeny] as HookStep).proposeReply).toContain('This call was blocked and did not run.');
    });
  });
});
