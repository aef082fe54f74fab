/**
 * `loopwatch serve`'s state is private and holds no secret: the folder is made 0700 and each session file
 * 0600; an own folder open to others and holding only session files is made 0700 (and said); a folder of
 * another user, or one others can write that holds other files, is refused (exit 2, naming it); a file in
 * it that the user did not write is never restored. Secrets in a call (an `API_KEY=sk-live-...` command, a
 * `ghp_` token, a password only its key names, every shape redaction knows, in args, description, text,
 * result, error, a waiting proposal, or across the cap of a long value) appear nowhere in the files' bytes. Before: 0755 folder,
 * 0644 files, raw args inside.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NotPrivateError } from '../src/errors.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { stateFileName } from '../src/serve/state-files.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { post } from './helpers/http.js';
import { SECRET_SHAPES, shownPart } from './helpers/secret-shapes.js';

const POSIX = typeof process.getuid === 'function';
const ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});
/** A fresh parent folder (removed after the test) and the state folder's path in it, not made yet. */
function stateDir(): string {
  const parent = mkdtempSync(join(tmpdir(), 'loopwatch-serve-state-'));
  made.push(parent);
  return join(parent, 'state');
}

const mode = (path: string): number => statSync(path).mode & 0o777;

const LIVE_KEY = 'sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';
const GITHUB = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
/** A secret only its key names: the door reads args as JSON text, where the key and the value meet. */
const PASSWORD = 'Tr0ub4dor&3-horse';

describe('loopwatch serve state files', () => {
  it.skipIf(!POSIX)('should be 0600 files in a 0700 folder and hold none of the secrets its calls carried', async () => {
    const dir = stateDir();
    const server = await ServeServer.start({ port: 0, stateDir: dir });
    const long = `${'x'.repeat(16_384 - 20)} ${GITHUB} and more`; // a token across the 16 KiB cap
    const calls = [
      { session: 'deploy', tool: 'bash', args: { command: `API_KEY=${LIVE_KEY} npm run deploy` } },
      { session: 'deploy', tool: 'bash', args: { command: `git push https://${GITHUB}@github.com/acme/app` }, description: `push with ${GITHUB}` },
      { session: 'deploy', tool: 'bash', args: { command: 'env' }, result: `GITHUB_TOKEN=${GITHUB}\nAPI_KEY=${LIVE_KEY}`, text: `I will use ${LIVE_KEY} now.` },
      { session: 'deploy', tool: 'bash', args: { command: 'curl api' }, error: `401 for token ${GITHUB}` },
      { session: 'long', tool: 'write', args: { content: long } },
      { session: 'login', tool: 'http', args: { url: 'https://api.example/login', body: { username: 'bob', password: PASSWORD } } },
      ...SECRET_SHAPES.map((s, i) => ({ session: `shape-${i}`, tool: 'bash', args: { command: `echo ${s.text} done`, [`k${i}`]: [s.text] } })),
    ];
    for (const c of calls) for (let i = 0; i < 3; i++) expect((await post(`${server.url}/v1/check`, c)).status).toBe(200);
    // a proposal still waiting for its record is in the snapshot too
    expect((await post(`${server.url}/v1/propose`, { session: 'waiting', id: 'p1', tool: 'bash', args: { command: `export TOKEN=${GITHUB}` } })).status).toBe(200);
    const report = await server.stop();
    expect(report.failed).toEqual([]);

    expect(mode(dir)).toBe(0o700);
    const files = readdirSync(dir);
    expect(files).toHaveLength(3 + SECRET_SHAPES.length + 1); // deploy, long, login, the shapes, waiting
    for (const f of files) expect(mode(join(dir, f)), f).toBe(0o600);
    const bytes = files.map((f) => readFileSync(join(dir, f)).toString('latin1')).join('\n');
    expect(bytes).toContain('[REDACTED]');
    // no 8 characters in a row of either key, so a key cut in half at the cap is caught too
    for (const secret of [LIVE_KEY, GITHUB, PASSWORD]) expect(shownPart(bytes, { name: secret.slice(0, 4), text: secret, hidden: secret })).toBeNull();
    for (const s of SECRET_SHAPES) expect(shownPart(bytes, s), s.name).toBeNull();
  });

  it.skipIf(!POSIX)('should make an own folder open to others and holding only session files private, and say so', async () => {
    const dir = stateDir();
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, stateFileName('old')), 'not a session');
    const server = await ServeServer.start({ port: 0, stateDir: dir });
    await server.stop();
    expect(mode(dir)).toBe(0o700);
    expect(server.restoreReport.notes).toEqual([`the state folder ${dir} was open to others (mode 0755); it was made private (0700)`]);
    // the file that was not a session is set aside, readable by the user only
    expect(readdirSync(dir)).toEqual([`${stateFileName('old')}.bad`]);
    expect(mode(join(dir, `${stateFileName('old')}.bad`))).toBe(0o600);
  });

  it.skipIf(!POSIX)('should refuse a folder others can write holding other files: start rejects, the CLI exits 2 naming it', async () => {
    const dir = stateDir();
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    await expect(ServeServer.start({ port: 0, stateDir: dir })).rejects.toThrow(NotPrivateError);
    const r = await loopwatchInProcess(['serve', '--port', '0', '--no-token', '--state-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the state folder ${dir}: others than its owner can write to it (mode 0777)`);
    expect(r.stderr).toContain('--no-state');
    expect(mode(dir)).toBe(0o777); // left as it is: not loopwatch's alone
  });

  it.skipIf(!ROOT)('should refuse a folder another user owns', async () => {
    const dir = stateDir();
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, NOBODY, NOBODY);
    await expect(ServeServer.start({ port: 0, stateDir: dir })).rejects.toThrow(/it is owned by uid 65534, not by this user \(uid 0\)/);
  });

  it.skipIf(!POSIX)('should never restore a session file others could write (or, as root, another user\'s), and set it aside', async () => {
    const dir = stateDir();
    // a real session file, made by a server
    const first = await ServeServer.start({ port: 0, stateDir: dir });
    for (let i = 0; i < 2; i++) await post(`${first.url}/v1/check`, { session: 'planted', tool: 'bash', args: { command: 'make' } });
    await first.stop();
    const file = join(dir, stateFileName('planted'));
    chmodSync(file, 0o666);
    if (ROOT) chownSync(file, NOBODY, NOBODY);
    const second = await ServeServer.start({ port: 0, stateDir: dir });
    try {
      expect(second.restoreReport.restored).toBe(0);
      expect(second.restoreReport.problems).toEqual([{ path: `${file}.bad`, problem: expect.stringMatching(/^not read: (it is owned by uid 65534|others than its owner can write to it \(mode 0666\))/) }]);
      expect(second.engine.has('planted')).toBe(false);
    } finally {
      await second.stop();
    }
  });
});
