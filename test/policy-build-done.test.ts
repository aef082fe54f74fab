/**
 * A CMake build that ends `[100%] Built target <name>` has passed (quiet12; a real Codex session of
 * holdout7, broken in both replays): `cmake --build . -j 4` after each `apply_patch` of a CUDA engine
 * answered the same progress lines each time (`[ 59%] Building CUDA object ...`, `[ 61%] Linking CXX
 * executable kangaroo`, `[100%] Built target kangaroo`). No pass pattern is in them, so the same answer
 * after each edit read as a behaviour the edits did not change (a state repeat, stalled): broken at the
 * fourth build since its window began, one-phase and two-phase. Every target built is a pass
 * (src/text/build-done.ts), and a check that passed after each new edit is progress.
 * The stuck twin still fires: the same build again and again with only the same read between.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { reportsBuildDone } from '../src/text/build-done.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const sh = (command: string, out: string): ToolEvent => ({ tool: 'shell_command', args: { command, timeout_ms: 120000 }, result: out });
const BUILT = [
  '[ 21%] Built target secpk1',
  '[ 34%] Built target ec_verification_test',
  '[ 43%] Built target optimized_checkpoint',
  '[ 59%] Building CUDA object CMakeFiles/kangaroo.dir/GPU/GPUEngine.cu.o',
  '[ 60%] Linking CUDA device code CMakeFiles/kangaroo.dir/cmake_device_link.o',
  '[ 61%] Linking CXX executable kangaroo',
  '[100%] Built target kangaroo',
  '',
].join('\n');
const build = (): ToolEvent => sh('cd /src/Kangaroo/build && cmake --build . -j 4', BUILT);
const patch = (n: number): ToolEvent => ({
  tool: 'apply_patch',
  args: `*** Begin Patch\n*** Update File: GPU/GPUEngine.cu\n@@\n-  int slot = ${n - 1};\n+  int slot = ${n};\n*** End Patch`,
  result: 'Success. Updated the following files:\nM GPU/GPUEngine.cu\n',
});
const read = (from: number): ToolEvent => sh(`cd /src/Kangaroo && sed -n '${from},${from + 40}p' GPU/GPUEngine.cu`, `  int slotToCopy = activeResultSlot;\n  uint32_t nbFound = ${from};\n`);

/** A read, a patch of the one file, then the build: eight rounds. */
const rounds: ToolEvent[] = [1, 2, 3, 4, 5, 6, 7, 8].flatMap((r) => [read(100 * r), patch(r), build()]);

/** The same build again and again, only the same read between. */
const stuck: ToolEvent[] = [1, 2, 3, 4, 5, 6].flatMap(() => [read(100), build()]);

describe.each(ENGINES)('a CMake build ending with its last target built, after each patch (%s engine)', (engine) => {
  it('should not break the session, one-phase', () => {
    expect(flaggedActions(rounds, engine)).not.toContain('break');
  });

  it('should not block a build, two-phase', () => {
    expect(liveActions(rounds, engine)).not.toContain('deny');
  });

  it('should still break the same build again and again with the same read between', () => {
    expect(flaggedActions(stuck, engine)).toContain('break');
  });
});

describe('the build', () => {
  it('should read CMake\'s last target built as done', () => {
    expect(reportsBuildDone(BUILT)).toBe(true);
    expect(reportsBuildDone('[100%] Built target app')).toBe(true);
    expect(reportsBuildDone('Scanning dependencies of target app\n[ 50%] Building C object a.o\n[100%] Built target app\n\n')).toBe(true);
  });

  it('should not read a build cut off, failing or still going as done', () => {
    expect(reportsBuildDone('[ 15%] Built target secpk1\n[ 35%] Building CXX object a.o\n')).toBe(false);
    expect(reportsBuildDone('[100%] Built target app\n[ 50%] Building C object b.o\nmake[2]: *** [b.o] Error 1\n')).toBe(false);
    expect(reportsBuildDone('note: [100%] Built target app')).toBe(false);
    expect(reportsBuildDone('')).toBe(false);
    expect(reportsBuildDone(`${'x'.repeat(5000)}\n[100%] Built target app`)).toBe(false);
  });
});
