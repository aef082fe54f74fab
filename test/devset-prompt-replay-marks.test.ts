/**
 * scripts/devset/prompt-replay.mjs and `loopwatch eval`'s two-phase replay read the same sessions and should
 * give each the same verdict, since both give a fresh start at each prompt the person typed (eval takes the
 * prompts from the readers, TraceCall.prompted; the script from the file itself, session-marks.mjs). They
 * disagreed on three sessions (devset f84b640b, holdout2 0b223d21, holdout7 cdb4be0e: warned by the script
 * with prompts, by neither phase of eval), each one the script replayed without its prompts:
 *
 * - a resumed Claude Code session writes its history into the transcript again (new line uuids, the same
 *   `tool_use` ids): the script counted those copies as calls, the reader (and the hook, which never meets
 *   them) does not, so the file's calls outnumbered the reader's and the prompts were dropped;
 * - a Claude Code 1.0 transcript holds its subagents' lines (`isSidechain`) beside the session's: the reader
 *   gives each subagent a session of its own, and the script dropped the prompts of any file of more than
 *   one session.
 *
 * Each case below is a small session written here: a look repeated once per prompt, which warns only without
 * the prompts' fresh starts. The hook replay (hook-replay.mjs) reads the prompts the same way.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectionOptions } from '../src/cli/detection-options.js';
import { replayTwoPhase } from '../src/eval/two-phase-eval.js';
import type { RunJudge } from '../src/eval/trace-eval.js';
import { scratchDir } from './helpers/trace-files.js';
// @ts-expect-error: a script of the sets, plain JavaScript without types
import { CALL, marksOf, sessionMarks } from '../scripts/devset/session-marks.mjs';
import { startsAfresh } from '../src/text/prompt-origin.js';

const { dir, write } = scratchDir('devset-prompt-replay-marks');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/** Rounds of the repeated look: each after a prompt, the last after the resumed history's copy. */
const ROUNDS = 6;

/**
 * A Claude Code 2.0 transcript of `session`: ROUNDS prompts each followed by the same `vercel ls`, the
 * history written again as a resume writes it (new uuids, the same ids), then one more prompt and look.
 * With `sidechain`, a 1.0-style subagent's lines (`isSidechain`, two calls) after the first round.
 */
function transcript(session: string, opts: { copy: boolean; sidechain: boolean }): string {
  const base = { sessionId: session, version: opts.sidechain ? '1.0.44' : '2.0.28', cwd: '/home/user/project', isSidechain: false, userType: 'external' };
  const lines: Record<string, unknown>[] = [];
  let u = 0;
  const last = { main: null as string | null, side: null as string | null };
  const line = (o: Record<string, unknown>): void => {
    const chain = o.isSidechain === true ? 'side' : 'main';
    const uuid = `${session.slice(0, 4)}-u${u++}`;
    lines.push({ ...base, uuid, parentUuid: last[chain], timestamp: `2025-10-30T20:${String(10 + Math.floor(u / 60)).padStart(2, '0')}:${String(u % 60).padStart(2, '0')}.000Z`, ...o });
    last[chain] = uuid;
  };
  const prompt = (text: string): void => line({ type: 'user', message: { role: 'user', content: text } });
  const call = (n: number, command: string, out: string, extra: Record<string, unknown> = {}): void => {
    line({ type: 'assistant', message: { id: `msg_${session.slice(0, 4)}${n}`, role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${session.slice(0, 4)}${n}`, name: 'Bash', input: { command } }] }, ...extra });
    line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${session.slice(0, 4)}${n}`, content: out }] }, ...extra });
  };
  for (let k = 0; k < ROUNDS; k++) {
    prompt(`please look at the deploy once more, round ${k}`);
    call(k, 'vercel ls --prod', 'No deployments found');
    if (opts.sidechain && k === 0) {
      call(100, 'git log -1', 'commit abc', { isSidechain: true });
      call(101, 'git status', 'clean', { isSidechain: true });
    }
  }
  // the calls and results written again (the prompts are not: the copy hangs under the last one)
  if (opts.copy) for (const o of lines.filter((o) => typeof (o.message as { content: unknown }).content !== 'string')) lines.push({ ...o, uuid: `${session.slice(0, 4)}-c${u++}` });
  prompt('and now the last round');
  call(ROUNDS, 'vercel ls --prod', 'No deployments found');
  return jsonl(lines);
}

/** Writes a one-session set (sessions.jsonl labels `labelled`) holding `text` as `session`'s transcript. */
function set(name: string, session: string, text: string, labelled: readonly string[] = [session]): string {
  write(`${name}/claude-code/p/${session}.jsonl`, text);
  write(`${name}/sessions.jsonl`, jsonl(labelled.map((s) => ({ session: s, exit_status: 'interactive', agent: 'claude-code 2.0.28' }))));
  return join(dir, name);
}

