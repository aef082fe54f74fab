/**
 * The agent's own text, as the default policy weighs it, one- and two-phase (each call proposed with its
 * message, then recorded, as a live host and `eval` replay them), both engines: ordinary narration ("Let me
 * read ...") before reads of different files, said turn after turn and given with each call of a turn, and
 * a table in streamed text between sentences that look alike, are no loop. The stuck twin still fires: the
 * same long sentence said turn after turn while the same file is read again and again.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, type Engine, flaggedActions } from './helpers/verdicts.js';

const FILES = ['src/cli/main.ts', 'src/engine/table.ts', 'src/index.ts', 'src/types.ts', 'src/options/options.ts', 'src/policy/ladder.ts', 'src/text/redact.ts', 'src/wasm/load.ts', 'src/formats/codex.ts', 'src/session/stats.ts', 'src/state/call-log.ts', 'src/eval/labels.ts'];
const read = (file: string, text: string, round: number): ToolEvent => ({ tool: 'Read', args: { file_path: file }, result: `1 // ${file}\n2 export const x = 1;`, text, round });

/** One turn a file: "Let me read <file> to see how it works." */
const narrated: ToolEvent[] = FILES.map((f, i) => read(f, `Let me read ${f} to see how it works.`, i));
/** Turns of three parallel reads, each turn's message given with each of its calls. */
const parallel: ToolEvent[] = FILES.map((f, i) => read(f, `Let me read the next few files to understand the ${['engine', 'policy', 'readers', 'options'][Math.floor(i / 3)]} before changing anything.`, Math.floor(i / 3)));

const TABLE = '| file | status | lines |\n|---|---|---|\n| src/a.ts | ok | 120 |\n| src/b.ts | ok | 98 |\n| src/c.ts | changed | 143 |\n| src/d.ts | ok | 77 |\n';
/** Each turn: a summary sentence, a table, and a sentence like the first, before a read of a new file. */
const tables: ToolEvent[] = FILES.slice(0, 8).map((f, i) => read(f, `Here is where the review stands so far:\n\n${TABLE}\nHere is where the review stands after batch ${i + 1}; next I read ${f}.`, i));

const CHANT = 'I need to look at the configuration file again because the path it names cannot be found in the expected location.';
/** The same long sentence said turn after turn while the same file is read again and again. */
const chanted: ToolEvent[] = Array.from({ length: 8 }, (_, i) => read('config/app.yaml', CHANT, i));

/** The actions other than allow when each call is proposed with its whole event (message and turn), then recorded. */
function live(events: readonly ToolEvent[], engine: Engine): string[] {
  const d = new LoopDetector({ engine });
  const out: string[] = [];
  try {
    for (const [i, e] of events.entries()) {
      const p = d.propose({ ...e, id: `c${i}` });
      if (p.action !== 'allow') out.push(p.action);
      if (p.action === 'deny' || p.action === 'stop') break;
      const r = d.record({ ...e, id: `c${i}` });
      if (r.action !== 'allow') out.push(r.action);
    }
  } finally {
    d.dispose();
  }
  return out;
}

/** Verdicts of the default policy on text streamed in pieces (checkText), as actions. */
function streamed(pieces: readonly string[], engine: Engine): string[] {
  const d = new LoopDetector({ engine });
  try {
    return pieces.map((p) => d.checkText(p)?.action ?? '-').filter((a) => a !== '-');
  } finally {
    d.dispose();
  }
}

describe.each(ENGINES)('the agent narrating its work (%s engine)', (engine) => {
  it.each([
    ['"Let me read ..." before a read of each new file', narrated],
    ['one message given with each of three parallel reads, turn after turn', parallel],
    ['a table between sentences that look alike, turn after turn', tables],
  ])('should not flag %s, one- or two-phase', (_name, events) => {
    expect(flaggedActions(events, engine)).toEqual([]);
    expect(live(events, engine)).toEqual([]);
  });

  it('should not flag a table streamed in pieces between sentences that look alike', () => {
    const text = [0, 1, 2, 3].map((k) => `Here is where the review stands so far:\n\n${TABLE}\nHere is where the review stands after batch ${k + 1}.\n\n`).join('');
    expect(streamed(text.match(/[\s\S]{1,40}/g) as string[], engine)).toEqual([]);
  });

  it('should still flag the same long sentence said turn after turn over the same read', () => {
    expect(flaggedActions(chanted, engine)).toContain('break');
    expect(live(chanted, engine)).toContain('deny');
  });
});
