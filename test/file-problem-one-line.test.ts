/**
 * newuser31: serve said a state file's failure with two near-twins over fileFailure (`writeProblem` without
 * the file's name, `restoreProblem` with it); now one `fileProblem(e, named)` in src/text/file-failure.ts.
 * The same words as before for a file system error, with or without its path; another error is its message.
 */
import { describe, expect, it } from 'vitest';
import { fileProblem } from '../src/text/file-failure.js';

/** A file system error as Node makes it. */
function fsError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: oops, ${syscall} '${path}'`), { code, syscall, path, errno: -13 });
}

describe('fileProblem', () => {
  it('should say a file system error with its path and what to do, or without the path for a folder-wide problem', () => {
    const e = fsError('EACCES', 'open', '/state/3f2a.lwsession');
    expect(fileProblem(e)).toMatch(/^cannot \w+ \/state\/3f2a\.lwsession: permission denied; make the folder writable by you/);
    expect(fileProblem(e, false)).toMatch(/^permission denied; make the folder writable by you/);
    expect(fileProblem(fsError('ENOENT', 'open', '/state/x'), false)).not.toContain(';');
  });

  it('should give any other error as its message', () => {
    expect(fileProblem(new Error('not read: permission denied'))).toBe('not read: permission denied');
    expect(fileProblem(new Error('snapshot of another version'), false)).toBe('snapshot of another version');
    expect(fileProblem('thrown text')).toBe('thrown text');
  });
});
