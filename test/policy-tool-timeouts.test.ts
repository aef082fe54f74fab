/**
 * A command stopped at the tool's time limit is the environment's limit, not the agent repeating a failed
 * idea (quiet13; a real Codex 0.6x session of holdout7, broken one-phase at #266): `cmake --build . -j 4`
 * run with `"timeout_ms": 120000` after each `apply_patch`; twice the build was cut at 120 s (exit code 124,
 * no "timed out" text in Codex 0.6x) and run again at once, and that run finished it (`[100%] Built target
 * kangaroo`). Read as the build failing, the gap between the cut run and the next held no change, so the same
 * answer after the patches read as a stall (a state repeat): broken. The status 124 is kept by the Codex
 * reader (codex-output.ts) and read as a timeout (src/text/timeout-exit.ts: an infrastructure failure), and
 * a run stopped so is no repetition of the check: the run after it finishes it (evidence-screen.ts).
 * The stuck twin still breaks: the same build failing on the same error again and again, reads between.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { codexOutcome } from '../src/formats/codex-output.js';
import { isInfraFailure } from '../src/text/infra-failure.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const BUILD = 'cd /src/Kangaroo/build && cmake --build . -j 4';
const sh = (command: string, out: string, error?: string): ToolEvent => ({ tool: 'shell_command', args: { command, timeout_ms: 120000 }, result: out, ...(error === undefined ? {} : { error }) });
const BUILT = [
  '[ 21%] Built target secpk1',
  '[ 43%] Built target optimized_checkpoint',
  '[ 59%] Building CUDA object CMakeFiles/kangaroo.dir/GPU/GPUEngine.cu.o',
  '[ 61%] Linking CXX executable kangaroo',
  '[100%] Built target kangaroo',
  '',
].join('\n');
const CUT = ['[ 15%] Built target secpk1', '[ 35%] Building CXX object CMakeFiles/optimized_checkpoint.dir/src/checkpoint/OptimizedCheckpoint.cpp.o', '[ 86%] Building CXX object CMakeFiles/kangaroo.dir/GPU/GPUGenerate.cpp.o', ''].join('\n');
/** The reader's text of a Codex 0.6x build stopped at its `timeout_ms`. */
const CUT_TEXT = (codexOutcome(`Exit code: 124\nWall time: 120 seconds\nOutput:\n${CUT}`).error as string | undefined) ?? '';
const build = (): ToolEvent => sh(BUILD, BUILT);
const cut = (): ToolEvent => sh(BUILD, CUT_TEXT, CUT_TEXT);
const patch = (n: number): ToolEvent => ({
  tool: 'apply_patch',
  args: `*** Begin Patch\n*** Update File: src/core/K${n}.h\n@@\n-  static constexpr size_t LIMIT = ${n};\n+  static constexpr size_t LIMIT = ${n + 1};\n*** End Patch`,
  result: `Success. Updated the following files:\nM src/core/K${n}.h\n`,
});
const read = (from: number): ToolEvent => sh(`cd /src/Kangaroo && sed -n '${from},${from + 40}p' GPU/GPUEngine.cu`, `  int slot = ${from};\n`);

/** A read, a patch, the build; every third build cut at the time limit and run again at once. */
const rounds: ToolEvent[] = [1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((r) => (r % 3 === 0 ? [read(100 * r), patch(r), cut(), build()] : [read(100 * r), patch(r), build()]));

/** The same build failing on the same error, only the same read between. */
const ERROR = '[ 35%] Building CXX object a.o\nsrc/a.cpp:12:5: error: use of undeclared identifier \'x\'\ngmake: *** [Makefile:91: all] Error 2\n';
const stuck: ToolEvent[] = [1, 2, 3, 4, 5, 6].flatMap(() => [read(100), sh(BUILD, ERROR, ERROR)]);

describe.each(ENGINES)('a build cut at the tool\'s time limit and run again at once, after each patch (%s engine)', (engine) => {
  it('should not break the session, one-phase', () => {
    expect(flaggedActions(rounds, engine)).not.toContain('break');
  });

  it('should not block a build, two-phase', () => {
    expect(liveActions(rounds, engine)).not.toContain('deny');
  });

  it('should still break the same build failing on the same error, reads between', () => {
    expect(flaggedActions(stuck, engine)).toContain('break');
  });
});

describe('exit status 124', () => {
  it('should be kept by the Codex reader before the output, unless Codex said it timed out', () => {
    expect(CUT_TEXT.startsWith('Exit code: 124\n[ 15%]')).toBe(true);
    expect(codexOutcome('Exit code: 124\nWall time: 10 seconds\nOutput:\ncommand timed out after 10012 milliseconds\n').error).toBe('command timed out after 10012 milliseconds\n');
    expect(codexOutcome('Exit code: 2\nWall time: 9 seconds\nOutput:\nError 2\n').error).toBe('Error 2\n');
  });

  it('should be read as a timeout on the first line, in each harness\'s words', () => {
    expect(isInfraFailure(CUT_TEXT)).toBe(true);
    expect(isInfraFailure('Exit code 124\nSSH-2.0-OpenSSH_8.1')).toBe(true); // Claude Code, `timeout 5 ...`
    expect(isInfraFailure('[exit 124] Quit the server with CONTROL-C.')).toBe(true);
    expect(isInfraFailure('Exited with code 124.Final output:\n\n')).toBe(true);
  });

  it('should not read another status, or 124 elsewhere, as a timeout', () => {
    expect(isInfraFailure('Exit code 1\nerror: 124 tests failed')).toBe(false);
    expect(isInfraFailure('Exit code 1240\n')).toBe(false);
    expect(isInfraFailure('line 124: syntax error\nExit code 124')).toBe(false);
  });
});
