/**
 * Text the reports put out, made safe where it goes (src/report/embed-json.ts, markdown-summary.ts,
 * shown-text.ts): JSON in a <script> element never holds `<`, `>`, `&` or the line separators yet parses
 * back to the same value; HTML text escapes markup and quotes; a Markdown cell stays one cell, on one line,
 * rendered as written; secrets are redacted after the text is capped.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, scriptJson } from '../src/report/embed-json.js';
import { CELL_CAP, markdownCell } from '../src/report/markdown-summary.js';
import { shown } from '../src/report/shown-text.js';

const HOSTILE = ['</script><script>alert(1)</script>', '</SCRIPT >', '<!-- <script>', 'a\u2028b\u2029c', '"\'&amp;<>', '\\u003c'];

describe('report text', () => {
  it('should embed any value as JSON a script element cannot be broken out of, and parse back to it', () => {
    for (const s of HOSTILE) {
      const json = scriptJson({ s, list: [s] });
      expect(json).not.toMatch(/[<>&\u2028\u2029]/);
      expect(JSON.parse(json)).toEqual({ s, list: [s] });
    }
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const json = scriptJson(v);
        expect(json).not.toMatch(/[<>&\u2028\u2029]/);
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
  });

  it('should escape markup and quotes in HTML text', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('should keep a Markdown cell one cell on one line, every special character escaped', () => {
    expect(markdownCell('a|b')).toBe('a\\|b');
    expect(markdownCell('x\n|y\r\n\tz')).toBe('x \\|y z');
    expect(markdownCell('<b>*em* _u_ [l](u) `c` ~s~ &amp; $x$ \\')).toBe('\\<b\\>\\*em\\* \\_u\\_ \\[l\\](u) \\`c\\` \\~s\\~ \\&amp; \\$x\\$ \\\\');
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        const cell = markdownCell(s);
        expect(cell).not.toMatch(/[\r\n]/);
        // every pipe is escaped: no pipe after an even run of backslashes
        expect(cell).not.toMatch(/(^|[^\\])(\\\\)*\|/);
      }),
    );
  });

  it('should cap text before redacting it', () => {
    expect(shown('api_key=abcdef123456', 100)).toBe('api_key=[REDACTED]');
    expect(shown('x'.repeat(10), 5)).toBe('xxxx…');
    expect(markdownCell('y'.repeat(CELL_CAP + 50))).toHaveLength(CELL_CAP);
  });
});
