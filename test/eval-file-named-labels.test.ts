/**
 * A session named after its file (a Gemini CLI checkpoint names none: `FILE:1`) finds its label however the
 * folder is typed: the labels written as rebuild.mjs writes them (the path relative to the folder `eval`
 * was first run from), then `eval` given the folder relative, absolute, without its trailing slash, from
 * another folder, through a symbolic link; and labels keyed by the path within the labels' folder. Before,
 * only the path typed as in the label matched (holdout7: 89 labelled runs judged by its absolute path, 92
 * by `../../sets/holdout7/`). A file outside the folder, or a label end two labels share, pairs with none.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileNamedLabel } from '../src/formats/file-named-labels.js';
import { CLI, tempDir, writeJsonl } from './helpers/cli.js';

/** A checkpoint (Gemini API contents) of one command failing alike `n` times. */
function checkpoint(n: number): string {
  const contents: unknown[] = [{ role: 'user', parts: [{ text: 'Fix the build.' }] }];
  for (let i = 0; i < n; i++) {
    contents.push({ role: 'model', parts: [{ functionCall: { id: `c${i}`, name: 'run_shell_command', args: { command: 'make' } } }] });
    contents.push({ role: 'user', parts: [{ functionResponse: { id: `c${i}`, name: 'run_shell_command', response: { error: 'make: *** [build] Error 2' } } }] });
  }
  return JSON.stringify(contents);
}

/** `loopwatch eval ...args` run in `cwd`: its runs without a label and its labels without a run (`--json`), and its first line. */
function judged(cwd: string, args: readonly string[]): { unlabelled: number; unmatchedLabels: number; head: string } {
  const r = spawnSync(process.execPath, [CLI, 'eval', ...args, '--json'], { cwd, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const out = JSON.parse(r.stdout) as { unlabelled: number; unmatchedLabels: number };
  const text = spawnSync(process.execPath, [CLI, 'eval', ...args], { cwd, encoding: 'utf8' });
  return { unlabelled: out.unlabelled, unmatchedLabels: out.unmatchedLabels, head: text.stdout.split('\n')[0] as string };
}

describe('eval: a session named after its file', () => {
  const root = tempDir();
  const project = join(root, 'project');
  const set = join(root, 'sets', 'h7');
  mkdirSync(project);
  mkdirSync(join(set, 'gemini-cli', 'p'), { recursive: true });
  mkdirSync(join(set, 'gemini-cli', 'q'), { recursive: true });
  writeFileSync(join(set, 'gemini-cli', 'p', 'checkpoint-a.json'), checkpoint(6));
  writeFileSync(join(set, 'gemini-cli', 'q', 'checkpoint-b.json'), checkpoint(2));
  writeJsonl(set, 'events.jsonl', [{ session: 'plain', tool: 'ls', args: {}, result: 'a' }]);
  // as rebuild.mjs writes them: relative to the project the set was built from; and relative to the set itself
  writeJsonl(set, 'sessions.jsonl', [
    { session: `${relative(project, join(set, 'gemini-cli', 'p', 'checkpoint-a.json'))}:1`, exit_status: 'interactive', agent: 'gemini-cli 0.9' },
    { session: 'gemini-cli/q/checkpoint-b.json:1', exit_status: 'interactive', agent: 'gemini-cli 0.9' },
    { session: 'plain', exit_status: 'interactive', agent: 'Claude Code 2.1.0' },
  ]);
  symlinkSync(set, join(root, 'link'));

  it.each([
    ['relative, as the labels were written', project, ['../sets/h7/']],
    ['relative, no trailing slash', project, ['../sets/h7']],
    ['absolute', project, [`${set}/`]],
    ['from another folder', join(root, 'sets'), ['h7']],
    ['from inside the folder', set, ['.']],
    ['through a symbolic link', project, [join(root, 'link')]],
  ])('should label every run when the folder is typed %s', (_how, cwd, args) => {
    const got = judged(cwd, args);
    expect(got).toMatchObject({ unlabelled: 0, unmatchedLabels: 0 });
    expect(got.head).toMatch(/^\d+ calls, 3 labelled runs judged /);
  });

  it('should give scan the label too (the label column of its markdown report)', () => {
    const own = tempDir();
    mkdirSync(join(own, 'set', 'p'), { recursive: true });
    writeFileSync(join(own, 'set', 'p', 'checkpoint-a.json'), checkpoint(6));
    writeJsonl(join(own, 'set'), 'sessions.jsonl', [{ session: 'set/p/checkpoint-a.json:1', exit_status: 'submitted', agent: 'gemini-cli 0.9' }]);
    for (const [cwd, dir] of [[own, 'set/'], [own, join(own, 'set')], [join(own, 'set'), '.']] as const) {
      const r = spawnSync(process.execPath, [CLI, 'scan', dir, '--markdown', '-'], { cwd, encoding: 'utf8' });
      expect(r.stdout).toMatch(/checkpoint-a\.json:1 \|.*\| submitted \|$/m);
    }
  });

  it('should pair with no label a file outside the labels folder, or an end two labels share', () => {
    const outside = join(root, 'outside');
    mkdirSync(join(outside, 'p'), { recursive: true });
    writeFileSync(join(outside, 'p', 'c.json'), '[]');
    writeFileSync(join(set, 'c.json'), '[]');
    const labels = new Map([
      ['x/p/c.json:1', 'one'],
      ['y/p/c.json:1', 'two'],
    ]);
    expect(fileNamedLabel(labels, `${join(outside, 'p', 'c.json')}:1`, set)).toBeUndefined();
    expect(fileNamedLabel(labels, `${join(set, 'c.json')}:1`, set)).toBeUndefined(); // the label ends name p/c.json, not c.json in the folder
    const shared = new Map([
      ['a/h7/c.json:1', 'one'],
      ['b/h7/c.json:1', 'two'],
    ]);
    expect(fileNamedLabel(shared, `${join(set, 'c.json')}:1`, set)).toBeUndefined();
    expect(fileNamedLabel(new Map([['a/h7/c.json:1', 'one']]), `${join(set, 'c.json')}:1`, set)).toBe('one');
    expect(fileNamedLabel(new Map([['a/h7/c.json:1', 'one']]), `${join(set, 'c.json')}:2`, set)).toBeUndefined();
    expect(fileNamedLabel(new Map([['run-1', 'one']]), 'run-1', set)).toBeUndefined();
  });
});
