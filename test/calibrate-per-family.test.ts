/**
 * Per-family fitting and configs (`calibrate --per-family`, a config's `families`): on a synthetic labelled
 * set written here where two families need different thresholds (alpha's loops are four repeats of a failing
 * command; beta's finished runs repeat a failing command four times too before a fix, its loops twenty), a family fitted
 * on its own breaks what the pooled fit cannot; the config's families section is applied per family by
 * `eval --config` (the label's agent) and by `hook --config` (its `--agent`), the pooled options elsewhere.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calibrate } from '../src/calibrate/calibrate.js';
import { calibratedConfig } from '../src/calibrate/config-file.js';
import type { EvalRow } from '../src/eval/eval-row.js';
import { configOptions } from '../src/index.js';
import { replayHook } from './helpers/hook-payloads.js';
import { tempDir } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { STUCK, type LiveScenario } from './helpers/live-scenarios.js';

type Line = Record<string, unknown>;

/** `n` runs per family: half stuck (step limit), half finished, in task groups of two runs. */
function writeTwoFamilies(n: number): string {
  const dir = tempDir();
  const lines: Line[] = [];
  const labels: Line[] = [];
  const failing = (session: string, k: number, times: number): void => {
    for (let i = 0; i < times; i++) lines.push({ session, step: i, tool: 'bash', args: { command: `make test${k}` }, error: 'make: *** [test] Error 2' });
  };
  for (let k = 0; k < 2 * n; k++) {
    const alpha = k < n;
    const stuck = k % 2 === 0;
    const session = `${alpha ? 'alpha' : 'beta'}-${k}`;
    if (alpha && stuck) failing(session, k, 4);
    else if (alpha) for (let i = 0; i < 8; i++) lines.push({ session, step: i, tool: 'read_file', args: { path: `src/m${k}_${i}.py` }, result: `def f${i}(): pass` });
    else if (stuck) failing(session, k, 20);
    else {
      failing(session, k, 4);
      lines.push({ session, step: 4, tool: 'edit', args: { path: `src/fix${k}.py`, text: 'fixed' }, result: 'ok' });
      lines.push({ session, step: 5, tool: 'bash', args: { command: `make test${k}` }, result: 'all tests passed' });
    }
    labels.push({ session, exit_status: stuck ? 'step_limit' : 'submitted', agent: alpha ? 'alpha-agent' : 'beta-agent', task_group: `task-${Math.floor(k / 2)}` });
  }
  writeFileSync(join(dir, 'events.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  writeFileSync(join(dir, 'sessions.jsonl'), `${labels.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return dir;
}

const dir = writeTwoFamilies(30);
// every kind weight free (--min-weight 0), as when this case was written: at the default floor (0.8) the
// pooled fit breaks all 15 of alpha's loops as alpha's own fit does, and the case shows no difference
const settings = { dir, start: {}, maxFalseAlarms: 0.01, maxWarnings: 1, folds: 3, seed: 3, restarts: 1, minKindWeight: 0 } as const;

/** The row of `family` in an eval JSON's two-phase table. */
function row(json: string, family: string): EvalRow {
  const r = (JSON.parse(json) as { twoPhase: { rows: EvalRow[] } }).twoPhase.rows.find((x) => x.group === family);
  if (r === undefined) throw new Error(`no row ${family}`);
  return r;
}

describe('calibrate --per-family', () => {
  it('should fit each family on its own, break loops the pooled fit cannot, and keep each within the budget held out', async () => {
    const pooled = await calibrate(settings);
    const own = await calibrate({ ...settings, perFamily: 20 });
    expect(Object.keys(pooled.familyFits)).toEqual([]);
    expect(Object.keys(own.familyFits).sort()).toEqual(['alpha-agent', 'beta-agent']);
    const fam = (c: typeof own, f: string) => c.perFamily.find((x) => x.family === f) as (typeof own.perFamily)[number];
    // alpha's four-repeat loops look like beta's finished runs: the pooled fit leaves them, alpha's own breaks them
    expect(fam(own, 'alpha-agent').twoPhase.stepLimitBroken.count).toBeGreaterThan(fam(pooled, 'alpha-agent').twoPhase.stepLimitBroken.count);
    for (const f of ['alpha-agent', 'beta-agent']) expect(fam(own, f).twoPhase.finishedBroken.count, f).toBe(0);
    // deterministic
    const again = await calibrate({ ...settings, perFamily: 20 });
    expect(again.familyFits).toEqual(own.familyFits);
    // a family smaller than the threshold keeps the pooled fit, and says why
    const small = await calibrate({ ...settings, perFamily: 31 });
    expect(small.familyFits).toEqual({});
    expect(small.pooledFamilies).toEqual([
      { family: 'alpha-agent', runs: 30, why: '30 runs, fewer than 31' },
      { family: 'beta-agent', runs: 30, why: '30 runs, fewer than 31' },
    ]);
    // the config's families section: each family's fitted options, read per agent by the library
    const config = calibratedConfig(own, {}, 'test', new Date(0));
    expect(Object.keys(config.families as object).sort()).toEqual(['alpha-agent', 'beta-agent']);
    expect(configOptions(config, { agent: 'alpha-agent' }).policy).toMatchObject(own.familyFits['alpha-agent']?.policy ?? {});
    expect(configOptions(config, { agent: 'someone-else' }).policy).toMatchObject(own.fitted.policy);
  }, 300_000);
});

describe('a config with families, read per family', () => {
  // the pooled options never break (a ladder of warnings); alpha's family breaks at the default ladder
  const quiet = { policy: { ladder: ['warn'] } };
  const cfgDir = tempDir();
  const file = join(cfgDir, 'families.json');
  writeFileSync(file, JSON.stringify({ ...quiet, families: { 'alpha-agent': { policy: { ladder: ['warn', 'warn', 'break'] } }, codex: { policy: { ladder: ['warn', 'warn', 'break'] } } } }));

  it('should replay each family with its own options in eval, the others with the pooled ones', async () => {
    const withFamilies = await loopwatchInProcess(['eval', dir, '--config', file, '--json']);
    expect(withFamilies.code, withFamilies.stderr).toBe(0);
    expect(row(withFamilies.stdout, 'alpha-agent').stepLimitBroken.count).toBeGreaterThan(0);
    expect(row(withFamilies.stdout, 'beta-agent').stepLimitBroken.count).toBe(0);
    const pooledFile = join(cfgDir, 'pooled.json');
    writeFileSync(pooledFile, JSON.stringify(quiet));
    const pooled = await loopwatchInProcess(['eval', dir, '--config', pooledFile, '--json']);
    expect(row(pooled.stdout, 'alpha-agent').stepLimitBroken.count).toBe(0);
    // every labelled run is counted once, none unlabelled
    const all = JSON.parse(withFamilies.stdout) as { twoPhase: { overall: EvalRow }; unlabelled: number };
    expect(all.twoPhase.overall.sessions).toBe(60);
    expect(all.unlabelled).toBe(0);
  }, 120_000);

  it('should apply the agent family\'s options in a hook, the pooled ones for another agent', async () => {
    const stuck = STUCK[0] as LiveScenario;
    // the first call and every third after it through hook processes, the others in this process (the same state files)
    const codex = await replayHook('codex', 'fam-codex', stuck.calls, ['--state-dir', tempDir(), '--config', file], 3);
    const claude = await replayHook('claude-code', 'fam-claude', stuck.calls, ['--state-dir', tempDir(), '--config', file], 3);
    expect(codex.some((s) => s.propose === 'deny' || s.propose === 'stop')).toBe(true);
    expect(claude.some((s) => s.propose === 'deny' || s.propose === 'stop')).toBe(false);
    expect(claude.some((s) => s.propose === 'warn')).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('families');
  }, 120_000);
});
