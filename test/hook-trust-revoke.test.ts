/**
 * Withdrawing an accepted `.loopwatch.json`: `loopwatch hook status` lists the files accepted (when, and
 * whether each still holds the text accepted), and `loopwatch hook trust --revoke FILE` removes every
 * acceptance of one file, so the hooks check the calls without its rules again. On integ (de6f187) status
 * listed none and there was no way to withdraw one but finding its hashed marker by hand. Revoking only
 * narrows: it works from an agent's shell too (no terminal, CLAUDECODE set). The commands run in the test's
 * process (hookVerbInProcess: the project's folder and environment through their io, `trust` told its input
 * is a terminal); hook-trust-by-agent keeps them processes on a terminal, as the person runs them.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { acceptedFolder, acceptedKey, isAccepted } from '../src/hooks/accepted-allowlists.js';
import { AGENT_VARIABLES } from '../src/hooks/agent-caller.js';
import { acceptedPath, projectAllowlist } from '../src/hooks/project-allowlist.js';
import type { CliRun } from './helpers/cli.js';
import { hookVerbInProcess, loadHookVerbs } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

beforeAll(loadHookVerbs, 180_000); // the modules of the commands run here, loaded outside the tests' clocks

/** `loopwatch hook trust ...args` from the person's terminal (input a terminal, no agent's variable), in `cwd`. */
const trustInTerminal = (args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<CliRun> => hookVerbInProcess(['trust', ...args], env, cwd, true);

const V1 = JSON.stringify({ allow: [{ tool: 'Bash', command: '^npm test\\b' }] });
const V2 = JSON.stringify({ allow: [{ tool: 'Bash', command: '^npm run lint\\b' }] });

/** A git project with an allowlist holding V1, a state home of its own, no agent's variable. */
function project(): { cwd: string; file: string; env: NodeJS.ProcessEnv; stateDir: string } {
  const root = tempFolder('trust-revoke');
  const cwd = join(root, 'p');
  mkdirSync(join(cwd, '.git'), { recursive: true });
  const file = join(cwd, '.loopwatch.json');
  writeFileSync(file, V1);
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: join(root, 'xdg') };
  for (const v of AGENT_VARIABLES) delete env[v];
  return { cwd, file, env, stateDir: join(root, 'state') };
}

const status = async (p: { env: NodeJS.ProcessEnv; stateDir: string }): Promise<string> => (await hookVerbInProcess(['status', '--state-dir', p.stateDir], p.env)).stdout;

describe('loopwatch hook status and hook trust --revoke', () => {
  it('should list an accepted file, say when it changed, and revoke every version of it, from an agent too', async () => {
    const p = project();
    expect(await status(p)).not.toContain('accepted .loopwatch.json files');
    expect((await trustInTerminal([p.file], p.env)).code).toBe(0);
    const real = acceptedPath(p.file);
    expect(await status(p)).toMatch(new RegExp(`accepted \\.loopwatch\\.json files .*\\n  ${real.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: accepted \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z, in use \\(the text accepted\\)\\n`));
    writeFileSync(p.file, V2);
    expect(await status(p)).toContain(`${real}: accepted `);
    expect(await status(p)).toContain('changed since: not used until accepted again');
    expect((await trustInTerminal([p.file], p.env)).code).toBe(0); // the second version accepted too
    expect(isAccepted(real, V1, p.env) && isAccepted(real, V2, p.env)).toBe(true);
    // an agent's shell: no terminal, an agent's variable
    const r = await hookVerbInProcess(['trust', '--revoke'], { ...p.env, CLAUDECODE: '1' }, p.cwd);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`loopwatch hook trust --revoke: ${real} is no longer accepted (2 versions revoked): the hooks check the calls without its rules\n`);
    expect(r.code).toBe(0);
    expect(isAccepted(real, V1, p.env) || isAccepted(real, V2, p.env)).toBe(false);
    expect(projectAllowlist(p.cwd, p.stateDir, p.env).rules).toEqual([]);
    expect(await status(p)).not.toContain('accepted .loopwatch.json files');
    const again = await hookVerbInProcess(['trust', '--revoke', p.file], p.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`loopwatch hook trust --revoke: ${real} was not accepted: nothing to revoke\n`);
  }, 60_000);

  it('should revoke a marker from before markers recorded their file (empty), by the file as it is now', async () => {
    const p = project();
    const real = acceptedPath(p.file);
    mkdirSync(acceptedFolder(p.env), { recursive: true });
    writeFileSync(join(acceptedFolder(p.env), acceptedKey(real, V1)), ''); // as integ wrote it
    expect(isAccepted(real, V1, p.env)).toBe(true);
    expect(await status(p)).toContain(`marker ${acceptedKey(real, V1)}: accepted `);
    const r = await hookVerbInProcess(['trust', '--revoke', p.file], p.env);
    expect(r.code).toBe(0);
    expect(isAccepted(real, V1, p.env)).toBe(false);
  }, 30_000);

  it('should show a hand-written marker naming another file as unknown, its text escaped', async () => {
    const p = project();
    mkdirSync(acceptedFolder(p.env), { recursive: true });
    const key = acceptedKey('/elsewhere/.loopwatch.json', V1);
    writeFileSync(join(acceptedFolder(p.env), key), JSON.stringify({ path: `/x\x1b]0;pwned\x07\u202e/.loopwatch.json`, sha256: 'a'.repeat(64), time: '\x1b[2J' }));
    const out = await status(p);
    expect(out).toContain(`marker ${key}: accepted `);
    expect(out).toContain('a marker that does not record its file');
    expect(out).not.toMatch(/[\x1b\x07\u202e]/);
  }, 30_000);

  it('should not count, nor write, markers in a folder others can write to (they could rename one to the name of their file)', async () => {
    const p = project();
    expect((await trustInTerminal([p.file], p.env)).code).toBe(0);
    const real = acceptedPath(p.file);
    expect(isAccepted(real, V1, p.env)).toBe(true);
    chmodSync(acceptedFolder(p.env), 0o777);
    expect(isAccepted(real, V1, p.env)).toBe(false);
    expect(await status(p)).toContain('  none of these counts: the folder others than its owner can write to it (mode 0777)');
    writeFileSync(p.file, V2);
    const r = await trustInTerminal([p.file], p.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/was not accepted: the folder .* is not used: others than its owner can write to it/);
    chmodSync(acceptedFolder(p.env), 0o700);
    expect(isAccepted(real, V2, p.env)).toBe(false);
  }, 30_000);
});
