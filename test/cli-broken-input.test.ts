/**
 * Bad input and bad usage: every skipped line is named with its file and line on stderr, the rest is still
 * scanned, the summary counts what was skipped, and the exit code is 2. Usage and config errors name the
 * flag or option, the rule and the value.
 */
import { writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { constants, createGzip } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { writeEvents } from './helpers/format-fixtures.js';

const call = (session: string, i: number) => ({ session, tool: 'read_file', args: { path: `f${i}.py` }, result: `line ${i}` });


/**
 * One gzip member of `head`, `block` `times` over and `tail`, compressed as it is written: a gigabyte made
 * whole first cost this machine ~7 s of fresh pages before compressing it.
 */
async function gzipOf(head: Buffer, block: Buffer, times: number, tail: Buffer): Promise<Buffer> {
  // run-length matches only (Z_RLE): the same gigabyte in a member of the same size as level 9's default
  // strategy gives (1,043,721 bytes, other bytes), at a quarter of its CPU (1.0 against 4.1 s)
  const gz = createGzip({ level: 9, strategy: constants.Z_RLE });
  const out: Buffer[] = [];
  gz.on('data', (c: Buffer) => out.push(c));
  const ended = once(gz, 'end');
  gz.write(head);
  for (let i = 0; i < times; i++) if (!gz.write(block)) await once(gz, 'drain');
  gz.end(tail);
  await ended;
  return Buffer.concat(out);
}

describe('loopwatch scan on broken input', () => {
  it('should name each malformed line, scan the rest, count the skips and exit 2', async () => {
    const dir = tempDir();
    const file = writeJsonl(dir, 'broken.jsonl', [call('a', 0), '{"session": "a", "tool": ', call('a', 1), '[1, 2', { session: 'b', args: {} }, call('b', 2)]);
    const run = await loopwatchInProcess(['scan', file, '--json', '--workers', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:2: skipped (invalid-json)`);
    expect(run.stderr).toContain(`${file}:4: skipped (invalid-json)`);
    expect(run.stderr).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:5: skipped \\(bad-record\\).*tool`));
    expect(run.stderr).toContain('loopwatch: 3 lines, elements, inputs or calls were skipped (named above; --allow-skipped to exit on the findings alone); exit code 2');
    const doc = JSON.parse(run.stdout) as { summary: { sessions: number; events: number; skipped: number } };
    expect(doc.summary).toMatchObject({ sessions: 2, events: 3, skipped: 3 });
  });

  it('should name a missing path and an unknown format, and still scan the good file', async () => {
    const dir = tempDir();
    const good = writeEvents(dir);
    const odd = join(dir, 'odd.jsonl');
    writeFileSync(odd, '{"hello": "world"}\n');
    const run = await loopwatchInProcess(['scan', join(dir, 'nope.jsonl'), odd, good, '--workers', '0', '--json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${join(dir, 'nope.jsonl')}: skipped (missing-input)`);
    expect(run.stderr).toContain(`${odd}`);
    expect(run.stderr).toContain('unknown-format');
    expect(JSON.parse(run.stdout).summary).toMatchObject({ sessions: 2, events: 16, skipped: 2 });
  });

  it('should exit 2 when the inputs hold no tool calls at all, unless --allow-empty', async () => {
    const run = await loopwatchInProcess(['scan', tempDir(), '--workers', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no tool calls found in the inputs');
    expect(run.stdout).toBe(''); // only why: no empty summary before it
    const allowed = await loopwatchInProcess(['scan', tempDir(), '--workers', '0', '--allow-empty']);
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toBe('');
    expect(allowed.stdout).toContain('loopwatch scan: 0 sessions, 0 calls');
  });

  it('should report invalid UTF-8 and a truncated gzip by file and line without crashing', async () => {
    const dir = tempDir();
    const bad = join(dir, 'bytes.jsonl');
    writeFileSync(bad, Buffer.concat([Buffer.from(JSON.stringify(call('a', 0)) + '\n'), Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]), Buffer.from(JSON.stringify(call('a', 1)) + '\n')]));
    const gz = join(dir, 'cut.jsonl.gz');
    writeFileSync(gz, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x01, 0x02]));
    const run = await loopwatchInProcess(['scan', bad, gz, '--workers', '0', '--json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${bad}:2: skipped (invalid-utf8)`);
    expect(run.stderr).toContain(`${gz}`);
    expect(JSON.parse(run.stdout).summary).toMatchObject({ sessions: 1, events: 2 });
  });
});

describe('loopwatch exit codes and usage errors', () => {
  const file = writeEvents(tempDir());

  it('should exit 0 when no session reaches --fail-on, 1 when one does', async () => {
    expect((await loopwatchInProcess(['scan', file, '--workers', '0', '--fail-on', 'never'])).code).toBe(0);
    expect((await loopwatchInProcess(['scan', file, '--workers', '0', '--fail-on', 'warn'])).code).toBe(1);
    const clean = writeJsonl(tempDir(), 'clean.jsonl', [0, 1, 2].map((i) => call('c', i)));
    expect((await loopwatchInProcess(['scan', clean, '--workers', '0'])).code).toBe(0);
  });

  it('should report only verdicts at or above --min-action', async () => {
    const all = (await loopwatchInProcess(['scan', file, '--workers', '0', '--jsonl'])).stdout.trim().split('\n');
    const breaks = (await loopwatchInProcess(['scan', file, '--workers', '0', '--jsonl', '--min-action', 'break'])).stdout.trim().split('\n');
    expect(breaks.length).toBeGreaterThan(0);
    expect(breaks.length).toBeLessThan(all.length);
    expect(breaks.every((l) => JSON.parse(l).action === 'break')).toBe(true);
  });

  it.each([
    [['scan', file, '--min-action', 'panic'], '--min-action must be one of warn, ask, break, received "panic"'],
    [['scan', file, '--workers', 'two'], '--workers must be an integer from 0 to 256, received "two"'],
    [['scan', file, '--json', '--jsonl'], '--json and --jsonl cannot be used together'],
    [['scan', file, '--format', 'xml'], '--format must be one of events, openai-chat, openai-responses, anthropic, swe-agent, claude-code, codex, otel, hooks, openhands, gemini-cli, atif, inspect, received "xml"'],
    [['scan', file, '--preset', 'fast'], '--preset must be one of default, hand-tuned, balanced'],
    [['scan', file, '--bogus'], 'unknown flag --bogus'],
    [['frobnicate'], 'unknown command "frobnicate"'],
  ])('should exit 2 on %j, saying what is wrong', async (args, message) => {
    const run = await loopwatchInProcess(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
  });

  it('should validate --config: the file, the option, the rule and the value', async () => {
    const dir = tempDir();
    const cfg = (name: string, body: string): string => {
      writeFileSync(join(dir, name), body);
      return join(dir, name);
    };
    const range = await loopwatchInProcess(['scan', file, '--config', cfg('range.json', '{"detectors": {"cycle": {"maxPeriod": -1}}}')]);
    expect(range.code).toBe(2);
    expect(range.stderr).toMatch(/range\.json: .*detectors\.cycle\.maxPeriod.*-1/);
    const unknown = await loopwatchInProcess(['scan', file, '--config', cfg('unknown.json', '{"detector": {}}')]);
    expect(unknown.stderr).toContain('unknown.json: "detector" is not a config option');
    const broken = await loopwatchInProcess(['scan', file, '--config', cfg('broken.json', '{"detectors": ')]);
    expect(broken.stderr).toContain('broken.json: not valid JSON');
    expect((await loopwatchInProcess(['scan', file, '--config', join(dir, 'missing.json')])).stderr).toContain('missing.json: cannot read the file (no such file or folder)');
    // a valid config that turns every detector off but exact repeats, with a preset named inside
    const ok = await loopwatchInProcess(['scan', file, '--workers', '0', '--json', '--config', cfg('ok.json', '{"preset": "conservative", "policy": {"ladder": ["warn"]}}')]);
    expect(ok.code).toBe(0); // the ladder never reaches break
    expect(JSON.parse(ok.stdout).summary.byAction).toEqual({ warn: 1, ask: 0, break: 0 });
  });

  it('should refuse a 1 MB gzip of newlines (a gigabyte of blank lines) as a decompression bomb past 200:1, keeping what came before', async () => {
    // hostile28 (formats/inflate-ratio.ts): past 64 MiB inflated, more than 200 bytes out per byte in is refused,
    // named with its line and figures, exit 2; the event before the bomb is read, the one after it is not
    const dir = tempDir();
    const path = join(dir, 'blank.jsonl.gz');
    const events = Buffer.from('{"session": "a", "tool": "t"}\n');
    writeFileSync(path, await gzipOf(events, Buffer.alloc(1 << 20, 10), 1024, events));
    const run = await loopwatchInProcess(['scan', path, '--workers', '0', '--json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/blank\.jsonl\.gz:\d+: skipped \(read-error\): input could not be read past this line: inflates \d+ bytes to \d+ \(so far\), a ratio over 200:1/);
    expect(JSON.parse(run.stdout).summary).toMatchObject({ sessions: 1, events: 1 });
  }, 60_000);
});
