/**
 * `loopwatch serve --config` with a `families` section (`calibrate --per-family`): a session whose calls
 * name their `agent` is checked with that agent's family's options, one of no agent (or of an agent the
 * config does not name) with the pooled ones, over real HTTP requests to the built CLI. The config gives one
 * family an exact-repeat threshold of 2 and the other 6 (the pooled default is 3), so the same identical
 * calls are first flagged as exact repeats at different calls per agent; a family's session persisted at
 * shutdown comes back on its family's engine.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { post } from './helpers/http.js';
import { afterPayload, beforePayload, proposeAction } from './helpers/hook-payloads.js';
import { STUCK, type LiveScenario } from './helpers/live-scenarios.js';
import { type ServeProcess, startServe } from './helpers/serve-process.js';

const dir = tempDir();
const config = join(dir, 'families.json');
writeFileSync(config, JSON.stringify({ families: { 'alpha-agent': { detectors: { exactRepeat: { threshold: 2 } } }, 'beta-agent': { detectors: { exactRepeat: { threshold: 6 } } } } }));
const call = (session: string, agent?: string) => ({ session, ...(agent === undefined ? {} : { agent }), tool: 'bash', args: { command: 'make test' }, result: 'FAILED' });

const running: ServeProcess[] = [];
/** Starts the built CLI's server on a free port, with a state directory of its own unless `args` give one. */
async function serve(args: readonly string[]): Promise<ServeProcess> {
  const s = await startServe(['--port', '0', '--no-token', ...(args.includes('--state-dir') ? [] : ['--state-dir', tempDir()]), ...args]);
  running.push(s);
  return s;
}
async function stop(s: ServeProcess): Promise<void> {
  s.child.kill('SIGTERM');
  await s.exited;
}
afterAll(async () => {
  for (const s of running) if (s.child.exitCode === null) await stop(s);
});

type Answer = { verdict: { kind: string } | null };
/** The index of the first exact-repeat verdict among `answers`, or -1. */
const firstRepeat = (answers: readonly Answer[]): number => answers.findIndex((a) => a.verdict?.kind === 'exact_repeat');

describe('serve applies a config\'s families per agent', () => {
  it('should check a session naming its agent with its family\'s options, one naming none with the pooled ones (/v1/check)', async () => {
    const s = await serve(['--config', config]);
    const first: Record<string, number> = {};
    for (const [session, agent] of [['a', 'alpha-agent'], ['b', 'beta-agent'], ['c', undefined], ['d', 'gamma-agent']] as const) {
      const answers: Answer[] = [];
      // the agent is named on the first call only: the session stays on its family's engine
      for (let i = 0; i < 8; i++) {
        const r = await post(`${s.url}/v1/check`, call(session, i === 0 ? agent : undefined));
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        answers.push(r.body as Answer);
      }
      first[session] = firstRepeat(answers);
    }
    expect(first).toEqual({ a: 1, b: 5, c: 2, d: 2 });
  }, 60_000);

  it('should route a batch\'s calls per session and agent, in the batch\'s order (/v1/check/batch)', async () => {
    const s = await serve(['--config', config]);
    const calls = Array.from({ length: 8 }, () => [call('x', 'alpha-agent'), call('y', 'beta-agent'), call('z')]).flat();
    const r = await post(`${s.url}/v1/check/batch`, { calls });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const results = (r.body as { results: Answer[] }).results;
    const of = (k: number) => results.filter((_, i) => i % 3 === k);
    expect([firstRepeat(of(0)), firstRepeat(of(1)), firstRepeat(of(2))]).toEqual([1, 5, 2]);
    // without the config's families, every session gets the defaults
    const plain = await serve([]);
    const p = (await post(`${plain.url}/v1/check/batch`, { calls })).body as { results: Answer[] };
    expect([0, 1, 2].map((k) => firstRepeat(p.results.filter((_, i) => i % 3 === k)))).toEqual([2, 2, 2]);
  }, 60_000);

  it('should persist a family\'s session at shutdown and restore it onto its family\'s engine', async () => {
    const state = tempDir();
    const s = await serve(['--config', config, '--state-dir', state]);
    // beta's threshold is 6: four identical calls are no exact repeat yet
    for (let i = 0; i < 4; i++) expect(firstRepeat([(await post(`${s.url}/v1/check`, call('kept', 'beta-agent'))).body as Answer])).toBe(-1);
    await stop(s);
    const again = await serve(['--config', config, '--state-dir', state]);
    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++) answers.push((await post(`${again.url}/v1/check`, call('kept'))).body as Answer);
    // the 5th call (pooled: already at the 3rd) is still none; the 6th is the family's exact repeat
    expect(firstRepeat(answers)).toBe(1);
  }, 60_000);

  it('should give a hook route\'s sessions the family of the route\'s agent (/v1/hooks/codex vs /v1/hooks/claude-code)', async () => {
    // the pooled options never deny (a ladder of warnings); the codex family's ladder breaks
    const ladders = join(tempDir(), 'ladders.json');
    writeFileSync(ladders, JSON.stringify({ policy: { ladder: ['warn'] }, families: { codex: { policy: { ladder: ['warn', 'warn', 'break'] } } } }));
    const s = await serve(['--config', ladders]);
    const stuck = STUCK[0] as LiveScenario;
    const actions: Record<string, string[]> = {};
    for (const agent of ['codex', 'claude-code'] as const) {
      const got: string[] = (actions[agent] = []);
      for (const [i, c] of stuck.calls.entries()) {
        const id = `toolu_${i}`;
        const r = await fetch(`${s.url}/v1/hooks/${agent}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(beforePayload(agent, `fam-${agent}`, c, id)) });
        const action = proposeAction(agent, (await r.text()).trim());
        got.push(action);
        if (action === 'deny' || action === 'stop') continue;
        await fetch(`${s.url}/v1/hooks/${agent}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(afterPayload(agent, `fam-${agent}`, c, id, i)) });
      }
    }
    expect(actions.codex).toContain('deny');
    expect(actions['claude-code']).not.toContain('deny');
    expect(actions['claude-code']).toContain('warn');
  }, 60_000);
});
