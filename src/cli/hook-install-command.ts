/**
 * `loopwatch hook install|uninstall --agent NAME [--user | --project]`: merges loopwatch's hook entries
 * into the agent's settings file (src/hooks/install-targets.ts says which file and which events), or takes
 * them out, and says what changed. A file it cannot read as JSON, or whose `hooks` has another shape, is
 * left as it is (exit code 2).
 *
 * The installed command is `<node> <this package>/dist/hook/hook-main.cjs --agent NAME ...` (`loopwatch
 * hook` without the CLI around it, see hook-main.ts): absolute paths, so it runs whatever the agent's PATH
 * and working directory, and without npx (whose start alone costs several times a hook's budget). Moving
 * or upgrading Node or loopwatch: install again (it replaces its entries).
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { AGENT_NAMES, type AgentName } from '../hooks/hook-agent.js';
import { AGENTS } from '../hooks/agents.js';
import { type InstallScope, installTarget, shellQuote } from '../hooks/install-targets.js';
import { readSettings, settingsText, writeSettings } from '../hooks/settings-file.js';
import { type EventChange, mergeHooks, unmergeHooks } from '../hooks/settings-merge.js';
import { detectionOptions } from './detection-options.js';
import { type FlagSpec, type ParsedFlags, choiceFlag, parseFlags, stringOf } from './flags.js';
import type { HookIo } from './hook-io.js';
import { UsageError } from './usage-error.js';

const INSTALL_FLAGS: FlagSpec = {
  agent: { type: 'string' },
  user: { type: 'boolean' },
  project: { type: 'boolean' },
  'state-dir': { type: 'string' },
  'fail-closed': { type: 'boolean' },
  preset: { type: 'string' },
  config: { type: 'string' },
  log: { type: 'string' },
};

/**
 * The script an agent's hook runs, as arguments after `node`: the hook's own entry (dist/hook/hook-main.cjs,
 * the fastest start), else the CLI's (`main.js hook`, in a checkout that was not built with npm run build).
 */
function hookEntry(): string[] {
  const self = realpathSync(process.argv[1] ?? '');
  if (self.endsWith('hook-main.cjs')) return [self];
  const direct = resolve(dirname(self), '..', '..', 'hook', 'hook-main.cjs');
  return existsSync(direct) ? [direct] : [self, 'hook'];
}

/** The command line an agent runs for `agent`, with the hook options given to install. */
export function hookCommandLine(agent: AgentName, v: ParsedFlags['values'], cwd: string): string {
  const parts = [process.execPath, ...hookEntry(), '--agent', agent];
  const stateDir = stringOf(v, 'state-dir');
  if (stateDir !== undefined) parts.push('--state-dir', isAbsolute(stateDir) ? stateDir : resolve(cwd, stateDir));
  if (v['fail-closed'] === true) parts.push('--fail-closed');
  const log = stringOf(v, 'log');
  if (log !== undefined) parts.push('--log', resolve(cwd, log));
  const preset = stringOf(v, 'preset');
  if (preset !== undefined) parts.push('--preset', preset);
  const config = stringOf(v, 'config');
  if (config !== undefined) parts.push('--config', resolve(cwd, config));
  return parts.map(shellQuote).join(' ');
}

function describeChange(c: EventChange, matcher: string | undefined): string {
  return `  ${c.change.padEnd(10)} ${c.event}${matcher === undefined ? '' : ` (matcher ${JSON.stringify(matcher)})`}\n`;
}

/** `loopwatch hook install|uninstall [options]`: resolves to the exit code. */
export async function hookInstallCommand(verb: 'install' | 'uninstall', args: readonly string[], io: Pick<HookIo, 'stdout'>): Promise<number> {
  const { values: v } = parseFlags(args, INSTALL_FLAGS, false);
  if (v.agent === undefined) throw new UsageError(`${verb} needs --agent (${AGENT_NAMES.join(', ')})`);
  const agent = choiceFlag('--agent', stringOf(v, 'agent'), 'claude-code', AGENT_NAMES);
  if (v.user === true && v.project === true) throw new UsageError('--user and --project cannot be used together');
  const scope: InstallScope = v.project === true ? 'project' : 'user';
  if (verb === 'uninstall') {
    const stray = ['state-dir', 'fail-closed', 'preset', 'config', 'log'].find((f) => v[f] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray} is for install`);
  } else if (v.preset !== undefined || v.config !== undefined) {
    detectionOptions(stringOf(v, 'preset'), stringOf(v, 'config')); // refused now rather than on every call
  }
  const cwd = process.cwd();
  const target = installTarget(agent, scope, cwd);
  let old;
  let changes: EventChange[];
  try {
    old = readSettings(target.path);
    const command = verb === 'install' ? hookCommandLine(agent, v, cwd) : '';
    changes = verb === 'install' ? mergeHooks(old.settings, target.events, target.handler(command)) : unmergeHooks(old.settings, target.events);
  } catch (e) {
    if (e instanceof Error && (e.name === 'SettingsParseError' || e.name === 'SettingsShapeError')) {
      throw new UsageError(`${e.name === 'SettingsShapeError' ? `${target.path}: ` : ''}${e.message}; nothing was changed`);
    }
    throw e;
  }
  const title = `${AGENTS[agent].title}, ${scope} settings`;
  const changed = changes.some((c) => c.change !== 'unchanged' && c.change !== 'absent');
  if (!changed) {
    io.stdout.write(`loopwatch hook ${verb}: ${target.path} (${title}): nothing to change, loopwatch is ${verb === 'install' ? 'installed already' : 'not installed there'}\n`);
    return 0;
  }
  const backup = writeSettings(old, settingsText(old, old.settings));
  let out = `loopwatch hook ${verb}: ${target.path} (${title})\n`;
  for (const c of changes) out += describeChange(c, target.events.find((e) => e.event === c.event)?.matcher);
  if (verb === 'install') out += `  command    ${hookCommandLine(agent, v, cwd)}\n`;
  out += backup === null ? '  (a new file)\n' : `  backup     ${backup}\n`;
  if (verb === 'install' && /[/\\]_npx[/\\]/.test(realpathSync(process.argv[1] ?? ''))) {
    out += '  note       this loopwatch runs from npx\'s cache, which npm may clear: install loopwatch (npm i -g loopwatch, or as a dev dependency) and run install from there\n';
  }
  if (verb === 'install' && target.note !== undefined) out += `  note       ${target.note}\n`;
  io.stdout.write(out);
  return 0;
}