/** prompt-replay.mjs's output for the set in `folder`. */
function promptReplay(folder: string): string {
  const r = spawnSync(process.execPath, [join('scripts', 'devset', 'prompt-replay.mjs'), `${folder}/`], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

/** Whether eval's two-phase replay warns `session` of the set in `folder` (default policy). */
async function evalWarns(folder: string, session: string): Promise<boolean> {
  const judge: RunJudge = () => ({ agent: 'claude-code', family: 'claude-code', exitStatus: 'interactive', loop: false });
  const runs = (await replayTwoPhase([folder], detectionOptions('default', undefined), judge)).runs;
  const run = runs.find((r) => r.session === session);
  expect(run).toBeDefined();
  return run!.warned;
}

describe('prompt-replay.mjs and eval read the same prompts', () => {
  it('should count a call once when a resumed session writes its history again', () => {
    const session = 'aaaa0000-0000-4000-8000-0000000000a1';
    const marks = sessionMarks(transcript(session, { copy: true, sidechain: false }), false, startsAfresh).get(session);
    // ROUNDS + 1 calls, each after its prompt: the copied history's calls are not calls again
    expect(marks.filter((x: unknown) => x === CALL)).toHaveLength(ROUNDS + 1);
    expect(marks.filter((x: unknown) => x !== CALL).every((x: { fresh: boolean }) => x.fresh)).toBe(true);
  });

  it('should replay a resumed session with its prompts, as eval does', async () => {
    const session = 'bbbb0000-0000-4000-8000-0000000000b2';
    const folder = set('resumed', session, transcript(session, { copy: true, sidechain: false }));
    const out = promptReplay(folder);
    expect(out).toMatch(/prompts read for 1 sessions, 0 subagents \(no prompts of their own\), 0 replayed without/);
    expect(out).toMatch(/two-phase, without prompts: warned 100\.0% \(1\)/); // the look repeated does warn without its prompts
    expect(out).toMatch(/two-phase, with prompts: warned 0\.0% \(0\)/);
    expect(await evalWarns(folder, session)).toBe(false);
  });

  it("should replay a session with its prompts beside its subagent's lines, the subagent without", async () => {
    const session = 'cccc0000-0000-4000-8000-0000000000c3';
    const text = transcript(session, { copy: false, sidechain: true });
    const marks = sessionMarks(text, false, startsAfresh);
    expect([...marks.keys()]).toEqual([session]); // the subagent's lines are not the session's
    const sub = `${session}/sidechain-${session.slice(0, 4)}-u3`;
    const folder = set('sidechain', session, text, [session, sub]);
    const out = promptReplay(folder);
    expect(out).toMatch(/prompts read for 1 sessions, 1 subagents \(no prompts of their own\), 0 replayed without/);
    expect(out).toMatch(/two-phase, with prompts: warned 0\.0% \(0\)/);
    expect(await evalWarns(folder, session)).toBe(false);
  });

  it("should replay a session through the hook with its prompts, its subagent's lines first in the file", () => {
    const session = 'eeee0000-0000-4000-8000-0000000000e5';
    // the subagent's lines before any of the session's calls: the hook replay took the file's first session
    const text = transcript(session, { copy: true, sidechain: true });
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const side = lines.filter((l) => l.isSidechain === true);
    const file = write(`hook/claude-code/p/${session}.jsonl`, jsonl([lines[0], ...side, ...lines.slice(1).filter((l) => l.isSidechain !== true)]));
    const r = spawnSync(process.execPath, [join('scripts', 'devset', 'hook-replay.mjs'), file], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(`${session} claude-code ${ROUNDS + 1} prompts, ${ROUNDS + 1} of ${ROUNDS + 1} calls sent: quiet`);
  });

  it('should say why the prompts of a session cannot be placed', () => {
    const session = 'dddd0000-0000-4000-8000-0000000000d4';
    const marks = sessionMarks(transcript(session, { copy: false, sidechain: false }), false, startsAfresh);
    expect(marksOf(marks, session, ROUNDS + 1, 1).marks).toHaveLength(2 * (ROUNDS + 1));
    expect(marksOf(marks, session, ROUNDS + 2, 1)).toEqual({ why: `${ROUNDS + 1} calls in the file, ${ROUNDS + 2} read` });
    expect(marksOf(new Map(), session, 3, 1)).toEqual({ why: 'none of its calls in a form these scripts read' });
    expect(marksOf(null, session, 3, 1)).toEqual({ why: 'the chat is not JSON' });
    // a file of one session whose lines name another: its marks are the file's; of two sessions, not
    expect(marksOf(marks, 'FILE:1', ROUNDS + 1, 1).marks).toBeDefined();
    expect(marksOf(marks, 'FILE:1', ROUNDS + 1, 2).why).toBeDefined();
  });
});
