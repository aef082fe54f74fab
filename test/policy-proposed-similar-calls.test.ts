/**
 * Before a call runs, its likeness to earlier calls is no stall of its own: two reads of one file that got
 * the same lines, then a third read further on, proposed, is not warned (its outcome is not known yet;
 * recorded, it shows progress). Warned before it runs only when the similar calls that ran already reach
 * the detector's threshold, or failed (a stall of failures is a stall). Both engines.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, liveActions } from './helpers/verdicts.js';

const FILE = '/Users/someone/app/resources/js/types/index.d.ts';
const LINES = 'export interface BusinessProcessActivity {\n  id: number;\n  name: string;\n  lane: string;\n}\n';
const read = (offset: number, result: string): ToolEvent => ({ tool: 'Read', args: { file_path: FILE, offset, limit: 40 }, result });

/** Two reads that got the same lines, then one further on that gets new ones. */
const readingOn: ToolEvent[] = [read(300, LINES), read(310, LINES), read(320, 'export interface Lane {\n  id: number;\n}\n')];
/** Reads further on that keep getting the very same lines. */
const stuck: ToolEvent[] = [300, 310, 320, 330, 340].map((o) => read(o, LINES));

describe.each(ENGINES)('similar calls proposed (%s engine)', (engine) => {
  it('should not warn a proposal whose similar calls that ran are fewer than the threshold', () => {
    expect(liveActions(readingOn, engine, { afterBlock: 'end', labelled: true })).toEqual([]);
  });

  it('should still warn once the similar calls that ran keep getting the same answer', () => {
    expect(liveActions(stuck, engine, { afterBlock: 'end', labelled: true }).length).toBeGreaterThan(0);
  });
});
