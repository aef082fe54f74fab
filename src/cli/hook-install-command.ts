/**
 * `loopwatch hook install|uninstall --agent NAME [--user | --project]`: merges loopwatch's hook entries
 * into the agent's settings file (src/hooks/install-targets.ts says which file and which events), or takes
 * them out, and says what changed. A file it cannot read as JSON, or whose `hooks` has another shape, is
 * left as it is (exit code 2).
 *
 * The installed command is `/usr/bin/env -u NODE_OPTIONS ... <node> <this package>/dist/hook/hook-main.cjs
 * --agent NAME ...` (`loopwatch hook` without the CLI around it, see hook-main.ts): absolute paths, so it
 * runs whatever the agent's PATH (which a project can set: start-environment.ts) and working directory,
 * without the variables Node acts on as it starts (NODE_OPTIONS, OPENSSL_CONF, ...: the agent's environment
 * may be the project's), and without npx (whose start alone costs several times a hook's budget). Moving or
 * upgrading Node or loopwatch: install again (it replaces its entries, an older line included).
 *
 * Install also asks the agent its version (`claude --version`, ...: agent-cli-version.ts), says what that
 * version can take (a warning before a call; hooks without a setting), and writes it into the command
 * (`--agent-version`), for the hook to use when a session's transcript does not say it.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { AGENT_NAMES, type AgentName } from '../hooks/hook-agent.js';
import { AGENTS } from '../hooks/agents.js';
import { cliVersion, versionNotes } from '../hooks/agent-cli-version.js';
import { versionIn } from '../hooks/agent-versions.js';
import { type InstallScope, type InstallTarget, installTarget } from '../hooks/install-targets.js';
import { startPrefix } from '../hooks/start-environment.js';
import { shellQuote } from '../text/shell-quote.js';
import { SettingsParseError, editableText, fileText, indentUnit, outsideProject, ownBackups, readSettings, writeSettings } from '../hooks/settings-file.js';
import { type EventChange, type MergeResult, hooksValue, mergeHooks, unmergeHooks } from '../hooks/settings-merge.js';
import { writeUninstalled } from '../hooks/settings-restore.js';
import { detectionOptions } from './detection-options.js';
import { type FlagSpec, type ParsedFlags, choiceFlag, parseFlags, stringOf } from './flags.js';
import type { CommandContext } from './command-context.js';
import type { HookIo } from './hook-io.js';
import { UsageError } from './usage-error.js';
import { terminalSafe } from '../text/terminal-text.js';

const INSTALL_FLAGS: FlagSpec = {
  agent: { type: 'string' },
  user: { type: 'boolean' },
  project: { type: 'boolean' },
  'state-dir': { type: 'string' },
  'fail-closed': { type: 'boolean' },
  preset: { type: 'string' },
  config: { type: 'string' },
  'agent-version': { type: 'string' },
  log: { type: 'string' },
};

/**
 * The script an agent's hook runs, as arguments after `node`: the hook's own entry (dist/hook/hook-main.cjs,
 * the fastest start), else the CLI's (`main.js hook`, in a checkout that was not built with npm run build).
 */
function hookEntry(script: string): string[] {
  const self = realpathSync(script);
  if (self.endsWith('hook-main.cjs')) return [self];
  const direct = resolve(dirname(self), '..', '..', 'hook', 'hook-main.cjs');
  return existsSync(direct) ? [direct] : [self, 'hook'];
}

/**
 * The command line an agent runs for `agent`, with the hook options given to install (relative paths made
 * absolute from `cwd`) and the agent's version; `script`: the one install runs as (its hook entry is beside it).
 */
export function hookCommandLine(agent: AgentName, v: ParsedFlags['values'], { cwd, script }: Pick<CommandContext, 'cwd' | 'script'>, agentVersion?: string): string {
  const parts = [...startPrefix(), process.execPath, ...hookEntry(script), '--agent', agent];
  const stateDir = stringOf(v, 'state-dir');
  if (stateDir !== undefined) parts.push('--state-dir', isAbsolute(stateDir) ? stateDir : resolve(cwd, stateDir));
  if (v['fail-closed'] === true) parts.push('--fail-closed');
  const log = stringOf(v, 'log');
  if (log !== undefined) parts.push('--log', resolve(cwd, log));
  const preset = stringOf(v, 'preset');
  if (preset !== undefined) parts.push('--preset', preset);
  const config = stringOf(v, 'config');
  if (config !== undefined) parts.push('--config', resolve(cwd, config));
  if (agentVersion !== undefined) parts.push('--agent-version', agentVersion);
  return parts.map(shellQuote).join(' ');
}

