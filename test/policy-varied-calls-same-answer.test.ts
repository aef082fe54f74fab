/**
 * Different calls that keep getting the very same answer: `ls`, `ls -la`, `ls src/..`, `find` all
 * answering the same listing. Repeated outcomes corroborate other detectors; once five calls of one tool,
 * not all the same call, get exactly the same answer in ten, they are a loop of their own. Answers that say
 * nothing was found, and brief acknowledgements, are not answers. Both engines.
 */
import { describe, expect, it } from 'vitest';
import { ENGINES, type Engine, verdictsOf } from './helpers/verdicts.js';
import type { ToolEvent, Verdict } from '../src/index.js';
import { RESULT_REPEAT_DEFAULTS } from '../src/options/detector-options.js';
import { VARIED_CALLS_EXTRA } from '../src/detectors/result-repeat.js';

const LISTING = 'README.md\npackage.json\nsrc/\ntest/\ndocs/\nbench/\nassembly/\nscripts/\ntsconfig.json';

const verdicts = (events: readonly ToolEvent[], engine: Engine): (Verdict | null)[] => verdictsOf(events, { engine });

const bash = (command: string, result: string): ToolEvent => ({ tool: 'bash', args: { command }, result });

describe.each(ENGINES)('varied calls, the very same answer (%s engine)', (engine) => {
  it('should warn once five different listings answer the same, and say so', () => {
    const events = ['ls', 'ls -la', 'ls src/..', 'find . -maxdepth 1', 'ls ./', 'ls -1'].map((c) => bash(c, LISTING));
    const v = verdicts(events, engine);
    const first = v.findIndex((x) => x !== null);
    expect(first).toBe(RESULT_REPEAT_DEFAULTS.threshold + VARIED_CALLS_EXTRA - 1);
    expect(v[first]?.kind).toBe('result_repeat');
    expect(v[first]?.pattern).toContain('different calls got the very same answer');
  });

  it('should stay silent on four, and on different answers', () => {
    expect(verdicts(['ls', 'ls -la', 'ls src/..', 'ls ./'].map((c) => bash(c, LISTING)), engine).every((x) => x === null)).toBe(true);
    const differ = ['ls', 'ls -la', 'ls src', 'ls test', 'ls docs', 'ls bench'].map((c, i) => bash(c, `${LISTING}\nextra_${i}.md`));
    expect(verdicts(differ, engine).every((x) => x === null)).toBe(true);
  });

  it('should stay silent when different calls get the same brief acknowledgement', () => {
    const cd = ['src', 'test', 'docs', 'bench', 'scripts', 'assembly', 'build'].map((d) => ({ tool: 'cd', args: { command: `cd ${d}` }, result: 'Your command ran successfully and did not produce any output.' }));
    const status = ['HAT134', 'HAT032', 'HAT280', 'HAT199', 'HAT110', 'HAT272', 'HAT099'].map((f) => ({ tool: 'get_flight_status', args: { flight_number: f, date: '2024-05-28' }, result: 'available' }));
    expect(verdicts(cd, engine).every((x) => x === null)).toBe(true);
    expect(verdicts(status, engine).every((x) => x === null)).toBe(true);
  });

  it('should not count answers that say nothing was found (left to the detectors of failing searches)', () => {
    const routes = ['EWR-SFO', 'SFO-EWR', 'EWR-SEA', 'SEA-EWR', 'JFK-LAX', 'LAX-JFK', 'SFO-JFK'].map((r) => ({ tool: 'search_direct_flight', args: { origin: r.slice(0, 3), destination: r.slice(4), date: '2024-05-20' }, result: '[]' }));
    const repeats = verdicts(routes, engine).flatMap((v) => v?.signals ?? []).filter((s) => s.kind === 'result_repeat');
    expect(repeats.length).toBeGreaterThan(0);
    for (const s of repeats) expect(s.confidence).toBe(0.4);
  });
});
