/**
 * A read of a file that is not there is a probe that found nothing, not the agent's wall (quiet11: "probes
 * that found nothing taken as one wall"). Codex sessions exploring a repository guess where files live:
 * holdout3 019cb8f7 `sed -n '1,260p' AGENTS.md` ("sed: can't read AGENTS.md: No such file or directory") after
 * an `ls` of a missing folder and `rg` missing; holdout 019b2953 `ls Dockerfile*`, `ls package.json`, then
 * `sed -n '1,200p' backend/app/services/lottery_service.py` (a dead end, "the same error 6 times"); holdout5
 * 019ac0c3 `sed` of a Next.js page under `(tasks)/` not there, `ls apps/front/config` not there. A printer's
 * (cat, head, nl, sed -n: file-read.ts's printsFiles) failure saying only that its paths are not there marks
 * the call CallFact.SILENT (src/text/missing-read.ts, read in outcome-facts.ts), as an `ls` of missing paths
 * is: different such probes are no dead end. The same read failing again and again still fires, and so do a
 * printer failing another way and a write or a build saying "No such file or directory".
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { readMissingFile } from '../src/text/missing-read.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const W = '/workspaces/platform';
/** A Codex `exec_command` failing with exit 1 and `text`. */
const failing = (cmd: string, text: string): ToolEvent => ({ tool: 'exec_command', args: { cmd, workdir: W }, result: `Process exited with code 1\nOutput:\n${text}`, error: text });
const ok = (cmd: string, result: string): ToolEvent => ({ tool: 'exec_command', args: { cmd, workdir: W }, result });
const gone = (program: string, path: string): string => `${program}: ${path}: No such file or directory`;

const PROBES: ToolEvent[] = [
  ok('ls -la', 'README.md\ndocs\nsrc'),
  failing("sed -n '1,260p' AGENTS.md", "sed: can't read AGENTS.md: No such file or directory"),
  ok("sed -n '1,260p' README.md", '# platform\nplatform architect for custom soc'),
  failing('cat docs/ARCHITECTURE.md', gone('cat', 'docs/ARCHITECTURE.md')),
  ok('ls docs', 'prd.md'),
  failing("sed -n '1,200p' src/app/services/lottery_service.py", gone('sed', 'src/app/services/lottery_service.py')),
  ok('ls src/app/services', '__init__.py\nauth.py\nevent_service.py'),
  failing('head -50 src/app/config.py', gone('head', 'src/app/config.py')),
  ok("sed -n '1,200p' src/app/services/event_service.py", 'from fastapi import APIRouter\nrouter = APIRouter()'),
];

/** The same read of a missing file, again and again. */
const SAME: ToolEvent[] = Array.from({ length: 6 }, () => failing("sed -n '1,260p' AGENTS.md", "sed: can't read AGENTS.md: No such file or directory"));

describe('a read of files not there', () => {
  it('should read a printer saying only that its paths are not there', () => {
    expect(readMissingFile("sed -n '1,260p' AGENTS.md", "sed: can't read AGENTS.md: No such file or directory")).toBe(true);
    expect(readMissingFile('cat .gitignore', gone('cat', '.gitignore'))).toBe(true);
    expect(readMissingFile("bash -lc sed -n '1,200p' 'apps/front/app/(tasks)/[taskId]/page.tsx'", gone('sed', 'apps/front/app/(tasks)/[taskId]/page.tsx'))).toBe(true);
    expect(readMissingFile('cat a b', `Exit code 1\n${gone('cat', 'b')}`)).toBe(true);
  });

  it('should read other failures, other programs, writes, chains and pipes as real failures', () => {
    expect(readMissingFile('cat /root/x', 'cat: /root/x: Permission denied')).toBe(false);
    expect(readMissingFile('cat src', 'cat: src: Is a directory')).toBe(false);
    expect(readMissingFile('cat a | grep x', gone('cat', 'a'))).toBe(false);
    expect(readMissingFile('cat a && make', gone('cat', 'a'))).toBe(false);
    expect(readMissingFile("sed -i 's/a/b/' x", gone('sed', 'x'))).toBe(false);
    expect(readMissingFile('python app.py', "python: can't open file 'app.py': [Errno 2] No such file or directory")).toBe(false);
    expect(readMissingFile('cat a b', `${gone('cat', 'b')}\nbash: line 1: foo: command not found`)).toBe(false);
    expect(readMissingFile('cat a', 'Exit code 1')).toBe(false);
  });
});

describe.each(ENGINES)('reads of files not there while exploring (%s engine)', (engine) => {
  it('should not flag different reads of missing files, one- or two-phase', () => {
    expect(flaggedActions(PROBES, engine)).toEqual([]);
    expect(liveActions(PROBES, engine)).toEqual([]);
  });

  it('should still flag the same read failing again and again', () => {
    expect(flaggedActions(SAME, engine)).toContain('break');
    expect(liveActions(SAME, engine)).toContain('deny');
  });
});
