/**
 * `serve --token-file` says once at start when the token's file is readable by its group or others (or
 * owned by another user): whoever can read it can use the server. Before, a 0644 token file (the default
 * mode of a file written by `echo > token`) was taken without a word. The server still starts.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServe } from './helpers/serve-process.js';
import { tempFolder } from './helpers/temp-folder.js';

async function startedWith(mode: number): Promise<string> {
  const dir = tempFolder('serve-token');
  const file = join(dir, 'token');
  writeFileSync(file, 'a-token-of-enough-characters-0123\n');
  chmodSync(file, mode);
  const s = await startServe(['--port', '0', '--no-state', '--token-file', file]);
  s.child.kill('SIGTERM');
  expect(await s.exited).toBe(0);
  return s.stderr();
}

describe('serve --token-file readable by others', () => {
  it('should say so once, naming the file and its mode', async () => {
    const err = await startedWith(0o644);
    expect(err.match(/whoever can read it can use the server/g)).toHaveLength(1);
    expect(err).toContain('its group or others can read it (mode 0644)');
    expect(err).not.toContain('a-token-of-enough');
  });

  it('should say nothing of a file only its owner can read', async () => {
    expect(await startedWith(0o600)).not.toContain('whoever can read it');
  });
});
