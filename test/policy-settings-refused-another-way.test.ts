/**
 * A call the person's permission settings refused, with no prompt to ask them (Claude Code in a sub-agent or a
 * session that cannot prompt), waits on the person: the agent that then tries other ways (a script, `sed`, the
 * edit once more; another shop's page after one shop's was refused) is adapting, not looping. A dead end joined
 * those refusals by their words ("Claude requested permissions to write to <file>, but you haven't granted it
 * yet." each time) and warned. The same refused call sent again at once, or again and again, is still a wall:
 * warned or asked about, never broken. Both engines, one-phase and two-phase.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { needsPerson } from '../src/text/failure-kinds.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const NOTES = '/home/kim/wiki/docs/status.md';
const notGranted = (what: string): string => `Claude requested permissions to ${what}, but you haven't granted it yet.`;
const SHELL_OPS = 'This command uses shell operators that require approval for safety';
const SED = 'sed command requires approval (contains potentially dangerous operations)';
const autoDenied = 'Permission to use WebFetch has been auto-denied (prompts unavailable).';

const read = (offset: number): ToolEvent => ({ tool: 'Read', args: { file_path: NOTES, offset, limit: 40 }, result: `${offset}→## Status\n${offset + 1}→- parser: done\n${offset + 2}→- exporter: in review` });
const edit = (from: string, to: string, error?: string): ToolEvent => ({
  tool: 'Edit',
  args: { file_path: NOTES, old_string: from, new_string: to, replace_all: false },
  ...(error === undefined ? { result: `The file ${NOTES} has been updated successfully.` } : { error }),
});
const bash = (command: string, error: string): ToolEvent => ({ tool: 'Bash', args: { command }, error });

/**
 * Notes brought up to date: the first edit refused by the settings, the file read, a second edit refused, the
 * notes rewritten by a Python script and by `sed` (each refused by Claude Code's check of the command), the
 * second edit sent once more, refused, and the agent turning to the person.
 */
const triedOtherWays: ToolEvent[] = [
  read(1),
  edit('- parser: in progress', '- parser: done', notGranted(`write to ${NOTES}`)),
  read(20),
  edit('- exporter: todo', '- exporter: in review', notGranted(`write to ${NOTES}`)),
  bash(`python3 - <<'EOF'\nfrom pathlib import Path\np = Path('${NOTES}')\np.write_text(p.read_text().replace('todo', 'in review'))\nEOF`, SHELL_OPS),
  read(1),
  bash(`sed -i 's/exporter: todo/exporter: in review/' ${NOTES}`, SED),
  edit('- exporter: todo', '- exporter: in review', notGranted(`write to ${NOTES}`)),
  { tool: 'Bash', args: { command: `ls -la ${NOTES}` }, result: `-rw-r--r-- 1 kim kim 2291 Dec  6 10:02 ${NOTES}` },
];

/** Product pictures looked up shop by shop: some shops' pages fetched, others refused by the settings, searched for instead. */
const page = (shop: string, item: string): ToolEvent => ({ tool: 'WebFetch', args: { url: `https://${shop}/products/${item}`, prompt: 'the main product image URL' } });
const pictures: ToolEvent[] = [
  { ...page('racquets.example', 'axe-80'), result: 'The main product image is https://racquets.example/cdn/ax80.png' },
  { ...page('courtside.example', 'storm-72'), error: autoDenied },
  { tool: 'WebSearch', args: { query: 'storm 72 racket product image retailer' }, result: 'Links: [{"title":"Storm 72 - Shuttle Shop","url":"https://shuttle.example/storm-72"}]' },
  { tool: 'WebSearch', args: { query: 'turbo 75 racket product image retailer' }, result: 'Links: [{"title":"Turbo 75 - Courtside","url":"https://courtside.example/turbo-75"}]' },
  { ...page('shuttle.example', 'storm-72'), error: autoDenied },
  { ...page('racquets.example', 'storm-72-blue'), result: 'The main product image is https://racquets.example/cdn/storm.png' },
  { ...page('courtside.example', 'turbo-75'), error: autoDenied },
  { tool: 'Bash', args: { command: 'curl -s https://courtside.example/products/turbo-75 | grep -o "https://[^\\"]*cdn[^\\"]*png" | head -1' }, result: 'https://courtside.example/cdn/turbo75.png' },
];

/** A report written, refused, and written again at once, unchanged, twice. */
const REPORT = { file_path: '/work/research/feasibility.md', content: '# Feasibility\n\n## Maps\nMapbox: 50k loads free a month.\n' };
const writtenAgain: ToolEvent[] = [
  { tool: 'TodoWrite', args: { todos: [{ content: 'write the report', status: 'in_progress' }] }, result: 'Todos have been modified successfully.' },
  { tool: 'Write', args: { ...REPORT, content: `${REPORT.content}\n` }, error: notGranted(`write to ${REPORT.file_path}`) },
  { tool: 'Write', args: REPORT, error: notGranted(`write to ${REPORT.file_path}`) },
  { tool: 'Write', args: REPORT, error: notGranted(`write to ${REPORT.file_path}`) },
];

/** The same edit refused, the file read between each try: again and again. */
const sameEditAgain: ToolEvent[] = [read(1), ...[20, 40, 60].flatMap((at) => [edit('- exporter: todo', '- exporter: in review', notGranted(`write to ${NOTES}`)), read(at)])];

describe('the texts', () => {
  it("should read Claude Code's refusals for want of a permission or an approval as wanting a person", () => {
    expect(needsPerson(notGranted(`write to ${NOTES}`))).toBe(true);
    expect(needsPerson(notGranted('use WebSearch'))).toBe(true);
    expect(needsPerson(SHELL_OPS)).toBe(true);
    expect(needsPerson(SED)).toBe(true);
    expect(needsPerson('This command requires approval')).toBe(true);
    expect(needsPerson('Commands that change directories and perform write operations require explicit approval to ensure paths are evaluated correctly.')).toBe(true);
  });

  it('should not read an approval or a grant mentioned in output as the settings refusing', () => {
    expect(needsPerson('Deploy step: this release requires approval from a maintainer')).toBe(false);
    expect(needsPerson("grep: the user hasn't granted it yet")).toBe(false);
    expect(needsPerson('npm ERR! code E403 ... you have not granted it yet')).toBe(false);
  });
});

describe.each(ENGINES)('calls refused by the settings, then another way (%s engine)', (engine) => {
  it('should not warn about an edit refused, then a script, sed and the edit once more, one-phase or two-phase', () => {
    expect(flaggedActions(triedOtherWays, engine)).toEqual([]);
    expect(liveActions(triedOtherWays, engine)).toEqual([]);
  });

  it("should not warn about pages refused shop by shop while others' are fetched, one-phase or two-phase", () => {
    expect(flaggedActions(pictures, engine)).toEqual([]);
    expect(liveActions(pictures, engine)).toEqual([]);
  });

  it('should still warn, never break, about a refused write sent again at once', () => {
    const flagged = flaggedActions(writtenAgain, engine);
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged).not.toContain('break');
  });

  it('should still warn, never break, about the same refused edit again and again', () => {
    const flagged = flaggedActions(sameEditAgain, engine);
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged).not.toContain('break');
    expect(liveActions(sameEditAgain, engine).length).toBeGreaterThan(0);
  });
});
