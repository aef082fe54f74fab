/**
 * The hook reads the agent's version from the session's transcript (`transcript_path`) when its reply
 * holds a warning. A FIFO in the transcript's place (made by a process of the workspace running as the
 * user) hung the hook in open(), waiting for a writer; it is now opened without blocking and, not being a
 * regular file, not read (the installed version is used; nor for a call's model turn, transcript-turn.ts).
 * Run in a child process, since a hang would hold the test's own thread.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempFolder } from './helpers/temp-folder.js';

const MODULE = pathToFileURL(fileURLToPath(new URL('../dist/src/hooks/agent-versions.js', import.meta.url))).href;
const TURNS = pathToFileURL(fileURLToPath(new URL('../dist/src/hooks/transcript-turn.js', import.meta.url))).href;

describe.skipIf(process.platform === 'win32')('a transcript that is a FIFO', () => {
  it.each(['claude-code', 'codex'])('should not hang reading the %s version, nor read it', (agent) => {
    const fifo = join(tempFolder('transcript-fifo'), 'transcript.jsonl');
    execFileSync('mkfifo', [fifo]);
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import { transcriptVersion } from ${JSON.stringify(MODULE)}; console.log(transcriptVersion(${JSON.stringify(agent)}, ${JSON.stringify(fifo)}) ?? 'none');`], { encoding: 'utf8', timeout: 10_000 });
    expect(r.signal, 'hung: killed after 10 s').toBeNull();
    expect(r.stdout.trim()).toBe('none');
  }, 30_000);

  it.each(['claudeCodeTurn', 'codexTurn'])('should not hang reading a call\'s turn (%s), nor find one', (reader) => {
    const fifo = join(tempFolder('transcript-fifo'), 'transcript.jsonl');
    execFileSync('mkfifo', [fifo]);
    const payload = JSON.stringify({ transcript_path: fifo, tool_use_id: 'toolu_1' });
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import { ${reader} } from ${JSON.stringify(TURNS)}; console.log(${reader}(${payload}) ?? 'none');`], { encoding: 'utf8', timeout: 10_000 });
    expect(r.signal, 'hung: killed after 10 s').toBeNull();
    expect(r.stdout.trim()).toBe('none');
  }, 30_000);
});
