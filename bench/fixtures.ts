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
 * `n` events of a size. Calls come round again only every VARIANTS calls, so the numbers measure the
 * common path (no loop); `looping` streams are measured separately.
 */
export function events(size: Size, n: number, withResults = false): ToolEvent[] {
  const out: ToolEvent[] = [];
  for (let i = 0; i < n; i++) {
    const v = (i * 7) % VARIANTS;
    const e: ToolEvent = { tool: size === 'small' ? 'bash' : size === 'medium' ? 'str_replace_editor' : 'str_replace_editor', args: args(size, v) };
    out.push(withResults ? { ...e, result: v % 5 === 0 ? 'No results found.' : `done ${v}: ${'output line\n'.repeat(3 + (v % 4))}` } : e);
  }
  return out;
}

/** The same events with args as JSON text, as OpenAI delivers tool arguments. */
export function asJsonText(es: readonly ToolEvent[]): ToolEvent[] {
  return es.map((e) => ({ ...e, args: JSON.stringify(e.args) }));
}

/** Serialised size of an event's args, in bytes. */
export function argsBytes(e: ToolEvent): number {
  return Buffer.byteLength(typeof e.args === 'string' ? e.args : JSON.stringify(e.args));
}
