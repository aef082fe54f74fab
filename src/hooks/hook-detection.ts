/**
 * The detection options the hooks run with (the command's `--preset` / `--config`, or `serve`'s): the
 * agents' edit tools marked as changing the workspace (ToolRule.changesWorkspace: a new edit after a block
 * gives the session a fresh start), unless the options say otherwise for a tool, and a project's
 * allowlist (project-allowlist.ts) added to `allow`.
 */
import type { AllowRule } from '../options/allow-rules.js';
import type { LoopDetectorOptions, ToolRule } from '../options/options.js';
import type { HookAgent } from './hook-agent.js';

/** `base` with the edit tools of `agents` and the `allow` rules added (see the header). */
export function hookDetection(base: LoopDetectorOptions | undefined, agents: readonly HookAgent[], allow: readonly AllowRule[] = []): LoopDetectorOptions {
  const tools: Record<string, ToolRule> = {};
  for (const a of agents) for (const t of a.editTools) tools[t] = { changesWorkspace: true };
  for (const [name, rule] of Object.entries(base?.tools ?? {})) tools[name] = { ...tools[name], ...rule };
  return { ...base, tools, ...(allow.length === 0 ? {} : { allow: [...(base?.allow ?? []), ...allow] }) };
}
