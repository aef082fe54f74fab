/**
 * A patch refused because its context is not in the file (Codex's `apply_patch`: "Failed to find expected
 * lines"), followed by a different patch, is a new attempt, not the same wall hit again: the agent sends the
 * part that matches, which applies, then the rest in another shape (other context, a smaller hunk). Refused
 * writes, each a different one, while a write of their file applies between, are no wall (evidence-screen.ts
 * eachRefusalANewWrite), seen by the dead end's detector or by a detector of similar calls. The same patch sent
 * again after the same refusal is one, with a look at the file between or without; so are refused patches
 * that nothing written answers (policy-form-slips-answered: the agent cannot write the patch). Both engines,
 * one-phase and two-phase.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, liveActions, verdictsOf } from './helpers/verdicts.js';

const FILE = 'web/src/pages/Invoice.tsx';
const ABS = `/home/dev/billing/${FILE}`;

/** The lines of the page the patches of the date field take as context; the file's label is not in these words. */
const CONTEXT = '                <div>\n                  <label>Due date</label>\n                  <input type="date" value={invoice.dueDate} />';

/** A patch of the invoice page: `body` its hunks. */
const patch = (body: string): string => `*** Begin Patch\n*** Update File: ${FILE}\n${body}\n*** End Patch`;

/** The page's hunks: an import, a total, and the date field's change in three shapes. */
const HUNK = {
  importRef: "@@\n-import { useState } from 'react'\n+import { useState, useRef } from 'react'",
  total: '@@\n-  const total = lines.reduce((a, l) => a + l.amount, 0)\n+  const total = lines.reduce((a, l) => a + l.amount * l.qty, 0)',
  dateA: '@@\n-                <div>\n+                <div className="due">\n                   <label>Due date</label>\n-                  <input type="date" value={invoice.dueDate} />\n+                  <input ref={dueRef} type="date" value={invoice.dueDate} />',
  dateB: '@@\n                 <div>\n                   <label>Due date</label>\n-                  <input type="date" value={invoice.dueDate} />\n+                  <input ref={dueRef} type="date" value={invoice.dueDate} />',
  dateC: "@@\n                 <div>\n                   <label>Due date</label>\n-                  <input type=\"date\" value={invoice.dueDate} />\n+                  <input ref={dueRef} type=\"date\" value={invoice.dueDate ?? ''} />",
};

/** Codex's `apply_patch` of `body`, refused: the date field's context is not in the file. */
const refused = (body: string): ToolEvent => {
  const text = `apply_patch verification failed: Failed to find expected lines in ${ABS}:\n${CONTEXT}`;
  return { tool: 'apply_patch', args: patch(body), error: text, result: text };
};
/** Codex's `apply_patch` of `body`, applied. */
const applied = (body: string): ToolEvent => ({ tool: 'apply_patch', args: patch(body), result: `Success. Updated the following files:\nM ${FILE}\n` });
/** A look at lines `from`..`from + 30` of the page (its label garbled). */
const look = (from: number): ToolEvent => ({
  tool: 'shell',
  args: { command: ['bash', '-lc', `sed -n '${from},${from + 30}p' ${FILE}`] },
  result: `                <div>\n                  <label>Due \u00e6\u0097\u00a5</label>\n${from}`,
});

/** Import and date field in one patch, refused; the page looked at; the import alone applied; the date field in new shapes. */
const opening = [look(1), refused(`${HUNK.importRef}\n${HUNK.dateA}`), look(40), applied(HUNK.importRef)];
const newAttempts: ToolEvent[] = [...opening, refused(HUNK.dateA), refused(HUNK.dateB), refused(HUNK.dateC), applied(HUNK.total)];

/** The same, the date field's patch then sent again unchanged, the page looked at between. */
const samePatchAgain: ToolEvent[] = [...opening, refused(HUNK.dateA), look(40), refused(HUNK.dateA), applied(HUNK.total)];

/** The same, sent again at once. */
const samePatchAtOnce: ToolEvent[] = [...opening, refused(HUNK.dateA), refused(HUNK.dateA), applied(HUNK.total)];

/** New shapes of the date field's patch, looked at between, nothing of the page written. */
const nothingApplied: ToolEvent[] = [look(1), refused(HUNK.dateA), look(40), refused(HUNK.dateB), look(41), refused(HUNK.dateC), applied(HUNK.total)];

/** The index and kind of each warning one-phase checks give. */
const warnings = (events: readonly ToolEvent[], engine: (typeof ENGINES)[number]): string[] =>
  verdictsOf(events, { engine }).flatMap((v, i) => (v === null ? [] : [`${i}:${v.kind}`]));

describe.each(ENGINES)('a patch refused, then another patch (%s engine)', (engine) => {
  it('should not warn when each refused patch is a new one and a patch of the file applied between', () => {
    expect(warnings(newAttempts, engine)).toEqual([]);
    expect(liveActions(newAttempts, engine)).toEqual([]);
  });

  it('should still warn when the same refused patch is sent again, a look at the file between', () => {
    expect(warnings(samePatchAgain, engine)).toEqual(['6:dead_end']);
    expect(liveActions(samePatchAgain, engine).length).toBeGreaterThan(0);
  });

  it('should still warn when the same refused patch is sent again at once', () => {
    expect(warnings(samePatchAtOnce, engine)).toEqual(['5:dead_end']);
  });

  it('should still warn when nothing of the file was written between the new shapes', () => {
    expect(warnings(nothingApplied, engine)).toEqual(['5:dead_end']);
  });
});
