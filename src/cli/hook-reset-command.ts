/**
 * `loopwatch hook reset [--session ID] [--agent NAME]`: gives sessions of the hooks' state directory a
 * fresh start (LoopDetector.freshStart, src/live/fresh-start.ts), the way back after a stop a person can
 * take without waiting for the agent's next prompt: every session, or the one named (its subagents'
 * sessions, `ID#agent`, too). Each session is changed under its lock, as a hook changes it. A state
 * written under other detection options than the ones given (`--preset`, `--config`: give the installed
 * command's) cannot be read: it is removed, and the session starts over.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SnapshotError } from '../errors.js';
import { AGENTS } from '../hooks/agents.js';
import { AGENT_NAMES, type AgentName } from '../hooks/hook-agent.js';
import { hookDetection } from '../hooks/hook-detection.js';
import { STATE_SUFFIX, SessionFile } from '../hooks/session-file.js';
import { hookStateDir } from '../hooks/state-dir.js';
import { acquireLock } from '../hooks/state-lock.js';
import { LoopDetector } from '../session/loop-detector.js';
import { redactSecrets } from '../text/redact.js';
import { terminalSafe } from '../text/terminal-text.js';
import { detectionOptions } from './detection-options.js';
import { type FlagSpec, choiceFlag, parseFlags, stringOf } from './flags.js';
import type { HookIo } from './hook-io.js';
import { UsageError } from './usage-error.js';
import { cutText } from '../text/shown-text.js';

const RESET_FLAGS: FlagSpec = {
  session: { type: 'string' },
  agent: { type: 'string' },
  'state-dir': { type: 'string' },
  preset: { type: 'string' },
  config: { type: 'string' },
};

/** What happened to one session. */
type Outcome = 'fresh start' | 'started over' | 'locked';

function resetOne(dir: string, agent: AgentName, session: string, detection: ReturnType<typeof detectionOptions>): Outcome {
  const file = new SessionFile(dir, agent, session);
  const release = acquireLock(file.lockPath);
  if (release === null) return 'locked';
  const detector = new LoopDetector(hookDetection(detection, [AGENTS[agent]]), session);
  try {
    const stored = file.load();
    if (stored === null) return 'started over'; // ended meanwhile
    detector.restore(stored.snapshot);
    detector.freshStart();
    // the notes `hook status` shows go on: a fresh start is not a new session
    file.write(detector.snapshot(), stored.meta ?? undefined);
    return 'fresh start';
  } catch (e) {
    if (!(e instanceof SnapshotError)) throw e;
    file.remove();
    return 'started over';
  } finally {
    detector.dispose();
    release();
  }
}

/** `loopwatch hook reset [options]`: resolves to the exit code (1: no session matched). The state folder is found from the io's environment and folder. */
export function hookResetCommand(args: readonly string[], io: Pick<HookIo, 'stdout' | 'env' | 'cwd'>): number {
  const { values: v } = parseFlags(args, RESET_FLAGS, false);
  const only = stringOf(v, 'session');
  if (only === '') throw new UsageError('--session needs a session id');
  const agent = v.agent === undefined ? undefined : choiceFlag('--agent', stringOf(v, 'agent'), 'claude-code', AGENT_NAMES);
  // as `loopwatch hook` takes them: the library's defaults (the shipped default) when neither --preset nor
  // --config is given (the hook does not load the presets then), so a session's state is matched, not removed
  // as written under other options (a state written under the hand-tuned default matches too: legacy-default.ts)
  const preset = stringOf(v, 'preset');
  const config = stringOf(v, 'config');
  const detection = preset === undefined && config === undefined ? {} : detectionOptions(preset, config, io.cwd);
  const dir = hookStateDir(stringOf(v, 'state-dir'), io.env); // as given, in what is printed
  const at = resolve(io.cwd, dir);
  let names: string[];
  try {
    names = readdirSync(at).filter((n) => n.endsWith(STATE_SUFFIX));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new UsageError(`${dir}: cannot be read (${code ?? (e as Error).message})`);
    names = [];
  }
  let out = '';
  let count = 0;
  for (const name of names.sort()) {
    const owner = SessionFile.owner(join(at, name));
    if (owner === null || !(AGENT_NAMES as readonly string[]).includes(owner.agent)) continue;
    if (agent !== undefined && owner.agent !== agent) continue;
    if (only !== undefined && owner.session !== only && !owner.session.startsWith(`${only}#`)) continue;
    const outcome = resetOne(at, owner.agent as AgentName, owner.session, detection);
    count++;
    const why = outcome === 'started over' ? ' (its state was written under other detection options: removed)' : outcome === 'locked' ? ' (a hook held it: try again)' : '';
    // the session id is the agent's: redacted, its control characters as escapes
    out += `  ${outcome.padEnd(12)} ${owner.agent.padEnd(11)} ${terminalSafe(redactSecrets(cutText(owner.session, 200)))}${why}\n`;
  }
  if (count === 0) {
    io.stdout.write(`loopwatch hook reset: no session${only === undefined ? '' : ` ${terminalSafe(JSON.stringify(redactSecrets(cutText(only, 200))))}`}${agent === undefined ? '' : ` of ${agent}`} in ${dir}\n`);
    return 1;
  }
  io.stdout.write(`loopwatch hook reset: ${dir}\n${out}`);
  return 0;
}
