/**
 * A dead end met again before it runs (issue 27, two-phase; src/live/dead-end-wall.ts): an agent searching
 * for missing pages with new words each time ("Could not find [A]", then [B], then [C]) is a dead end,
 * found only from the searches' errors, so only records reached break, after the search had run; the next
 * search is a new call, which nothing flagged (or only a warning, without evidence from calls that ran).
 * Before this rule, every search ran.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { LiveCall, LiveDecision, LoopDetectorOptions } from '../src/index.js';

/** Pages the agent looks for, none alike (so no proposal is flagged by its words). */
const PAGES = ['Wallace and Gromit', 'Thrill-O-Matic', 'Aardman Animations', 'Creature Comforts', 'Nick Park', 'Bristol harbour', 'Plasticine', 'Feathers McGraw', 'Cracking cheese', 'Preston'];

/** A search tool's answer when the page does not exist (as a ReAct agent's Wikipedia search gives it). */
const missing = (query: string): LiveCall => ({ tool: 'Search', args: { query }, result: `Could not find [${query}]. Similar: ['Pontotoc County, Oklahoma', 'KTEN']`, error: `Could not find [${query}]` });

/** The k-th search, for a page that does not exist. */
const search = (k: number): LiveCall => missing(PAGES[k % PAGES.length] as string);

/** The k-th search, for a page that does not exist, in words much like the others'. */
const alike = (k: number): LiveCall => missing(`Pontotoc County CBS station ${'abcdefghij'[k]}`);

/** Proposes then records `call` (id `c<i>`), returning both decisions; a blocked call is not recorded. */
function step(d: LoopDetector, call: LiveCall, i: number): { proposal: LiveDecision; record: LiveDecision | null } {
  const proposal = d.propose({ ...call, id: `c${i}` });
  if (proposal.action === 'deny' || proposal.action === 'stop') return { proposal, record: null };
  return { proposal, record: d.record({ ...call, id: `c${i}` }) };
}

/** Proposes and records searches (blocked ones are not recorded) until one is blocked or `n` ran; returns each proposal's action. */
function searches(d: LoopDetector, n: number, call: (k: number) => LiveCall): string[] {
  const actions: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = step(d, call(i), i);
    actions.push(r.proposal.action);
    if (r.record === null) break;
  }
  return actions;
}

describe.each(['wasm', 'reference'] as const)('another attempt at a dead end (%s engine)', (engine) => {
  const options: LoopDetectorOptions = { engine };

  it('should warn, then block, searches that nothing but the wall flags, once the ladder says so', () => {
    // dead end at the 3rd failure's record (warn) and the 4th's (warn): the 4th search is proposed after
    // three failures in a row (a warning), the 5th after four (the ladder's break: blocked)
    const d = new LoopDetector(options, 's');
    try {
      expect(searches(d, 8, search)).toEqual(['allow', 'allow', 'allow', 'warn', 'deny']);
      const again = d.propose({ ...search(5), id: 'c5' });
      expect(again.action).toBe('stop');
      expect(again.verdict?.kind).toBe('dead_end');
      expect(again.verdict?.signals.map((s) => s.detector)).toEqual(['dead_end_again']);
      expect(again.message).toContain('tries again the wall of a dead end');
    } finally {
      d.dispose();
    }
  });

  it('should block a search flagged as it is proposed when the ladder says break, the searches before it all failed', () => {
    // searches in like words are flagged (semantic) as they are proposed: without the wall a break there
    // had no evidence from calls that ran (none of them is the same call), so it was only a warning
    // (the third, a new search after two failed, is weighed on its outcome: warned at its record, not its
    // proposal, src/policy/new-call-proposed.ts; the fourth is proposed after three failed: warned)
    const d = new LoopDetector(options, 's');
    try {
      expect(searches(d, 8, alike)).toEqual(['allow', 'allow', 'allow', 'warn', 'deny']);
    } finally {
      d.dispose();
    }
    const e = new LoopDetector(options, 's');
    try {
      step(e, alike(0), 0);
      step(e, alike(1), 1);
      const third = step(e, alike(2), 2);
      expect([third.proposal.action, third.record?.action]).toEqual(['allow', 'warn']);
    } finally {
      e.dispose();
    }
  });

  // snapshots need the WebAssembly engine
  it.skipIf(engine !== 'wasm')('should block it in a session restored from a snapshot', () => {
    const d = new LoopDetector(options, 's');
    const copy = new LoopDetector(options, 's');
    try {
      expect(searches(d, 4, search)).toEqual(['allow', 'allow', 'allow', 'warn']);
      copy.restore(d.snapshot());
      const next = copy.propose({ ...search(4), id: 'c4' });
      expect(next.action).toBe('deny');
      expect(next.verdict?.signals.map((s) => s.detector)).toEqual(['dead_end_again']);
    } finally {
      d.dispose();
      copy.dispose();
    }
  });

  it('should allow another tool proposed after the failures', () => {
    const d = new LoopDetector(options, 's');
    try {
      searches(d, 4, search);
      expect(d.propose({ tool: 'Lookup', args: { keyword: 'CBS' }, id: 'c4' }).action).toBe('allow');
    } finally {
      d.dispose();
    }
  });

  it('should allow the next attempt when other work came between the failures', () => {
    // a failing test re-run after each distinct edit: the tool's failures are not back to back
    const d = new LoopDetector(options, 's');
    try {
      let i = 0;
      for (let k = 0; k < 12; k++) {
        const e = step(d, { tool: 'edit', args: { path: `src/part${k}.py`, text: `fix ${k}` }, result: 'edited' }, i++);
        expect(e.proposal.action).not.toBe('deny');
        const t = step(d, { tool: 'bash', args: { command: `pytest tests/test_part.py -k case${k}` }, error: `[exit 1] AssertionError: case${k} expected ${k} got ${k + 1}` }, i++);
        expect(t.proposal.action).not.toBe('deny');
        expect(t.proposal.verdict?.signals.map((s) => s.detector) ?? []).not.toContain('dead_end_again');
      }
    } finally {
      d.dispose();
    }
  });
});
