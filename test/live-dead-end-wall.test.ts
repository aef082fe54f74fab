/**
 * A dead end met again before it runs (issue 27, two-phase; src/live/dead-end-wall.ts): an agent searching
 * for the same missing page with new words each time ("Could not find [A]", then [B], then [C]) is a dead
 * end, found only from the searches' errors, so its record reaches break after a search already ran, and
 * the next search is a new call that nothing else stops. Before this rule, that next search ran.
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

/** Searches until a search's record reaches break; returns the number of calls made. */
function untilRecordBreaks(d: LoopDetector): number {
  for (let i = 0; i < 20; i++) {
    const r = step(d, search(i), i);
    expect(r.proposal.action, `proposal of search ${i}`).not.toBe('deny');
    if (r.record?.verdict?.action === 'break') return i + 1;
  }
  throw new Error('the record never reached break');
}

describe.each(['wasm', 'reference'] as const)('another attempt at a dead end that broke (%s engine)', (engine) => {
  const options: LoopDetectorOptions = { engine };

  it('should block the next search after the record of a failing search reached break', () => {
    const d = new LoopDetector(options, 's');
    try {
      const i = untilRecordBreaks(d);
      const next = d.propose({ ...search(i), id: `c${i}` });
      expect(next.action).toBe('deny');
      expect(next.verdict?.kind).toBe('dead_end');
      expect(next.verdict?.signals.map((s) => s.detector)).toContain('dead_end_again');
      expect(next.message).toContain('tries again the wall of a dead end');
    } finally {
      d.dispose();
    }
  });

  it('should block a search flagged as it is proposed when the ladder says break, the searches before it all failed', () => {
    // searches in like words are flagged (semantic) as they are proposed; dead end at the 3rd and 4th
    // failures (warn, warn): the 5th proposal stands on break, with only failed searches behind it
    const d = new LoopDetector(options, 's');
    try {
      const decisions: string[] = [];
      for (let i = 0; i < 8; i++) {
        const r = step(d, alike(i), i);
        decisions.push(r.proposal.action);
        if (r.record === null) break;
        expect(r.record.verdict?.action ?? 'none', `record of search ${i}`).not.toBe('break');
      }
      expect(decisions).toEqual(['allow', 'allow', 'warn', 'warn', 'deny']);
    } finally {
      d.dispose();
    }
  });

  // snapshots need the WebAssembly engine
  it.skipIf(engine !== 'wasm')('should block it in a session restored from a snapshot taken after the break', () => {
    const d = new LoopDetector(options, 's');
    const copy = new LoopDetector(options, 's');
    try {
      const i = untilRecordBreaks(d);
      copy.restore(d.snapshot());
      const next = copy.propose({ ...search(i), id: `c${i}` });
      expect(next.action).toBe('deny');
      expect(next.verdict?.signals.map((s) => s.detector)).toContain('dead_end_again');
      // and the copy's own snapshot holds it too: blocked once already, the next attempt stops the run (stopAfter 2)
      const again = new LoopDetector(options, 's');
      try {
        again.restore(copy.snapshot());
        expect(again.propose({ ...search(i + 1), id: `c${i + 1}` }).action).toBe('stop');
      } finally {
        again.dispose();
      }
    } finally {
      d.dispose();
      copy.dispose();
    }
  });

  it('should allow another tool proposed after the break', () => {
    const d = new LoopDetector(options, 's');
    try {
      const i = untilRecordBreaks(d);
      expect(d.propose({ tool: 'Lookup', args: { keyword: 'CBS' }, id: `c${i}` }).action).toBe('allow');
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
        expect(t.proposal.verdict?.signals.map((s) => s.detector) ?? []).not.toContain('dead_end_again');
      }
    } finally {
      d.dispose();
    }
  });

  it('should forget the dead end after `cooldown` quiet calls', () => {
    const d = new LoopDetector(options, 's');
    try {
      let i = untilRecordBreaks(d);
      for (let k = 0; k < 10; k++) {
        const r = step(d, { tool: 'Lookup', args: { keyword: `term ${k}` }, result: `found ${k}` }, i++);
        expect(r.record?.verdict ?? null).toBeNull();
      }
      // three failing searches again, then a fourth: the wall is back, but no dead end broke since the quiet calls
      for (let k = 0; k < 3; k++) step(d, search(40 + k), i++);
      const later = d.propose({ ...search(50), id: `c${i}` });
      expect(later.verdict?.signals.map((s) => s.detector) ?? []).not.toContain('dead_end_again');
    } finally {
      d.dispose();
    }
  });
});
