/**
 * Inspect AI samples logged twice are counted once. `inspect eval-retry` writes a new log of the same task
 * (same `task_id`, new `eval_id` and `run_id`) that logs again, unchanged (same `uuid`), the samples the old
 * log completed, beside the ones it runs again; the old log stays beside it. Hand-made `.eval` archives of
 * that shape (an errored first attempt, its retry, and an unrelated fresh run of the same task): scan reads
 * each sample from the newest complete log, says how many it passed over (summary and stderr), and picks the
 * same whatever the order the logs are given in, the worker count or the batch size.
 */
import { describe, expect, it } from 'vitest';
import { type Standing, planSampleCopies } from '../src/formats/inspect-sample-copies.js';
import { loopwatch, verdictLines } from './helpers/cli.js';
import { scratchDir } from './helpers/trace-files.js';
import { buildZip } from './helpers/zip-builder.js';

const { dir, write } = scratchDir('scan-inspect-retry');

const evalSpec = (evalId: string, runId: string, created: string, taskId = 'FhdYWFJ77GkBBV8uKGRTuQ') => ({
  eval_set_id: 'eLdurCNhVzAVG9EJNXf7Em',
  eval_id: evalId,
  run_id: runId,
  created,
  task: 'guess_number',
  task_id: taskId,
  task_version: 0,
  dataset: { samples: 2, sample_ids: ['0', '1'], shuffled: false },
  model: 'anthropic/claude-sonnet-4-5',
  config: { epochs: 1, fail_on_error: true },
});

/** A sample whose agent ran `cmds` with bash, one per assistant message (each answered). */
const sample = (id: string, uuid: string, cmds: readonly string[], error?: string) => JSON.stringify({
  id,
  epoch: 1,
  uuid,
  input: 'Guess the number.',
  target: '42',
  messages: [
    { role: 'user', content: 'Guess the number.' },
    ...cmds.flatMap((cmd, i) => [
      { role: 'assistant', content: [{ type: 'text', text: 'Trying.' }], tool_calls: [{ id: `c${i}`, function: 'bash', arguments: { cmd }, type: 'function' }] },
      { role: 'tool', tool_call_id: `c${i}`, function: 'bash', content: 'no', error: null },
    ]),
  ],
  scores: {},
  metadata: {},
  attachments: {},
  ...(error === undefined ? {} : { error: { message: error, traceback: '' } }),
});

/** An `.eval` archive: the journal's start, the samples, and a header with `status` (none: still `started`). */
const log = (spec: Record<string, unknown>, samples: Record<string, string>, status?: string) =>
  buildZip([
    { name: '_journal/start.json', data: JSON.stringify({ version: 2, eval: spec, plan: {} }) },
    ...Object.entries(samples).map(([name, data]) => ({ name: `samples/${name}_epoch_1.json`, data })),
    ...(status === undefined ? [] : [{ name: 'header.json', data: JSON.stringify({ version: 2, status, eval: spec, plan: {}, results: {}, stats: {} }) }]),
  ]);

const looping = sample('0', 'u-0', ['ls', 'ls', 'ls', 'ls']); // completed in the first attempt, reused by the retry
const first = write('logs/2025-10-06T10-15-00_guess_AAA.eval', log(evalSpec('E1', 'R1', '2025-10-06T10:15:43+00:00'), { 0: looping, 1: sample('1', 'u-1a', ['cat a', 'cat a', 'cat a'], 'RuntimeError: sandbox died') }, 'error'));
const retry = write('logs/2025-10-06T10-20-00_guess_BBB.eval', log(evalSpec('E2', 'R2', '2025-10-06T10:20:11+00:00'), { 0: looping, 1: sample('1', 'u-1b', ['cat b', 'echo 42']) }, 'success'));
// a fresh `inspect eval` of the same task: another task_id, its own runs of the same sample ids
const fresh = write('logs/2025-10-07T09-00-00_guess_CCC.eval', log(evalSpec('E3', 'R3', '2025-10-07T09:00:00+00:00', 'Zq9xTTnRk2bWcd8yQm4eUa'), { 0: sample('0', 'u-0c', ['pwd']) }, 'success'));

/** Each verdict as session, file, index and action. */
const verdicts = (stdout: string) => verdictLines(stdout).map((v) => `${String(v.session)} ${String(v.file)} #${String(v.index)} ${String(v.action)}`);

