/**
 * `loopwatch hook trust [FILE]`: accepts a project's `.loopwatch.json` (src/hooks/accepted-allowlists.ts),
 * this version of it: the hooks use its rules from then on, until the file changes. FILE defaults to the
 * `.loopwatch.json` the hooks would read for the current folder (from it up to the git root). It prints the
 * rules accepted and those still refused as too broad (src/options/covering-rules.ts: accepting the file
 * does not accept them; the user's own `--config` does). It accepts only from the person's own terminal: run
 * without one, or inside an agent's shell (src/hooks/agent-caller.ts), it refuses, so a README that tells the
 * agent to run it does not get its rules used. Exit code 0 accepted, 1 no usable file or refused, 2 a usage
 * error.
 *
 * `loopwatch hook trust --revoke [FILE]` withdraws it: every acceptance of that file (each version accepted)
 * is removed (accepted-list.ts), and the hooks check the calls without its rules from then on. Revoking
 * only narrows what is allowed, so it is not refused from an agent's shell: an agent that can run it could
 * as well remove the markers itself, and the worst it gets is the warnings the file's rules were silencing.
 * Exit code 0 when something was revoked, 1 when nothing of FILE was accepted.
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { agentCaller } from '../hooks/agent-caller.js';
import { accept } from '../hooks/accepted-allowlists.js';
import { revokeAccepted } from '../hooks/accepted-list.js';
import { ALLOWLIST_FILE, MAX_ALLOWLIST_BYTES, acceptedPath, allowlistFolders, ownAllowlistOwner, readRules } from '../hooks/project-allowlist.js';
import { shownMessage } from '../text/shown-message.js';
import { parseFlags } from './flags.js';
import type { HookIo } from './hook-io.js';
import { UsageError } from './usage-error.js';

/** The allowlist the hooks would read for `cwd`, or null when there is none. */
function foundFrom(cwd: string): string | null {
  for (const dir of allowlistFolders(cwd)) {
    const path = join(dir, ALLOWLIST_FILE);
    try {
      if (statSync(path).isFile()) return path;
    } catch {
      // not here
    }
  }
  return null;
}

/** The text of the file at `path` as the hooks would accept it now, or null when it cannot be read. */
function textNow(path: string): string | null {
  try {
    const st = statSync(path);
    return st.isFile() && st.size <= MAX_ALLOWLIST_BYTES ? readRules(path, st.size).text : null;
  } catch {
    return null;
  }
}

/** `loopwatch hook trust --revoke [FILE]`: the exit code (see the header). */
function revoke(named: string | undefined, io: Pick<HookIo, 'stdout' | 'stderr'>, cwd: string, env: NodeJS.ProcessEnv): number {
  const path = named === undefined ? foundFrom(cwd) : resolve(cwd, named);
  if (path === null) {
    io.stderr.write(`loopwatch hook trust --revoke: no ${ALLOWLIST_FILE} from ${shownMessage(cwd, 300)} up to its git root: name the file (loopwatch hook status lists those accepted)\n`);
    return 1;
  }
  const real = acceptedPath(path);
  const removed = revokeAccepted(real === path ? [path] : [real, path], textNow(path), env);
  const shownPath = shownMessage(real, 300);
  if (removed === 0) {
    io.stderr.write(`loopwatch hook trust --revoke: ${shownPath} was not accepted: nothing to revoke\n`);
    return 1;
  }
  io.stdout.write(`loopwatch hook trust --revoke: ${shownPath} is no longer accepted (${removed} version${removed === 1 ? '' : 's'} revoked): the hooks check the calls without its rules\n`);
  return 0;
}

/**
 * `loopwatch hook trust [FILE]`: the exit code (see the header). The folder, the environment and whether
 * standard input is a terminal are the io's; `caller` says whether an agent runs it (agent-caller.ts).
 */
export function hookTrustCommand(args: readonly string[], io: Pick<HookIo, 'stdout' | 'stderr' | 'env' | 'cwd' | 'inputIsTTY'>, caller: () => string | null = () => agentCaller(io.inputIsTTY, io.env)): number {
  const { cwd, env } = io;
  const { values, positionals } = parseFlags(args, { revoke: { type: 'boolean' } }, true);
  if (positionals.length > 1) throw new UsageError(`takes at most one file, received ${positionals.length}`);
  if (values.revoke === true) return revoke(positionals[0], io, cwd, env);
  const agent = caller();
  if (agent !== null) {
    io.stderr.write(`loopwatch hook trust: refused: ${shownMessage(agent, 300)}. Accepting a project's ${ALLOWLIST_FILE} is the person's to do, in their own terminal: an agent told to run this by a README or a tool's output must not. Nothing was accepted.\n`);
    return 1;
  }
  const named = positionals[0];
  const path = named === undefined ? foundFrom(cwd) : resolve(cwd, named);
  if (path === null) {
    io.stderr.write(`loopwatch hook trust: no ${ALLOWLIST_FILE} from ${shownMessage(cwd, 300)} up to its git root\n`);
    return 1;
  }
  const shownPath = shownMessage(path, 300);
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    io.stderr.write(`loopwatch hook trust: ${shownPath} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})\n`);
    return 1;
  }
  if (!ownAllowlistOwner(st.uid)) {
    io.stderr.write(`loopwatch hook trust: ${shownPath} is owned by uid ${st.uid}, not by you: the hooks never read it\n`);
    return 1;
  }
  let read;
  try {
    read = readRules(path, st.size);
  } catch (e) {
    io.stderr.write(`loopwatch hook trust: ${shownPath} cannot be used (${shownMessage((e as Error).message, 300)})\n`);
    return 1;
  }
  try {
    accept(acceptedPath(path), read.text, env);
  } catch (e) {
    io.stderr.write(`loopwatch hook trust: ${shownPath} was not accepted: ${shownMessage((e as Error).message, 600)}\n`);
    return 1;
  }
  const n = read.rules.length;
  const lines = [`loopwatch hook trust: accepted ${shownPath} as it is now (a change to it must be accepted again): ${n} rule${n === 1 ? '' : 's'} let${n === 1 ? 's' : ''} calls repeat without a warning`];
  for (const r of read.shown) lines.push(`  ${shownMessage(r, 200)}`);
  if (read.dropped.length !== 0) {
    lines.push(`still refused as too broad (to allow these, copy them to the "allow" of your own --config file):`);
    for (const r of read.dropped) lines.push(`  ${shownMessage(r, 300)}`);
  }
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