/** Said by an install whose command cannot clear Node's start variables (Windows, or no `env` at /usr/bin or /bin). */
const WINDOWS_NOTE = 'the command runs Node with the agent\'s environment as it is: NODE_OPTIONS, OPENSSL_CONF and the like there (a project\'s settings can set them) act before loopwatch starts (docs/hooks.md, "What a project\'s environment can do")';

/** How to get a lasting copy of loopwatch (it is not on the npm registry yet): from a clone. */
const LASTING_COPY = 'from a clone of loopwatch: npm ci && npm run build && npm install -g . (or npm pack, then npm install -g ./loopwatch-<version>.tgz)';

/**
 * What to know about where the installed command runs from (`self`: this CLI's real path): npx's cache,
 * which npm may clear; or a checkout (`npm install -g .` links one), which the agent then runs on every
 * call; null for an installed copy (inside a node_modules folder).
 */
function whereNote(self: string): string | null {
  if (/[/\\]_npx[/\\]/.test(self)) return `this loopwatch runs from npx's cache, which npm may clear: install a lasting copy (${LASTING_COPY}) and run install from there`;
  const at = Math.max(self.lastIndexOf('/dist/'), self.lastIndexOf('\\dist\\'));
  const root = at < 0 ? dirname(self) : self.slice(0, at);
  if (root.split(/[/\\]/).includes('node_modules')) return null;
  return `this loopwatch runs from ${root}, a checkout (npm install -g . links one): the agent runs it from there on every call, so keep it, and run npm run build after changing it`;
}

/** The settings as they were before loopwatch's first install (its oldest backup), when there is one. */
function settingsBefore(path: string): Record<string, unknown> | undefined {
  const [oldest] = ownBackups(path);
  try {
    return oldest === undefined ? undefined : readSettings(oldest).settings;
  } catch {
    return undefined;
  }
}

function describeChange(c: EventChange, matcher: string | undefined): string {
  return `  ${c.change.padEnd(10)} ${c.event}${matcher === undefined ? '' : ` (matcher ${JSON.stringify(matcher)})`}\n`;
}

