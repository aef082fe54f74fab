/**
 * What a client can make `loopwatch serve` read as an agent's transcript (src/hooks/transcript-open.ts):
 * a regular `*.jsonl` file that is no symbolic link, has one name, and is serve's user's own or readable by
 * anyone. Before, only the name in the payload was checked: `t.jsonl`, a link to any file serve's user can
 * read (or a hard link beside it, or a file of another user that only serve's rights reach, when serve runs
 * as root or a service account), was read and its lines searched for the payload's ids. Through the real
 * process: the transcript of test/helpers/transcript-turns.ts, read as a transcript, makes serve warn about
 * the third turn and deny none of its calls; not read, serve denies one (each call its own turn).
 */
import { chmodSync, chownSync, linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolloutExitCode } from '../src/hooks/codex-exit-code.js';
import { missedResponses } from '../src/hooks/codex-missed-outcomes.js';
import { CLI } from './helpers/cli.js';
import { startServe, type ServeProcess } from './helpers/serve-process.js';
import { tempFolder } from './helpers/temp-folder.js';
import { replay } from './helpers/transcript-turns.js';

const ROOT = process.getuid?.() === 0; // only root can make a file of another user
const NEIGHBOUR = 54321;

let serve: ServeProcess;
beforeAll(async () => {
  serve = await startServe(['--port', '0', '--no-token', '--no-state'], CLI);
});
afterAll(() => {
  serve.child.kill('SIGKILL');
});

let sessions = 0;
/** A sender of one session's Claude Code payloads to the server, naming `transcript` (or the replay's own path). */
function post(transcript?: string): (payload: unknown) => Promise<string> {
  const session = `links-${++sessions}`;
  return async (payload) => {
    const p = payload as Record<string, unknown>;
    const body = JSON.stringify({ ...p, session_id: session, ...(transcript === undefined ? {} : { transcript_path: transcript }) });
    const res = await fetch(`${serve.url}/v1/hooks/claude-code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.headers.get('loopwatch-unchecked')).toBeNull();
    return res.text();
  };
}

/** A folder whose `s.jsonl` the replay writes, made empty beforehand (so links to it can be made first). */
function transcriptFolder(prefix: string): { dir: string; file: string } {
  const dir = tempFolder(prefix);
  const file = join(dir, 's.jsonl');
  writeFileSync(file, '');
  return { dir, file };
}

describe('serve reads a transcript that is plainly one', () => {
  it('should read a regular .jsonl file of its own user (the turns known: no deny)', async () => {
    const { dir } = transcriptFolder('serve-links-own');
    expect(await replay(dir, true, post())).not.toContain('deny');
  });

  it.skipIf(!ROOT)("should read another user's transcript that anyone may read", async () => {
    const { dir, file } = transcriptFolder('serve-links-shared');
    chownSync(file, NEIGHBOUR, NEIGHBOUR);
    chmodSync(file, 0o644);
    expect(await replay(dir, true, post())).not.toContain('deny');
  });
});

describe('serve reads nothing passed off as a transcript', () => {
  it('should not follow a symbolic link named .jsonl (to a file of another name)', async () => {
    // the payloads name s.jsonl, a link to the file holding the calls, named as no transcript is
    const dir = tempFolder('serve-links-symlink');
    mkdirSync(join(dir, '.ssh'));
    const target = join(dir, '.ssh', 'id_rsa');
    writeFileSync(target, '');
    symlinkSync(target, join(dir, 's.jsonl'));
    expect(await replay(dir, true, post())).toContain('deny'); // no turn read
  });

  it('should not read a transcript through a link, even to a .jsonl file', async () => {
    const { dir, file } = transcriptFolder('serve-links-jsonl');
    const link = join(tempFolder('serve-links-elsewhere'), 'x.jsonl');
    symlinkSync(file, link);
    expect(await replay(dir, true, post(link))).toContain('deny');
  });

  it('should not read a file with a second name (a hard link planted beside it)', async () => {
    const { dir, file } = transcriptFolder('serve-links-hard');
    linkSync(file, join(tempFolder('serve-links-hard-other'), 'h.jsonl'));
    expect(await replay(dir, true, post())).toContain('deny');
  });

  it.skipIf(!ROOT)("should not read another user's transcript only serve's rights reach (0600)", async () => {
    const { dir, file } = transcriptFolder('serve-links-theirs');
    chownSync(file, NEIGHBOUR, NEIGHBOUR);
    chmodSync(file, 0o600);
    expect(await replay(dir, true, post())).toContain('deny');
  });
});

describe("serve's rule holds for every read of a Codex rollout, not only the turn's", () => {
  const line = (v: unknown): string => `${JSON.stringify(v)}\n`;
  /** A rollout where call_1 ended with exit code 1 and was answered, and a link to it named as a rollout. */
  function rolloutAndLink(): { rollout: string; link: string } {
    const dir = tempFolder('serve-links-codex');
    const rollout = join(dir, 'rollout.jsonl');
    writeFileSync(
      rollout,
      line({ type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"false"}', call_id: 'call_1' } }) +
        line({ type: 'event_msg', payload: { type: 'item_completed', item: { type: 'CommandExecution', id: 'call_1', status: 'failed', exit_code: 1 } } }) +
        line({ type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_1', output: 'Process exited with code 1\nOutput:\n' } }),
    );
    const link = join(dir, 'link.jsonl');
    symlinkSync(rollout, link);
    return { rollout, link };
  }

  it("should read the exit code (Codex's PostToolUse) through no link", () => {
    const { rollout, link } = rolloutAndLink();
    expect(rolloutExitCode({ transcript_path: rollout, tool_use_id: 'call_1' }, 'served')).toBe(1);
    expect(rolloutExitCode({ transcript_path: link, tool_use_id: 'call_1' }, 'agent')).toBe(1); // the hook follows it
    expect(rolloutExitCode({ transcript_path: link, tool_use_id: 'call_1' }, 'served')).toBeUndefined();
  });

  it('should read the outcomes Codex never sent through no link', () => {
    const { rollout, link } = rolloutAndLink();
    const waiting = [{ id: 'call_1', tool: 'exec_command' }];
    expect(missedResponses({ transcript_path: rollout }, waiting, 'served')).toHaveLength(1);
    expect(missedResponses({ transcript_path: link }, waiting, 'agent')).toHaveLength(1);
    expect(missedResponses({ transcript_path: link }, waiting, 'served')).toHaveLength(0);
  });
});
