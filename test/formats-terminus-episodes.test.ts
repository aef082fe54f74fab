/**
 * The Terminus agents' own logs (Terminal-Bench 1's `agent-logs/episode-N/`, Harbor's terminus-2
 * `agent/episode-N/`: prompt.txt, response.json or response.txt, debug.json), written here in the shape the
 * agents write them (not copied from a run): a walk says one issue for the folder holding the episodes, with
 * how many, where it used to skip each episode's response.json and debug.json with an issue of its own; an
 * episode folder holding anything else, or lacking prompt.txt or debug.json, is walked as usual, and the
 * files beside the episodes are read.
 */
import { describe, expect, it } from 'vitest';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-terminus-episodes');

/** Terminus episode `n` below `folder`: its prompt, its reply (`response.json`, or Harbor's `response.txt`) and LiteLLM's debug record. */
function episode(folder: string, n: number, reply: 'response.json' | 'response.txt'): void {
  write(`${folder}/episode-${n}/prompt.txt`, n === 0 ? 'You are an AI assistant tasked with solving command-line tasks.' : 'New Terminal Output:\n$ ls\na.py\n');
  const commands = reply === 'response.json' ? [{ keystrokes: 'ls\n', is_blocking: true, timeout_sec: 5 }] : [{ keystrokes: 'ls\n', duration: 1 }];
  write(`${folder}/episode-${n}/${reply}`, JSON.stringify({ state_analysis: 'Listing.', explanation: 'ls', commands, is_task_complete: false }, null, 2));
  write(`${folder}/episode-${n}/debug.json`, JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'x' }], optional_params: {}, log_event_type: 'post_api_call', original_response: '{}' }));
}

const issues = (items: Awaited<ReturnType<typeof collect>>) => items.flatMap((i) => (i.kind === 'issue' ? [[i.code, i.file, i.message]] : []));

describe('Terminus agent episode folders', () => {
  it('should say one issue for the folder of episodes, with their count, and read the trace beside them', async () => {
    const logs = `${dir}/tb1/hello-world/trial-1/agent-logs`;
    for (let n = 0; n < 12; n++) episode('tb1/hello-world/trial-1/agent-logs', n, 'response.json');
    write('tb1/hello-world/trial-1/agent-logs/events.jsonl', JSON.stringify({ session: 'mine', step: 0, tool: 'make', args: {}, result: 'ok' }) + '\n');
    const items = await collect([`${dir}/tb1`]);
    expect(issues(items)).toEqual([
      ['unknown-format', logs, "12 Terminus agent episodes (episode-N/: the model's prompt.txt, its response and LiteLLM's debug.json, keystrokes and terminal screens rather than calls), which loopwatch does not read"],
    ]);
    expect(items.filter((i) => i.kind === 'call').map((i) => i.kind === 'call' && i.session)).toEqual(['mine']);
  });

  it("should count Harbor's terminus-2 episodes (response.txt) the same, one of them said", async () => {
    episode('harbor/agent', 0, 'response.txt');
    expect(issues(await collect([`${dir}/harbor`]))).toEqual([
      ['unknown-format', `${dir}/harbor/agent`, "1 Terminus agent episode (episode-N/: the model's prompt.txt, its response and LiteLLM's debug.json, keystrokes and terminal screens rather than calls), which loopwatch does not read"],
    ]);
  });

  it('should walk an episode folder holding anything else as usual', async () => {
    episode('mixed/agent', 0, 'response.json');
    write('mixed/agent/episode-0/calls.jsonl', JSON.stringify({ session: 'kept', step: 0, tool: 'ls', args: {}, result: 'a' }) + '\n');
    const items = await collect([`${dir}/mixed`]);
    expect(items.filter((i) => i.kind === 'call').map((i) => i.kind === 'call' && i.session)).toEqual(['kept']);
    expect(issues(items).map((i) => i[1])).toEqual([`${dir}/mixed/agent/episode-0/debug.json`, `${dir}/mixed/agent/episode-0/response.json`]);
  });

  it("should read another tool's episode-N/response.json (no prompt.txt and debug.json beside it) as a trace", async () => {
    write('other/episode-1/response.json', JSON.stringify({ session: 'other', step: 0, tool: 'ls', args: {}, result: 'a' }));
    const items = await collect([`${dir}/other`]);
    expect(items.filter((i) => i.kind === 'call').map((i) => i.kind === 'call' && i.session)).toEqual(['other']);
    expect(issues(items)).toEqual([]);
  });
});
