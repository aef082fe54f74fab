/**
 * A lint run through a package runner that prints only the runner's banner has passed (quiet5; a real Codex
 * 0.104 session of holdout3, broken in both replays): `npm run lint` after each batch of `apply_patch` edits
 * answered "> codex-chrome-extension@0.1.0 lint\n> eslint .\n" each time: eslint printed nothing. Read as a
 * text that neither passed nor failed, the same answer after each edit was a behaviour the edits did not
 * change (a state repeat, stalled): broken at its fifth run one-phase, blocked at its seventh two-phase.
 * The banner is npm's, not the check's (src/text/runner-banner.ts): the run passed, and a check that
 * passed after each new edit is progress.
 * The stuck twin still fires: the same lint again and again with the same read between.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { printsOnlyBanner } from '../src/text/runner-banner.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const sh = (cmd: string, out: string): ToolEvent => ({ tool: 'exec_command', args: { cmd, yield_time_ms: 120000, max_output_tokens: 12000 }, result: out });
const LINT = '\n> codex-chrome-extension@0.1.0 lint\n> eslint .\n\n';
const lint = (): ToolEvent => sh('npm run lint', LINT);
const patch = (file: string, n: number): ToolEvent => ({
  tool: 'apply_patch',
  args: `*** Begin Patch\n*** Update File: ${file}\n@@\n-  const step = ${n - 1};\n+  const step = ${n};\n*** End Patch`,
  result: `Success. Updated the following files:\nM ${file}\n`,
});
const read = (file: string, from: number): ToolEvent => sh(`nl -ba ${file} | sed -n '${from},${from + 100}p'`, `   ${from}\texport function App(): JSX.Element {\n   ${from + 1}\t  const [mode, setMode] = useState('chat_only');\n`);

/** Reads, a batch of edits, then lint, build and test: five rounds. */
const rounds: ToolEvent[] = [1, 2, 3, 4, 5].flatMap((r) => [
  read('src/sidepanel/App.tsx', 100 * r),
  read('src/sidepanel/styles.css', 50 * r),
  ...Array.from({ length: 3 }, (_, k) => patch(k === 2 ? 'src/sidepanel/styles.css' : 'src/sidepanel/App.tsx', 10 * r + k)),
  lint(),
  sh('npm run build', `\n> codex-chrome-extension@0.1.0 build\n> vite build\n\nvite v5.4.21 building for production...\n✓ ${40 + r} modules transformed.\n✓ built in ${r}.2${r}s\n`),
]);

/** The same lint again and again, only the same read of the file between. */
const stuck: ToolEvent[] = [1, 2, 3, 4, 5, 6].flatMap(() => [read('src/sidepanel/App.tsx', 100), lint()]);

describe.each(ENGINES)('a lint printing only the runner\'s banner, after each batch of edits (%s engine)', (engine) => {
  it('should not break the session, one-phase', () => {
    expect(flaggedActions(rounds, engine)).not.toContain('break');
  });

  it('should not block a lint, two-phase', () => {
    expect(liveActions(rounds, engine)).not.toContain('deny');
  });

  it('should still break the same lint again and again with the same read between', () => {
    expect(flaggedActions(stuck, engine)).toContain('break');
  });
});

describe('the banner', () => {
  it('should read npm, pnpm and Yarn banners alone as printing nothing', () => {
    expect(printsOnlyBanner(LINT)).toBe(true);
    expect(printsOnlyBanner('\n> @acme/web@2.0.0-beta.1 typecheck /home/me/acme/web\n> tsc --noEmit\n\n')).toBe(true);
    expect(printsOnlyBanner('yarn run v1.22.19\n$ eslint src\nDone in 3.52s.\n')).toBe(true);
  });

  it('should not read a script\'s own output, or a lone line, as a banner', () => {
    expect(printsOnlyBanner('\n> app@0.1.0 lint\n> eslint .\n\n/src/a.ts\n  3:1  warning  Unexpected console statement\n')).toBe(false);
    expect(printsOnlyBanner('\n> app@0.1.0 test\n> vitest run\n\n RUN  v2.1.9\n')).toBe(false);
    expect(printsOnlyBanner('> note to self\n')).toBe(false);
    expect(printsOnlyBanner('$ ls\n')).toBe(false);
    expect(printsOnlyBanner('')).toBe(false);
  });
});