describe('scan: an Inspect AI sample logged again by a retry is read once', () => {
  it('should read the reused and retried samples from the retry only, the fresh run in full, and say how many it passed over', () => {
    const r = loopwatch(['scan', `${dir}/logs`, '--no-progress']);
    expect(r.stdout).toContain('loopwatch scan: 3 sessions, 7 calls');
    expect(r.stdout).toContain('passed over: 2 Inspect AI samples logged again by a newer log of the same task (eval-retry)');
    expect(r.stderr).toContain(`${first}: 2 Inspect AI samples passed over: logged again by a newer log of the same task (eval-retry, an eval set's retry, or a copy), read from ${retry}`);
    expect(r.stdout).not.toContain('guess_AAA');
    expect(r.code).toBe(1); // the loop breaks; nothing skipped
  });

  it('should keep the same copies whatever the order the logs are given in, the worker count and the batch size', () => {
    const runs = [
      [first, retry, fresh],
      [fresh, retry, first],
      [retry, first, fresh, '--workers', '2', '--batch-size', '1'],
      [`${dir}/logs`, '--workers', '2'],
    ].map((args) => loopwatch(['scan', ...args, '--jsonl', '--no-progress']));
    const expected = [2, 3].map((i) => `guess_number/0#1 ${retry} #${i} ${i === 2 ? 'warn' : 'break'}`);
    for (const r of runs) expect(verdicts(r.stdout)).toEqual(expected);
    expect(runs.map((r) => r.stderr.match(/passed over/g)?.length)).toEqual([1, 1, 1, 1]);
  });

  it('should prefer a complete log to a newer one still started, and leave logs of other tasks alone', () => {
    const { dir: d2, write: w2 } = scratchDir('scan-inspect-retry-started');
    const done = w2('a.eval', log(evalSpec('E1', 'R1', '2025-10-06T10:15:43+00:00'), { 0: looping }, 'success'));
    const started = w2('b.eval', log(evalSpec('E2', 'R2', '2025-10-06T11:00:00+00:00'), { 0: sample('0', 'u-0', ['ls', 'ls']) }));
    const r = loopwatch(['scan', d2, '--jsonl', '--no-progress']);
    expect(verdicts(r.stdout)).toEqual([2, 3].map((i) => `guess_number/0#1 ${done} #${i} ${i === 2 ? 'warn' : 'break'}`));
    expect(r.stderr).toContain(`${started}: 1 Inspect AI sample passed over`);
    const alone = loopwatch(['scan', first, fresh, '--no-progress']);
    expect(alone.stdout).toContain('3 sessions, 8 calls');
    expect(alone.stdout).not.toContain('passed over');
  });
});

describe('planSampleCopies: the samples remembered are capped', () => {
  const standing = (file: string, created: number, samples: readonly string[]): Standing => ({ file, task: 't', complete: true, created, samples });
  const logs = new Map([
    ['a.eval', standing('a.eval', 1, ['samples/1_epoch_1.json', 'samples/2_epoch_1.json'])],
    ['b.eval', standing('b.eval', 2, ['samples/1_epoch_1.json', 'samples/2_epoch_1.json'])],
    ['c.eval', standing('c.eval', 3, ['samples/1_epoch_1.json'])],
  ]);
  const read = (f: string) => logs.get(f) ?? null;

  it('should pass over the older copies within the cap and name the log where it stopped looking', () => {
    const all = planSampleCopies(['c.eval', 'a.eval', 'b.eval'], 1024, 100, read);
    expect([...all.passOver].map(([f, p]) => [f, [...p.entries], p.keptIn])).toEqual([
      ['a.eval', ['samples/1_epoch_1.json', 'samples/2_epoch_1.json'], 'c.eval'],
      ['b.eval', ['samples/1_epoch_1.json'], 'c.eval'], // its sample 2 is the newest copy
    ]);
    expect(all.capped).toBeNull();
    const capped = planSampleCopies(['a.eval', 'b.eval', 'c.eval'], 1024, 4, read);
    expect([...capped.passOver].map(([f, p]) => [f, [...p.entries]])).toEqual([['a.eval', ['samples/1_epoch_1.json', 'samples/2_epoch_1.json']]]);
    expect(capped.capped?.file).toBe('c.eval');
    expect(capped.capped?.message).toContain('more than 4 Inspect AI samples');
  });
});
