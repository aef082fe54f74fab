/**
 * A report's field lines are structure, not chant (src/text/structure-lines.ts): an agent's closing report,
 * carried by a to-do list write, whose sections each hold the same `**Status**: Fully Implemented` line
 * between headings and list items (holdout9, a Claude Code sidechain's last two TodoWrite calls, warned
 * `chanting` at the second; trimmed and anonymised). The lines left to the period search were the field
 * lines alone, back to back. Both engines; prose said over is still chanting; streamed in pieces alike.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { ToolEvent, Verdict } from '../src/index.js';
import { StructureFilter } from '../src/text/structure-lines.js';
import { ENGINES } from './helpers/verdicts.js';

const todos = (status: string) => ({ todos: [1, 2, 3].map((n) => ({ content: `Check feature ${n}`, id: String(n), status })) });

/** The report: a heading, the field line and two list items for each of 12 features. */
function report(field: string): string {
  let s = '# Application Analysis Report\n\n## Summary\n\nThe application builds and every feature asked for is there.\n\n';
  for (let k = 1; k <= 12; k++) s += `### ✅ **${k}. Feature ${k}**\n${field}\n- **Page** (\`src/pages/P${k}.tsx\`):\n  - tracking and reports\n\n`;
  return s;
}

/** The sidechain's end: the build, then two to-do list writes, the second carrying the report. */
function shape(field: string): ToolEvent[] {
  return [
    { tool: 'Bash', args: { command: 'npm run build' }, text: 'Let me check that the project builds.', result: '✓ built in 9.1s' },
    { tool: 'TodoWrite', args: todos('completed'), text: 'Great! The build completed with no errors. Let me now write the report:', result: 'Todos have been modified successfully.' },
    { tool: 'TodoWrite', args: todos('completed'), text: report(field), result: 'Todos have been modified successfully.' },
  ];
}

function kinds(events: readonly ToolEvent[], engine: (typeof ENGINES)[number]): string[] {
  const d = new LoopDetector({ engine });
  try {
    return events.map((e) => (d.check(e) as Verdict | null)?.signals.map((s) => s.kind).join('+') ?? '-');
  } finally {
    d.dispose();
  }
}

describe('a report whose sections repeat a field line', () => {
  for (const engine of ENGINES) {
    it(`should not be chanting (${engine}), in either field form`, () => {
      expect(kinds(shape('**Status**: Fully Implemented'), engine)).toEqual(['-', '-', '-']);
      expect(kinds(shape('**Status:** Fully Implemented'), engine)).toEqual(['-', '-', '-']);
    });

    it(`should still be chanting when the same line is prose (${engine})`, () => {
      expect(kinds(shape('The status is that it is fully implemented.'), engine)[2]).toContain('chanting');
    });
  }

  it('should class field lines as structure and bold prose as prose', () => {
    const f = new StructureFilter();
    for (const line of ['**Status**: done', '  **Build Status:** ok', '**Implementation Status** : partial']) expect(f.isProse(line)).toBe(false);
    for (const line of ['**Note** that this is: prose', '**Status** is done', 'Status: done', '**' + 'x'.repeat(61) + '**: too long a label']) expect(f.isProse(line)).toBe(true);
  });

  it('should read a field line streamed in pieces as it reads it whole', () => {
    for (const engine of ENGINES) {
      const d = new LoopDetector({ engine });
      try {
        const hits: string[] = [];
        for (let k = 0; k < 14; k++) {
          for (const piece of ['### Feature\n', '**Implementation Sta', 'tus**: Fully Implemented', '\n']) {
            const v = d.checkText(piece);
            if (v !== null) hits.push(v.kind);
          }
        }
        expect(hits).toEqual([]);
      } finally {
        d.dispose();
      }
    }
  });
});
