/**
 * The pieces of an evaluation's tables: the Wilson score interval, the agent families and their overrides,
 * and matching a run to its label.
 */
import { describe, expect, it } from 'vitest';
import { FAMILY_RULES, NO_AGENT, familyOf, parseFamilyOverride } from '../src/eval/families.js';
import { labelFor, type SessionLabel } from '../src/eval/labels.js';
import { share, wilsonInterval } from '../src/eval/wilson.js';

describe('Wilson score interval', () => {
  it('should match published values and stay inside [0, 1]', () => {
    // Newcombe (1998), Table I: 0/10 -> 0-0.2775; 1/29 -> 0.0061-0.1718; 81/263 -> 0.2553-0.3662
    expect(wilsonInterval(0, 10)?.low).toBe(0);
    expect(wilsonInterval(0, 10)?.high as number).toBeCloseTo(0.2775, 4);
    expect(wilsonInterval(1, 29)?.low as number).toBeCloseTo(0.0061, 4);
    expect(wilsonInterval(1, 29)?.high as number).toBeCloseTo(0.1718, 4);
    expect(wilsonInterval(81, 263)?.low as number).toBeCloseTo(0.2553, 4);
    expect(wilsonInterval(81, 263)?.high as number).toBeCloseTo(0.3662, 4);
    expect(wilsonInterval(10, 10)?.high).toBe(1);
  });

  it('should give no share of an empty group', () => {
    expect(share(0, 0)).toEqual({ count: 0, of: 0, rate: null, low: null, high: null });
    expect(share(3, 4).rate).toBe(0.75);
  });
});

describe('agent families', () => {
  it.each([
    ['mini-swe-agent 1.15.0', 'mini-swe-agent'],
    ['live-swe-agent (mini-swe-agent 2.2.4)', 'mini-swe-agent'],
    ['OpenHands CodeActAgent (MopenHands)', 'OpenHands'],
    ['SWE-agent 0.x (multi-swe-bench)', 'SWE-agent'],
    ['tau-bench tool-calling agent', 'tau-bench'],
    ['tau2-bench llm_agent', 'tau-bench'],
    ['ReAct (base) from the Reflexion repo', 'ReAct'],
    ['Reflexion agent', 'ReAct'],
    ['claude-code 2.1.97', 'claude-code'],
    ['Claude Code 1.0.58', 'claude-code'],
    ['codex 0.77.0', 'codex'],
    ['codex', 'codex'],
    ['gemini-cli 0.9', 'gemini-cli'],
    ['my own agent', 'my own agent'],
  ])('should put %s in %s', (agent, family) => {
    expect(familyOf(agent)).toBe(family);
  });

  it('should try overrides first, and name runs without an agent', () => {
    const o = parseFamilyOverride('own=ReAct');
    expect(o).toEqual({ contains: 'own', family: 'ReAct' });
    expect(familyOf('My OWN agent', [o as NonNullable<typeof o>])).toBe('ReAct');
    expect(familyOf(undefined)).toBe(NO_AGENT);
    expect(parseFamilyOverride('=x')).toBeNull();
    expect(parseFamilyOverride('x=')).toBeNull();
    expect(FAMILY_RULES.length).toBe(8);
  });
});

describe('matching runs to labels', () => {
  const labels = new Map<string, SessionLabel>([
    ['run-1', { session: 'run-1', exitStatus: 'submitted', agent: undefined, loop: false }],
    ['django-1', { session: 'django-1', exitStatus: 'step_limit', agent: undefined, loop: false }],
  ]);

  it('should match by id, then by the id without its extension and folders', () => {
    expect(labelFor(labels, 'run-1')?.exitStatus).toBe('submitted');
    expect(labelFor(labels, 'runs/a/django-1.traj')?.exitStatus).toBe('step_limit');
    expect(labelFor(labels, 'django-1.json.gz')?.exitStatus).toBe('step_limit');
    expect(labelFor(labels, 'run-2')).toBeUndefined();
  });
});
