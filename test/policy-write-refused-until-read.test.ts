/**
 * Claude Code refuses a Write or Edit of a file the session has not read ("File has not been read yet. Read
 * it first before writing to it."): after a compaction, the reads made before it are forgotten, so writes of
 * files the agent knows well are refused until it reads them again. The agent does: it reads the file, and
 * goes on. Such refusals, each answered by a read of its file, are no wall (quiet24, s21: devset 5515aa87
 * #88-#99, two files each refused twice, each then read; warned at #96 before). The read did not help when the
 * write fails again on that file after it (devset 796f117a #141-#148: "File has been unexpectedly modified.
 * Read it again before attempting to write it." after every read, on Windows): that stays a dead end, and so
 * does a write refused again and again with no read between.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, liveActions, verdictsOf } from './helpers/verdicts.js';

const DIR = '/home/dev/gym/app/lib/services';
const NOT_READ = '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>';
const MODIFIED = 'File has been unexpectedly modified. Read it again before attempting to write it.';

/** A whole-file write of `file` the harness refused: the session has not read it. */
const refused = (file: string, n: number): ToolEvent => ({ tool: 'Write', args: { file_path: `${DIR}/${file}`, content: `export const v${n} = ${n};\n` }, error: NOT_READ });
/** A read of `file`, its numbered lines. */
const read = (file: string): ToolEvent => ({ tool: 'Read', args: { file_path: `${DIR}/${file}` }, result: `     1→/**\n     2→ * ${file}\n     3→ */` });
/** A new file written. */
const wrote = (file: string): ToolEvent => ({ tool: 'Write', args: { file_path: `${DIR}/${file}`, content: 'export {};\n' }, result: `File created successfully at: ${DIR}/${file}` });
const todo = (n: number): ToolEvent => ({ tool: 'TodoWrite', args: { todos: [{ content: `step ${n}`, status: 'in_progress' }] }, result: 'Todos have been modified successfully.' });
const install = (): ToolEvent => ({ tool: 'Bash', args: { command: 'npm install xlsx papaparse --save' }, result: 'added 121 packages in 5s' });
/** An edit of `file` refused as changed since it was read. */
const stale = (file: string, n: number): ToolEvent => ({ tool: 'Edit', args: { file_path: `${DIR}/${file}`, old_string: `import a${n}`, new_string: `import b${n}` }, error: MODIFIED });

/** 5515aa87 #88-#100: a file refused twice, read; another written; a second file refused twice, then read. */
const answered: ToolEvent[] = [
  wrote('routes.ts'),
  refused('migration-service.ts', 1),
  refused('migration-service.ts', 2),
  read('migration-service.ts'),
  todo(1),
  wrote('status-page.tsx'),
  todo(2),
  install(),
  refused('ai-data-analyzer.ts', 3),
  refused('ai-data-analyzer.ts', 4),
  read('ai-data-analyzer.ts'),
  todo(3),
];

/** 796f117a #141-#148: read, edit refused as modified, read again, refused again, and again. */
const readInVain: ToolEvent[] = [read('server.js'), stale('server.js', 1), read('server.js'), stale('server.js', 2), todo(1), read('server.js'), stale('server.js', 3)];

/** The same write refused again and again, nothing read between. */
const neverRead: ToolEvent[] = [wrote('routes.ts'), refused('migration-service.ts', 1), refused('migration-service.ts', 2), todo(1), refused('migration-service.ts', 3)];

/** A file refused, read, refused again; another refused and read: the first's refusals stay the agent's own. */
const oneReadInVain: ToolEvent[] = [refused('a.ts', 1), read('a.ts'), refused('a.ts', 2), refused('b.ts', 3), read('b.ts'), refused('a.ts', 4)];

const deadEnds = (events: readonly ToolEvent[], engine: (typeof ENGINES)[number]): number => verdictsOf(events, { engine }).filter((v) => v?.kind === 'dead_end').length;

describe.each(ENGINES)('writes refused until their file is read (%s engine)', (engine) => {
  it('should not be a dead end when each refusal is answered by a read of its file', () => {
    expect(deadEnds(answered, engine)).toBe(0);
    expect(liveActions(answered, engine)).toEqual([]);
  });

  it('should still be a dead end when the write fails again on the file after each read', () => {
    expect(deadEnds(readInVain, engine)).toBeGreaterThan(0);
  });

  it('should still be a dead end when the write is refused again with no read between', () => {
    expect(deadEnds(neverRead, engine)).toBeGreaterThan(0);
  });

  it('should count the refusals of a file that failed again after its read, beside one answered', () => {
    expect(deadEnds(oneReadInVain, engine)).toBeGreaterThan(0);
  });
});
