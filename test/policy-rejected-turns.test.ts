/**
 * A turn the harness rejected is never broken: the model's answer held no action the harness could read
 * (two commands where one is allowed, text that does not parse as a call), so nothing ran, and the
 * harness's own answer corrects the model (and its own limits end a run that does not recover).
 * Such rejections, recurring between real work or in bursts, are warned about; a run whose model slipped
 * in form is not stopped. The twin still breaks: a real command failing the same way again and again.
 * Both engines, one- and two-phase; the recogniser's words, and ordinary errors it must not take for one.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { isTurnRejection } from '../src/text/turn-rejection.js';
import { ENGINES, type Engine, actionsOf, verdictsOf, liveActions } from './helpers/verdicts.js';

const rejected = (n: number): ToolEvent => ({ tool: '_format_error', args: { n_blocks: n }, error: `Please always provide EXACTLY ONE action in triple backticks, found ${n} actions.\n\nPlease format your action in triple backticks.` });
const work = (i: number): ToolEvent => ({ tool: 'bash', args: { command: `sed -n '${i * 10},${i * 10 + 9}p' src/module.py` }, result: `line ${i} of the module` });

/** Bursts of rejected turns (4, 3, then 2 and 2 spread), real work between: the model recovers each time. */
const bursts: ToolEvent[] = [
  work(1), rejected(2), rejected(3), rejected(2), rejected(2), work(2), work(3),
  rejected(2), rejected(4), rejected(3), work(4), work(5), rejected(2), work(6), rejected(2), work(7), work(8), rejected(2), work(9),
];

/** A burst of rejected turns, each with other args (2, 3, ... actions found), then real work. */
const burst: ToolEvent[] = [work(1), ...[2, 3, 4, 5, 6, 7, 8].map(rejected), work(2)];

/** The same real command failing the same way, again and again (the stuck twin). */
const failing: ToolEvent[] = Array.from({ length: 9 }, () => ({ tool: 'bash', args: { command: 'python setup.py build' }, error: '[exit 1] error: command gcc failed' }));

const actions = (events: readonly ToolEvent[], engine: Engine): string[] => actionsOf(verdictsOf(events, { engine })).filter((a) => a !== '-');
const blocks = (events: readonly ToolEvent[], engine: Engine): string[] => liveActions(events, engine, { afterBlock: 'end' }).filter((a) => a === 'deny' || a === 'stop');

describe.each(ENGINES)('turns the harness rejected (%s engine)', (engine) => {
  it('should warn, never break, rejected turns recurring in bursts between real work', () => {
    const one = actions(bursts, engine);
    expect(one).toContain('warn');
    expect(one).not.toContain('break');
    expect(blocks(bursts, engine)).toEqual([]);
    expect(liveActions(bursts, engine, { afterBlock: 'end' })).toContain('warn');
  });

  it('should warn, never block, a burst of rejected turns each of other args', () => {
    expect(actions(burst, engine)).toContain('warn');
    expect(actions(burst, engine)).not.toContain('break');
    expect(blocks(burst, engine)).toEqual([]);
  });

  it('should still break a real command failing the same way again and again', () => {
    expect(actions(failing, engine)).toContain('break');
    expect(blocks(failing, engine).length).toBeGreaterThan(0);
  });
});

describe('isTurnRejection', () => {
  it('should know the words harnesses reject a turn with', () => {
    for (const text of [
      'Please always provide EXACTLY ONE action in triple backticks, found 2 actions.',
      'Your output was not formatted correctly. You must always include one discussion and one command as part of your response.',
      'Your last output did not use any tool calls!\nPlease make sure your output includes exactly _ONE_ function call!',
      'Could not parse LLM output: `I should look this up`',
      "Invalid Format: Missing 'Action:' after 'Thought:'",
      'No valid action found in your response. Respond with one tool call.',
    ]) expect(isTurnRejection(text), text).toBe(true);
  });

  it('should not take an ordinary failure for one', () => {
    for (const text of [
      '[exit 1] SyntaxError: invalid syntax',
      'ERROR: Parameter `old_str` is required for command: str_replace.',
      'json.decoder.JSONDecodeError: could not parse the config file',
      'error: expected exactly one argument, found 2',
      'Failed to edit, 0 occurrences found for old_string in ci-cd.yml',
    ]) expect(isTurnRejection(text), text).toBe(false);
  });
});
