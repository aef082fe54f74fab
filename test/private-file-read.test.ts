/**
 * mend13: one reader of private files (private-path.ts readPrivateFile) for the hooks' and server's state
 * and for the server's token, which had its own copy (serve-token-file.ts). The token's rules kept: a
 * secret is refused when others can read it (not only write it), and only its first 4 KiB are read (a
 * larger file is not refused); state files keep theirs (a larger one is refused). No message holds content.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NotPrivateError } from '../src/errors.js';
import { readPrivateFile } from '../src/hooks/private-path.js';
import { serveTokenFile } from '../src/serve/serve-token-file.js';
import { tempFolder } from './helpers/temp-folder.js';

const POSIX = typeof process.getuid === 'function';
const SECRET = 'tok_0123456789abcdefSECRET';

/** A file `name` in a fresh private folder holding `text`, with mode `mode`. */
function file(name: string, text: string, mode: number): string {
  const dir = tempFolder('private-read');
  chmodSync(dir, 0o700);
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

/** The message readPrivateFile throws for `path`, or null when it reads it. */
function refusal(path: string, how?: Parameters<typeof readPrivateFile>[1]): string | null {
  try {
    readPrivateFile(path, how);
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(NotPrivateError);
    return (e as Error).message;
  }
}

describe.skipIf(!POSIX)('reading a private file', () => {
  it('should refuse a secret others can read, naming the mode and not the content, and read state of that mode', () => {
    const path = file('serve.token', `${SECRET}\n`, 0o640);
    const why = refusal(path, { secret: true });
    expect(why).toContain('others than its owner can read it (mode 0640)');
    expect(why).not.toContain(SECRET);
    expect(refusal(path)).toBeNull();
    expect(readPrivateFile(path)?.toString('utf8')).toBe(`${SECRET}\n`);
  });

  it('should read the first maxBytes of a larger file when told to truncate, and refuse it otherwise', () => {
    const text = `${SECRET}\n${'x'.repeat(10_000)}`;
    const path = file('big', text, 0o600);
    expect(readPrivateFile(path, { maxBytes: 4096, truncate: true, secret: true })?.toString('utf8')).toBe(text.slice(0, 4096));
    const why = refusal(path, { maxBytes: 4096 });
    expect(why).toContain('it is 10027 bytes, more than loopwatch writes there (4096)');
    expect(why).not.toContain(SECRET);
  });

  it('should read a 10 KiB token file by its first line, and refuse one others can read', () => {
    const path = file('serve.token', `${SECRET}\n${'#'.repeat(10_000)}\n`, 0o600);
    const t = serveTokenFile(path);
    expect(t.made).toBe(false);
    expect(t.token.accepts(`Bearer ${SECRET}`)).toBe(true);
    chmodSync(path, 0o644);
    expect(() => serveTokenFile(path)).toThrow(/others than its owner can read it \(mode 0644\)/);
  });
});
