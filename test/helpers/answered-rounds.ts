/**
 * Sessions of one shape, in turns (prompted-sessions.ts): the agent repeats a round of calls that cannot
 * succeed, and asks at two points of each round; the person either only answers its question ("2", "ok":
 * src/text/prompt-answer.ts) or gives a real new task before each part of the round. The first is a loop
 * that spans the person's prompts (a session of the devset: a branch switch that fails because the
 * agent's own log keeps changing, then add / commit / push of that log, again and again); the second is
 * the person's own work asked for again, and stays quiet.
 */
import type { Turn, TurnCall } from './prompted-sessions.js';

/** Switching back to the main branch fails: the agent's own log under .agent/ changed again. */
export const switchFails: TurnCall = {
  command: 'git switch main',
  result: 'error: Your local changes to the following files would be overwritten by checkout:\n\t.agent/log.jsonl\nPlease commit your changes or stash them before you switch branches.\nAborting',
  failing: true,
};

/** The log added, committed (a new message each round, as the agent wrote them) and pushed. */
export function saveLog(round: number): TurnCall[] {
  return [
    { command: 'git add .agent', result: '', failing: false },
    { command: `git commit -m "chore: keep agent log (${round})"`, result: `[agent-files 4c1d${round}e2] chore: keep agent log (${round})\n 1 file changed, 12 insertions(+)`, failing: false },
    { command: 'git push', result: 'To github.com:dev/app.git\n   2b7e1a0..9f0c3d4  agent-files -> agent-files', failing: false },
  ];
}

/** Rounds of the loop, the person answering the agent's two questions of each round with `answers`. */
export function answeredRounds(rounds: number, answers: readonly [string, string] = ['2', 'ok']): Turn[] {
  const turns: Turn[] = [{ prompt: 'Put the files under .agent/ on a branch of their own and open a pull request.', calls: [{ command: 'git status -sb', result: '## agent-files\n M .agent/log.jsonl', failing: false }, switchFails] }];
  for (let r = 0; r < rounds; r++) turns.push({ prompt: answers[0], calls: saveLog(r) }, { prompt: answers[1], calls: [switchFails] });
  return turns;
}

/** The same calls, the person giving a real new task before each part of each round. */
export function taskedRounds(rounds: number): Turn[] {
  return answeredRounds(rounds).map((t, i) => (i === 0 ? t : { ...t, prompt: i % 2 === 1 ? `Commit the agent log again and push it (round ${i}).` : `Now try to get back to main, as before (round ${i}).` }));
}
