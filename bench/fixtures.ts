/**
 * Benchmark events of three sizes (small ~24 B, medium ~500 B nested, large ~8 KB edit), with variants so
 * that detectors see realistic mixes of repeats and new calls. Built deterministically (no randomness).
 */
import type { ToolEvent } from '../src/types.js';

/** Argument sizes the suite measures. */
export type Size = 'small' | 'medium' | 'large';

const PY = `import os\nimport sys\nfrom typing import Iterable, Optional\n\n\nclass Parser:\n    """Parses ISO dates and times, with time zones."""\n\n    def __init__(self, strict: bool = True) -> None:\n        self.strict = strict\n        self.cache: dict[str, tuple[int, int, int]] = {}\n\n    def parse(self, text: str, tz: Optional[str] = None) -> tuple[int, int, int]:\n        if text in self.cache:\n            return self.cache[text]\n        year, month, day = (int(p) for p in text.split('-'))\n        if self.strict and not (1 <= month <= 12):\n            raise ValueError(f'bad month in {text!r}')\n        self.cache[text] = (year, month, day)\n        return year, month, day\n\n`;

function largeContent(variant: number): string {
  let s = '';
  let i = 0;
  while (s.length < 8000) s += PY.replace('Parser', `Parser${variant}_${i++}`);
  return s.slice(0, 8000);
}

const WORDS = ['profile', 'billing', 'invoice', 'settings', 'avatar', 'session', 'search', 'upload', 'report', 'export', 'login', 'cart', 'order', 'review', 'inbox', 'calendar', 'theme', 'locale', 'metrics', 'audit'];
const word = (v: number, k: number): string => WORDS[(v * (k + 3) + k) % WORDS.length] as string;

function args(size: Size, variant: number): Record<string, unknown> {
  switch (size) {
    case 'small':
      return { command: `${['ls -la', 'git diff', 'cat', 'grep -n'][variant % 4] as string} ${word(variant, 0)}${variant}` };
    case 'medium':
      return {
        path: `/workspace/project/src/components/${word(variant, 1)}/${word(variant, 2)}View.tsx`,
        options: {
          encoding: 'utf-8',
          flags: ['read', 'write', 'create'],
          retries: 3,
          timeoutMs: 30000,
          metadata: { author: 'agent-7', tags: ['refactor', word(variant, 3), 'typescript', word(variant, 4)], created: '2024-05-01T12:00:00Z', reviewed: false },
        },
        ranges: [
          { start: 10 + variant, end: 42 },
          { start: 120, end: 188 },
          { start: 300, end: 356 },
        ],
        search: { pattern: `function\\s+use${word(variant, 5)}`, caseSensitive: true, wholeWord: false, maxResults: 50 },
        note: `Update the ${word(variant, 6)} hook so that it memoises the ${word(variant, 7)} state and stops re-rendering the ${word(variant, 8)} list.`,
      };
    case 'large':
      return { command: 'create', path: `/workspace/project/app/parser_${variant}.py`, file_text: largeContent(variant % 4) };
  }
}

/** Distinct calls per session before they come round again: more than any default window. */
export const VARIANTS = 61;

/**
 * `n` events of a size. Calls come round again only every VARIANTS calls, and with `withResults` every
 * call gets a result of its own (about 200 bytes), as working agents' calls do: the numbers measure the
 * detection work on the common path, where no loop is found.
 */
export function events(size: Size, n: number, withResults = false): ToolEvent[] {
  const out: ToolEvent[] = [];
  for (let i = 0; i < n; i++) {
    const v = (i * 7) % VARIANTS;
    const tool = size === 'small' ? 'bash' : 'str_replace_editor';
    out.push(
      withResults
        ? { tool, args: args(size, v), result: `exit 0 after ${i} ms\n${word(i, 1)} ${word(i, 2)} ${i * 31}\n${'output line\n'.repeat(12)}` }
        : { tool, args: args(size, v) },
    );
  }
  return out;
}

/** A session stuck in a loop: the same failing call, or an A-B cycle, again and again. */
export function looping(size: Size, n: number): ToolEvent[] {
  const a: ToolEvent = { tool: 'str_replace_editor', args: args(size, 1), error: 'ERROR: No replacement was performed, old_str did not appear verbatim.' };
  const b: ToolEvent = { tool: 'bash', args: { command: 'pytest -q tests/test_parser.py' }, result: '1 failed, 11 passed in 0.42s', error: '[exit 1] 1 failed' };
  return Array.from({ length: n }, (_, i) => (i % 2 === 0 ? a : b));
}

/** The same events with args as JSON text, as OpenAI delivers tool arguments. */
export function asJsonText(es: readonly ToolEvent[]): ToolEvent[] {
  return es.map((e) => (e.result === undefined ? { tool: e.tool, args: JSON.stringify(e.args) } : { tool: e.tool, args: JSON.stringify(e.args), result: e.result }));
}

/** Serialised size of an event's args, in bytes. */
export function argsBytes(e: ToolEvent): number {
  return Buffer.byteLength(typeof e.args === 'string' ? e.args : JSON.stringify(e.args));
}
