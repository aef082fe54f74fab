/**
 * `loopwatch eval --curve` places the presets (conservative, default, balanced, aggressive) and a config on
 * one curve: per policy and replay, step_limit runs broken against finished work broken and warned, each
 * point equal to a full evaluation with that policy; as a table in the text report, as "curve" in --json,
 * and as two plots in the --html page (self-contained, no script, names escaped).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CURVE_PRESETS, type CurvePoint, curveFigures } from '../src/eval/eval-curve.js';
import { evaluate } from '../src/eval/eval-report.js';
import { openEvalSource } from '../src/eval/eval-source.js';
import { PRESETS } from '../src/cli/detection-options.js';
import { writeSyntheticRuns } from './helpers/calibrate-runs.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir } from './helpers/cli.js';

const dir = writeSyntheticRuns(36, 6);
const out = tempDir();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

/** A config: the default preset with a quieter ladder, in a file whose name needs escaping in HTML. */
const config = join(out, 'fit <b>&.json');
writeFileSync(config, JSON.stringify({ policy: { ladder: ['warn', 'warn', 'warn', 'break'] }, expected: { onePhase: {} } }));

describe('loopwatch eval --curve', () => {
  it('should give each preset and the config the figures of its own full evaluation', async () => {
    const run = await loopwatchInProcess(['eval', dir, '--config', config, '--curve', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const curve = (JSON.parse(run.stdout) as { curve: CurvePoint[] }).curve;
    expect(curve.map((p) => p.policy)).toEqual([...CURVE_PRESETS, config]);
    const source = await openEvalSource(dir);
    // the config names no preset: its options are laid over the shipped default's
    const options = [...CURVE_PRESETS.map((name) => (PRESETS[name] as () => object)()), (PRESETS.default as (o: object) => object)({ policy: { ladder: ['warn', 'warn', 'warn', 'break'] } })];
    for (const [i, o] of options.entries()) {
      const report = await evaluate(source, o);
      expect(curve[i]?.onePhase, curve[i]?.policy).toEqual(curveFigures(report.onePhase.overall));
      expect(curve[i]?.twoPhase, curve[i]?.policy).toEqual(curveFigures(report.twoPhase.overall));
    }
    // finished work: the submitted runs (these runs have no interactive session)
    expect(curve[1]?.onePhase.finishedBroken.of).toBe(20);
    // the points are not all one: the loudest preset breaks more than the quietest
    const broken = (p: CurvePoint | undefined): number => p?.onePhase.stepLimitBroken.count ?? 0;
    expect(broken(curve[3])).toBeGreaterThan(broken(curve[0]));
  }, 120_000);

  it('should print the curve as a table after the report, and no curve without --curve', async () => {
    const run = await loopwatchInProcess(['eval', dir, '--curve']);
    expect(run.code, run.stderr).toBe(0);
    const at = run.stdout.indexOf('Curve: step_limit runs broken against finished work broken (false alarms) and warned');
    expect(at).toBeGreaterThan(0);
    const table = run.stdout.slice(at).split('\n');
    for (const name of CURVE_PRESETS) expect(table.some((l) => l.startsWith(`${name} `) && /(\d+\.\d%|-) .*(\d+\.\d%|-) /.test(l))).toBe(true);
    expect((await loopwatchInProcess(['eval', dir])).stdout).not.toContain('Curve:');
    const refused = await loopwatchInProcess(['eval', dir, '--curve', '--list', 'misses']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--list and --curve cannot be used together/);
  }, 120_000);

  it('should plot the curve in a self-contained page with --html', async () => {
    const page = join(out, 'curve.html');
    const run = await loopwatchInProcess(['eval', dir, '--config', config, '--html', page]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Curve:');
    const html = readFileSync(page, 'utf8');
    expect(html.match(/<svg /g)).toHaveLength(2);
    // per plot: a line per replay through the presets, a dot per preset and replay, a diamond for the config
    expect(html.match(/<polyline /g)).toHaveLength(4);
    expect(html.match(/<circle /g)).toHaveLength(16);
    expect(html.match(/<rect /g)).toHaveLength(4);
    expect(html).not.toContain('<script');
    expect(html).toContain('Content-Security-Policy" content="default-src &#39;none&#39;');
    expect(html).not.toContain('fit <b>');
    expect(html).toContain('fit &lt;b&gt;&amp;.json');
  }, 120_000);
});
