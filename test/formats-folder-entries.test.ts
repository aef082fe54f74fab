/**
 * What a folder scan does with entries named like trace files that are not regular files: a FIFO, a socket
 * or a link to a folder is named as a `not-a-file` issue (never skipped in silence, never opened: a FIFO
 * could block forever); a link to a file is read.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, scratchDir } from './helpers/trace-files.js';

describe('folder entries that are not regular files', () => {
  it('should name a FIFO, a socket and a link to a folder, and read a link to a file', async () => {
    const { dir, write } = scratchDir('entries');
    const real = write('real/a.jsonl', '{"session": "a", "tool": "t"}\n');
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(dir, 'sock.jsonl'), resolve));
    mkdirSync(join(dir, 'sub'));
    symlinkSync(join(dir, 'real'), join(dir, 'sub', 'folder.jsonl'));
    symlinkSync(real, join(dir, 'sub', 'file.jsonl'));
    try {
      const items = await collect([dir]);
      const issues = items.filter((i) => i.kind === 'issue');
      expect(issues).toEqual([
        { kind: 'issue', code: 'not-a-file', file: join(dir, 'pipe.jsonl'), line: 0, message: 'not a regular file (a FIFO); not read' },
        { kind: 'issue', code: 'not-a-file', file: join(dir, 'sock.jsonl'), line: 0, message: 'not a regular file (a socket); not read' },
        { kind: 'issue', code: 'not-a-file', file: join(dir, 'sub', 'folder.jsonl'), line: 0, message: 'a link to a folder; links to folders are not followed (give the folder itself to scan it)' },
      ]);
      expect(items.filter((i) => i.kind === 'call').map((i) => i.file)).toEqual([real, join(dir, 'sub', 'file.jsonl')]);
    } finally {
      server.close();
    }
  });
});