/** `loopwatch hook install|uninstall [options]`: resolves to the exit code. */
export async function hookInstallCommand(verb: 'install' | 'uninstall', args: readonly string[], io: Pick<HookIo, 'stdout' | 'env' | 'cwd' | 'script'>): Promise<number> {
  const { cwd, env } = io;
  const { values: v } = parseFlags(args, INSTALL_FLAGS, false);
  if (v.agent === undefined) throw new UsageError(`${verb} needs --agent (${AGENT_NAMES.join(', ')})`);
  const agent = choiceFlag('--agent', stringOf(v, 'agent'), 'claude-code', AGENT_NAMES);
  if (v.user === true && v.project === true) throw new UsageError('--user and --project cannot be used together');
  const scope: InstallScope = v.project === true ? 'project' : 'user';
  if (verb === 'uninstall') {
    const stray = ['state-dir', 'fail-closed', 'preset', 'config', 'agent-version', 'log'].find((f) => v[f] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray} is for install`);
  } else if (v.preset !== undefined || v.config !== undefined) {
    detectionOptions(stringOf(v, 'preset'), stringOf(v, 'config'), cwd); // refused now rather than on every call
  }
  let agentVersion: string | undefined;
  if (verb === 'install') {
    const given = stringOf(v, 'agent-version');
    agentVersion = given === undefined ? cliVersion(agent, env) : versionIn(given);
    if (given !== undefined && agentVersion === undefined) throw new UsageError(`--agent-version must be a version such as 2.1.9, received ${JSON.stringify(given.slice(0, 40))}`);
  }
  const target = installTarget(agent, scope, cwd, env);
  let old;
  let merged: MergeResult;
  try {
    const outside = scope === 'project' ? outsideProject(target.path, cwd) : null;
    if (outside !== null) throw new SettingsParseError(outside);
    old = readSettings(target.path);
    const command = verb === 'install' ? hookCommandLine(agent, v, io, agentVersion) : '';
    const text = editableText(old);
    merged = verb === 'install' ? mergeHooks(text, old.settings, target.events, target.handler(command), indentUnit(old.text)) : unmergeHooks(text, old.settings, target.events, settingsBefore(target.path));
  } catch (e) {
    if (e instanceof SettingsParseError && e.notPlainJson) io.stdout.write(safeLines(byHand(verb, agent, target, hookCommandLine(agent, v, io, agentVersion), scope)));
    throw refused(e, target.path);
  }
  const changes = merged.changes;
  const title = `${AGENTS[agent].title}, ${scope} settings`;
  const changed = changes.some((c) => c.change !== 'unchanged' && c.change !== 'absent');
  const agentLines = verb === 'install' ? versionNotes(agent, agentVersion).map((l, i) => `  ${(i === 0 ? 'agent' : 'note').padEnd(10)} ${l}\n`).join('') : '';
  if (!changed) {
    io.stdout.write(safeLines(`loopwatch hook ${verb}: ${target.path} (${title}): nothing to change, loopwatch is ${verb === 'install' ? 'installed already' : 'not installed there'}\n${agentLines}`));
    return 0;
  }
  let out = `loopwatch hook ${verb}: ${target.path} (${title})\n`;
  for (const c of changes) out += describeChange(c, target.events.find((e) => e.event === c.event)?.matcher);
  try {
    if (verb === 'install') {
      const backup = writeSettings(old, fileText(old, merged.text));
      out += `  command    ${hookCommandLine(agent, v, io, agentVersion)}\n${agentLines}`;
      out += backup === null ? '  (a new file)\n' : `  backup     ${backup}\n`;
    } else {
      out += writeUninstalled(old, fileText(old, merged.text)).join('');
    }
  } catch (e) {
    throw refused(e, target.path); // the file changed while it was edited (settings-file.ts)
  }
  const where = verb === 'install' ? whereNote(realpathSync(io.script)) : null;
  if (where !== null) out += `  note       ${where}\n`;
  if (verb === 'install' && target.note !== undefined) out += `  note       ${target.note}\n`;
  if (verb === 'install' && startPrefix().length === 0) out += `  note       ${WINDOWS_NOTE}\n`;
  io.stdout.write(safeLines(out));
  return 0;
}

/**
 * What to do by hand with a settings file loopwatch does not edit for its syntax (comments or trailing
 * commas: JSONC, which Gemini CLI accepts): for install, the exact entries to add, as JSON; for uninstall,
 * which entries to take out. Editing JSONC in place would need a parser that keeps every comment where it
 * was and a check that the agent reads the result alike; the entries printed are exact, and the user's
 * file stays theirs.
 */
function byHand(verb: 'install' | 'uninstall', agent: AgentName, target: InstallTarget, command: string, scope: InstallScope): string {
  const title = `${AGENTS[agent].title}, ${scope} settings`;
  const events = target.events.map((e) => e.event).join(', ');
  if (verb === 'uninstall') {
    return `loopwatch hook uninstall: ${target.path} (${title}) is not plain JSON (comments or trailing commas), so loopwatch does not edit it. Take loopwatch's entries out yourself: under "hooks", in ${events}, the handlers whose "command" runs loopwatch (… hook-main.cjs --agent ${agent} …), if any, and a group or event they leave empty.\n`;
  }
  const entries = JSON.stringify({ hooks: hooksValue(target.events, target.handler(command)) }, null, 2);
  return `loopwatch hook install: ${target.path} (${title}) is not plain JSON (comments or trailing commas), so loopwatch does not edit it (its comments would be lost). Add these entries to it yourself: the "hooks" member as it is when the file has none; else each event into its "hooks" (an event already there takes the group at the end of its array):\n${entries}\n`;
}

/** A settings file refused (read, edited or written: `SettingsParseError`, `SettingsShapeError`, `SettingsWriteError`) as a usage error; any other error as it is. */
function refused(e: unknown, path: string): unknown {
  if (e instanceof Error && (e.name === 'SettingsParseError' || e.name === 'SettingsShapeError' || e.name === 'SettingsWriteError')) {
    const byHandToo = e instanceof SettingsParseError && e.notPlainJson ? ': make the change printed above by hand' : '';
    return new UsageError(`${e.name === 'SettingsShapeError' ? `${path}: ` : ''}${e.message}; nothing was changed${byHandToo}`);
  }
  return e;
}

/**
 * `text` with each line terminal-safe (`terminalSafe`), its line breaks kept: the paths it names are the
 * project's (a folder someone else named, `--project`) and the command line holds them; ESC, C1 and bidi
 * controls in a folder's name were printed raw (hostile7).
 */
function safeLines(text: string): string {
  return text.split('\n').map(terminalSafe).join('\n');
}
