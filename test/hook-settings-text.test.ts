/**
 * loopwatch's entries merged into a settings file's text and taken out again, in place: whatever the
 * file's formatting (minified, tabs, arrays on one line, other hooks of the same events, an empty `hooks`
 * object or event), install then uninstall gives back the very text, and install changes nothing outside
 * loopwatch's entries. (An empty object with only white space inside comes back as `{}`.)
 */
import { describe, expect, it } from 'vitest';
import { installTarget } from '../src/hooks/install-targets.js';
import { indentUnit } from '../src/hooks/settings-file.js';
import { mergeHooks, unmergeHooks } from '../src/hooks/settings-merge.js';
import { AGENTS } from './helpers/hook-payloads.js';

const TEXTS: readonly string[] = [
  '{}',
  '{}\n',
  '{"model":"x"}',
  '{\n\t"model": "x",\n\t"list": [1, 2, 3]\n}\n',
  '{\n  "hooks": {}\n}\n',
  '{\n    "hooks": {\n        "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "audit.sh" }] }],\n        "Stop": [\n            { "hooks": [] }\n        ]\n    },\n    "env": {"A": "1"}\n}\n',
  '{ "hooks": { "BeforeTool": [], "PostToolUse": [ { "hooks": [ { "type": "command", "command": "x" } ] } ] } }',
];

describe.each(AGENTS)('settings text edited in place (%s)', (agent) => {
  const target = installTarget(agent, 'user', '/p', { HOME: '/h' });
  const handler = target.handler('/usr/bin/node /opt/loopwatch/dist/hook/hook-main.cjs --agent x');

  it.each(TEXTS)('should give back the same text after install and uninstall: %j', (text) => {
    const installed = mergeHooks(text, JSON.parse(text) as Record<string, unknown>, target.events, handler, indentUnit(text));
    const parsed = JSON.parse(installed.text) as { hooks: Record<string, unknown[]> };
    for (const { event } of target.events) expect(JSON.stringify(parsed.hooks[event])).toContain('hook-main.cjs');
    // everything else as it was
    const { hooks: _h, ...rest } = parsed;
    const { hooks: beforeHooks, ...restBefore } = JSON.parse(text) as { hooks?: Record<string, unknown[]> };
    expect(rest).toEqual(restBefore);
    for (const [event, groups] of Object.entries(beforeHooks ?? {})) expect(parsed.hooks[event]?.slice(0, groups.length)).toEqual(groups);
    const again = mergeHooks(installed.text, parsed, target.events, handler, indentUnit(installed.text));
    expect(again.text).toBe(installed.text);
    // uninstall knows the settings before install from install's backup
    expect(unmergeHooks(installed.text, parsed, target.events, JSON.parse(text) as Record<string, unknown>).text).toBe(text);
  });

  it('should replace its entries, in place, when installed with another command', () => {
    const text = '{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "notify.sh" }] }]\n  }\n}\n';
    const first = mergeHooks(text, JSON.parse(text) as Record<string, unknown>, target.events, handler, '  ');
    const other = target.handler('/usr/bin/node /opt/loopwatch/dist/hook/hook-main.cjs --agent x --fail-closed');
    const second = mergeHooks(first.text, JSON.parse(first.text) as Record<string, unknown>, target.events, other, '  ');
    expect(second.changes.every((c) => c.change === 'updated')).toBe(true);
    expect(second.text).toBe(first.text.replaceAll('--agent x"', '--agent x --fail-closed"'));
  });
});
