/**
 * Inspect AI samples logged twice in the JSON form are counted once, as `.eval` ones are
 * (scan-inspect-retry-copies.test.ts): `inspect eval-retry --log-format json` leaves two JSON logs of one
 * task (same `task_id`), the retry holding again the samples the first completed. Hand-written JSON logs of
 * that shape (an errored first attempt, its retry, an unrelated fresh run of the same task, and a `.eval`
 * copy of a JSON log, as `inspect log convert` leaves): each sample is read from the newest complete log, the
 * passed-over count is said on stderr, in the text summary and in `--json`, the same whatever the order,
 * workers or batch size; a JSON file that is no Inspect log is left alone; gzipped logs (`.json.gz`) are
 * compared as plain ones are.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loopwatch, verdictLines } from './helpers/cli.js';
import { scratchDir } from './helpers/trace-files.js';
import { buildZip } from './helpers/zip-builder.js';

const { dir, write } = scratchDir('scan-inspect-json-retry');

const spec = (evalId: string, created: string, taskId = 'FhdYWFJ77GkBBV8uKGRTuQ') => ({ eval_id: evalId, run_id: `run-${evalId}`, created, task: 'guess_number', task_id: taskId, model: 'anthropic/claude-sonnet-4-5' });

/** A sample whose agent ran `cmds` with bash, one per assistant message (each answered). */
const sample = (id: string, cmds: readonly string[]) => ({
  id,
  epoch: 1,
  uuid: `u-${id}-${cmds.join('')}`,
  input: 'Guess the number.',
  messages: [
    { role: 'user', content: 'Guess the number.' },
    ...cmds.flatMap((cmd, i) => [
      { role: 'assistant', content: 'Trying.', tool_calls: [{ id: `c${i}`, function: 'bash', arguments: { cmd }, type: 'function' }] },
      { role: 'tool', tool_call_id: `c${i}`, function: 'bash', content: 'no' },
    ]),
  ],
});

/** A JSON log as Inspect writes it: `version`, `status`, `eval` first, `samples` after. */
const jsonLog = (status: string, evalSpec: Record<string, unknown>, samples: readonly unknown[]) => JSON.stringify({ version: 2, status, eval: evalSpec, plan: {}, results: {}, stats: {}, samples }, null, 2);

const looping = sample('0', ['ls', 'ls', 'ls', 'ls']); // completed in the first attempt, logged again by the retry
const first = write('logs/2025-10-06T10-15-00_guess_AAA.json', jsonLog('error', spec('E1', '2025-10-06T10:15:43+00:00'), [looping, sample('1', ['cat a', 'cat a', 'cat a'])]));
const retry = write('logs/2025-10-06T10-20-00_guess_BBB.json', jsonLog('success', spec('E2', '2025-10-06T10:20:11+00:00'), [looping, sample('1', ['cat b', 'echo 42'])]));
const fresh = write('logs/2025-10-07T09-00-00_guess_CCC.json', jsonLog('success', spec('E3', '2025-10-07T09:00:00+00:00', 'Zq9xTTnRk2bWcd8yQm4eUa'), [sample('0', ['pwd'])]));

/** Each verdict as session, file, index and action. */
const verdicts = (stdout: string) => verdictLines(stdout).map((v) => `${String(v.session)} ${String(v.file)} #${String(v.index)} ${String(v.action)}`);

describe('scan: an Inspect AI sample logged again by a retry in the JSON form is read once', () => {
  it('should read the reused and retried samples from the retry only, the fresh run in full, and say how many it passed over', () => {
    const r = loopwatch(['scan', `${dir}/logs`, '--no-progress']);
    expect(r.stdout).toContain('loopwatch scan: 3 sessions, 7 calls');
    expect(r.stdout).toContain('passed over: 2 Inspect AI samples logged again by a newer log of the same task (eval-retry)');
    expect(r.stderr).toContain(`${first}: 2 Inspect AI samples passed over: logged again by a newer log of the same task (eval-retry, an eval set's retry, or a copy), read from ${retry}`);
    expect(r.code).toBe(1); // the loop breaks; nothing skipped
    const doc = JSON.parse(loopwatch(['scan', `${dir}/logs`, '--json', '--no-progress']).stdout) as { summary: Record<string, unknown> };
    expect(doc.summary.samplesPassedOver).toBe(2);
    expect(doc.summary.sessions).toBe(3);
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

  it('should read a log on standard input as it comes, compared with no other (docs/cli.md says so)', () => {
    const r = loopwatch(['scan', '-', retry, '--no-progress'], readFileSync(first, 'utf8'));
    expect(r.stdout).toContain('loopwatch scan: 4 sessions, 13 calls');
    expect(r.stderr).not.toContain('passed over');
  });

  it('should compare a JSON log with a .eval log of the same task, and leave JSON that is no Inspect log alone', () => {
    const { dir: d2, write: w2 } = scratchDir('scan-inspect-json-and-eval');
    const s = spec('E1', '2025-10-06T10:15:43+00:00');
    const asJson = w2('a.json', jsonLog('success', s, [looping]));
    const asEval = w2(
      'a.eval',
      buildZip([
        { name: '_journal/start.json', data: JSON.stringify({ version: 2, eval: s, plan: {} }) },
        { name: 'samples/0_epoch_1.json', data: JSON.stringify(looping) },
        { name: 'header.json', data: JSON.stringify({ version: 2, status: 'success', eval: s, plan: {}, results: {}, stats: {} }) },
      ]),
    );
    // an OpenAI chat log whose head is no Inspect log's: read in full, never looked at as one
    w2('chat.json', JSON.stringify({ id: 'chat-1', messages: [{ role: 'assistant', content: '', tool_calls: [{ id: 't1', type: 'function', function: { name: 'bash', arguments: '{"cmd":"make"}' } }] }, { role: 'tool', tool_call_id: 't1', content: 'ok' }] }));
    const r = loopwatch(['scan', d2, '--no-progress']);
    expect(r.stdout).toContain('loopwatch scan: 2 sessions, 5 calls');
    // equal standing: the greater path is read (a.json > a.eval)
    expect(r.stderr).toContain(`${asEval}: 1 Inspect AI sample passed over: logged again by a newer log of the same task (eval-retry, an eval set's retry, or a copy), read from ${asJson}`);
  });

  it('should compare gzipped JSON logs (.json.gz) as plain ones, with each other and with plain ones', () => {
    const { dir: d3, write: w3 } = scratchDir('scan-inspect-json-gz');
    const gzFirst = w3('both/a.json.gz', gzipSync(readFileSync(first)));
    const gzRetry = w3('both/b.json.gz', gzipSync(readFileSync(retry)));
    const mixedFirst = w3('mixed/a.json.gz', gzipSync(readFileSync(first)));
    const plainRetry = w3('mixed/b.json', readFileSync(retry));
    for (const [folder, older, newer] of [['both', gzFirst, gzRetry], ['mixed', mixedFirst, plainRetry]] as const) {
      const r = loopwatch(['scan', `${d3}/${folder}`, '--jsonl', '--no-progress']);
      expect(verdicts(r.stdout)).toEqual([2, 3].map((i) => `guess_number/0#1 ${newer} #${i} ${i === 2 ? 'warn' : 'break'}`));
      expect(r.stderr).toContain(`${older}: 2 Inspect AI samples passed over: logged again by a newer log of the same task (eval-retry, an eval set's retry, or a copy), read from ${newer}`);
    }
  });
});
