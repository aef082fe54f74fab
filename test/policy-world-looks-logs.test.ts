/**
 * A running job's output is a look at the world (world-look.ts), as `docker ps` or `gh run list` are (quiet27):
 * a container's or pod's logs (`docker logs`, `docker compose logs`, `kubectl logs`), a CI run watched (`gh run
 * watch`), the system's journal (`journalctl`), the end of a log file a job writes (`tail -n 20 logs/train.log`).
 * Looked at again after the agent waited, it sees a state time moved on: spaced by waits, the looks are work.
 * Looked at past POLL_LIMIT waits with nothing changing, or again and again with no wait between, it is still a
 * loop. `tail` of a file that is no log (the agent's code) is a read, as before, and `journalctl`'s flags that
 * change the journal are no look.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { POLL_LIMIT } from '../src/policy/evidence-screen.js';
import { queriesStatus } from '../src/text/status-query.js';
import { ENGINES, flaggedActions } from './helpers/verdicts.js';

describe('a look at a running job read from the command', () => {
  it("should read a container's, a pod's, a CI run's, the journal's or a log file's latest lines as a status query", () => {
    for (const c of [
      'docker logs api --tail 50',
      'docker logs -f --since 5m worker 2>&1 | tail -n 20',
      'docker compose logs --tail 100 worker',
      'docker compose -f deploy/compose.yml logs db',
      'docker container logs web',
      'kubectl logs job/train -n ml --tail=20',
      'kubectl -n ml logs pod/trainer-0',
      'gh run watch 123 --exit-status',
      'journalctl -u app.service -n 50 --no-pager',
      'journalctl',
      'tail -n 40 logs/train.log',
      'tail -n 20 /tmp/build.log',
      'tail -5 nohup.out',
      "tail -n 30 'runs/exp1/log/events.txt'",
      'cd /srv/app && tail -n 20 server.log.1',
    ]) {
      expect(queriesStatus(c), c).toBe(true);
    }
  });

  it('should not read a tail of the agent\'s own files, a change of the journal or a chain as one', () => {
    for (const c of ['tail -n 40 src/app.ts', 'tail -n 5 catalog.md', 'tail -n 5 blog/post.md', 'journalctl --vacuum-time=2d', 'journalctl --rotate', 'docker logs api && docker restart api', 'kubectl delete pod trainer-0', 'gh run rerun 123', 'tail -n 20 logs/train.log; rm -rf logs']) {
      expect(queriesStatus(c), c).toBe(false);
    }
  });
});

const edit = (n: number): ToolEvent => ({ tool: 'Edit', args: { file_path: `/app/src/route${n}.ts`, old_string: `v${n}`, new_string: `w${n}` }, result: `The file /app/src/route${n}.ts has been updated successfully.` });
/** A look at a running service's output, the same answer each time (it started and serves). */
const look = (command: string): ToolEvent => ({ tool: 'Bash', args: { command }, result: 'listening on :8080\nGET /health 200' });
const LOOKS = ['docker compose logs --tail 20 api', 'kubectl logs deploy/api -n dev --tail=20', 'journalctl -u api -n 20 --no-pager', 'tail -n 20 logs/api.log'];

/** Codex waiting on a CI run's watcher (an empty `write_stdin`), then asking again. */
const wait = (n: number): ToolEvent => ({ tool: 'write_stdin', args: { session_id: 77, chars: '', yield_time_ms: 30000 }, result: `Process running with session ID 77\nOutput:\n[${n}/40] running` });
const watch = (n: number): ToolEvent => ({ tool: 'exec_command', args: { cmd: 'gh run watch 4242 --exit-status' }, result: `Refreshing run status every 3 seconds.\n* build (${n} of 6 steps)` });
const watchWhileWaiting: ToolEvent[] = [1, 2, 3, 4, 5, 6].flatMap((n) => [wait(n), watch(n % 2)]);

/** The service's logs looked at after each wait, the same answer, past POLL_LIMIT waits. */
const pause: ToolEvent = { tool: 'exec_command', args: { cmd: 'sleep 60' }, result: '' };
const logsForever: ToolEvent[] = Array.from({ length: POLL_LIMIT + 8 }, () => [pause, look(LOOKS[0] as string)]).flat();

/** The logs looked at again and again, nothing done and no wait between. */
const logsHammered: ToolEvent[] = [edit(1), ...Array.from({ length: 12 }, () => look(LOOKS[1] as string))];

describe.each(ENGINES)('looks at a running job (%s engine)', (engine) => {
  it.each(LOOKS)('should not warn at `%s` looked at after each edit of the service', (command) => {
    expect(flaggedActions([1, 2, 3, 4, 5, 6].flatMap((n) => [edit(n), look(command)]), engine)).toEqual([]);
  });

  it('should not warn at a CI run watched again after each wait on it', () => {
    expect(flaggedActions(watchWhileWaiting, engine)).toEqual([]);
  });

  it("should still warn at a service's logs looked at past POLL_LIMIT waits with nothing changing", () => {
    expect(flaggedActions(logsForever, engine)).toContain('warn');
  });

  it('should still warn at logs looked at again and again with no wait between', () => {
    expect(flaggedActions(logsHammered, engine)).toContain('warn');
  });
});
