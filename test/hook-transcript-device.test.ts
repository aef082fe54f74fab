/**
 * A payload's `transcript_path` naming something else than a regular file is not read (transcript-part.ts),
 * and now not even opened: opening has effects of its own. A FIFO's writer blocked in open() went on as
 * soon as the hook opened the FIFO to look at it (it learns when the hook runs, and writes into it), and a
 * terminal opened without O_NOCTTY by a process without a controlling terminal (a session leader: `setsid`)
 * became that process's controlling terminal, whose signals (SIGHUP, SIGINT from its keys) it then gets.
 * Run in child processes, as a hang would hold the test's own thread.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempFolder } from './helpers/temp-folder.js';

const MODULE = pathToFileURL(fileURLToPath(new URL('../dist/src/hooks/transcript-part.js', import.meta.url))).href;
const read = (path: string): string => `import { readTranscriptPart } from ${JSON.stringify(MODULE)}; console.log(JSON.stringify(readTranscriptPart(${JSON.stringify(path)}, 'tail', 4096)));`;

const has = (cmd: string, args: string[]): boolean => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const POSIX = process.platform !== 'win32';
const PTY = POSIX && process.platform === 'linux' && has('setsid', ['--version']) && has('python3', ['-c', 'import pty']);

describe.skipIf(!POSIX)('a transcript_path that is not a regular file', () => {
  it("should not open a FIFO: its writer waiting in open() stays waiting", async () => {
    const fifo = join(tempFolder('transcript-device'), 'transcript.jsonl');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', `printf '{"version":"9"}\\n' > "$1"; echo opened`, 'sh', fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    writer.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((r) => setTimeout(r, 200)); // the writer is in open()
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', read(fifo)], { encoding: 'utf8', timeout: 10_000 });
    expect(r.stdout.trim()).toBe('null');
    await new Promise((r) => setTimeout(r, 300));
    const stillWaiting = writer.exitCode === null;
    writer.kill('SIGKILL');
    expect(out).toBe('');
    expect(stillWaiting).toBe(true);
  }, 30_000);

  it.skipIf(!PTY)('should not make a terminal the controlling terminal of a hook without one', () => {
    // python3 makes a pseudo-terminal; the hook's read runs in a new session (setsid), which has no terminal
    const script = `
import json, os, pty, subprocess, sys
m, s = pty.openpty()
code = sys.argv[2].replace('"__TTY__"', json.dumps(os.ttyname(s))) + "; import('node:fs').then((fs) => { try { fs.closeSync(fs.openSync('/dev/tty', 'r')); console.log('controlling terminal'); } catch { console.log('no controlling terminal'); } });"
r = subprocess.run(['setsid', sys.argv[1], '--input-type=module', '-e', code], capture_output=True, text=True, timeout=10)
print(r.stdout, end='')
`;
    const r = spawnSync('python3', ['-c', script, process.execPath, read('__TTY__')], { encoding: 'utf8', timeout: 20_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('null\nno controlling terminal\n');
  }, 30_000);
});
