/**
 * Benchmark events of three sizes (small ~24 B, medium ~500 B nested, large ~8 KB edit), with variants so
 * that detectors see realistic mixes of repeats and new calls. Built deterministically (no randomness).
 */
import type { ToolEvent } from '../src/types.js';

/** Argument sizes the suite measures. */
export type Size = 'small' | 'medium' | 'large';

const WORDS = [
  'profile', 'billing', 'invoice', 'settings', 'avatar', 'session', 'search', 'upload', 'report', 'export', 'login', 'cart',
  'order', 'review', 'inbox', 'calendar', 'theme', 'locale', 'metrics', 'audit', 'payment', 'shipping', 'catalog', 'coupon',
  'wishlist', 'refund', 'ticket', 'webhook', 'scheduler', 'backup', 'cache', 'quota', 'tenant', 'invite', 'comment', 'upvote',
  'draft', 'archive', 'preview', 'thumbnail', 'encoder', 'decoder', 'parser', 'lexer', 'router', 'gateway', 'worker', 'queue',
];
const VERBS = ['update', 'refactor', 'rename', 'extract', 'inline', 'memoise', 'validate', 'paginate', 'debounce', 'retry', 'log', 'trace', 'cache', 'split', 'merge', 'guard'];
const word = (v: number, k: number): string => WORDS[(v * (k * 7 + 3) + k * 11) % WORDS.length] as string;
const verb = (v: number, k: number): string => VERBS[(v * (k + 5) + k) % VERBS.length] as string;

/** About 8 KB of Python whose identifiers depend on the variant (files an agent writes differ). */
function largeContent(variant: number): string {
  let s = '';
  let i = 0;
  while (s.length < 8000) {
    const a = word(variant + i, 1);
    const b = word(variant + i, 2);
    const c = verb(variant + i, 3);
    s += `\nclass ${a[0]?.toUpperCase()}${a.slice(1)}${b[0]?.toUpperCase()}${b.slice(1)}${i}:\n    """${c} the ${a} ${b} records of tenant ${variant}."""\n\n    def ${c}_${a}(self, ${b}_id: int, limit: int = ${10 + i}) -> list[dict]:\n        rows = self.store.fetch("${a}_${b}", ${b}_id, limit=limit)\n        return [self.${verb(variant + i, 4)}(row) for row in rows if row.get("${word(variant + i, 5)}")]\n`;
    i++;
  }
  return s.slice(0, 8000);
}

function args(size: Size, variant: number): Record<string, unknown> {
  switch (size) {
    case 'small':
      return { command: `${['ls -la', 'git diff', 'cat', 'grep -n'][variant % 4] as string} ${word(variant, 0)}${variant}` };
    case 'medium':
      return {
        path: `/workspace/project/src/${word(variant, 1)}/${word(variant, 2)}${variant}.tsx`,
        options: {
          encoding: 'utf-8',
          flags: [verb(variant, 1), verb(variant, 2)],
          retries: variant % 5,
          timeoutMs: 1000 * (variant % 30),
          metadata: { author: `agent-${variant % 9}`, tags: [word(variant, 3), word(variant, 4), verb(variant, 3)], created: `2024-05-${10 + (variant % 20)}T12:00:00Z`, reviewed: variant % 2 === 0 },
        },
        ranges: [
          { start: 10 + variant, end: 42 + 3 * variant },
          { start: 120 + variant, end: 188 },
        ],
        search: { pattern: `${verb(variant, 4)}${word(variant, 5)}\\(`, caseSensitive: variant % 3 === 0, maxResults: 10 + variant },
        note: `${verb(variant, 5)} the ${word(variant, 6)} ${word(variant, 7)} so that ${word(variant, 8)} ${verb(variant, 6)}s the ${word(variant, 9)} ${word(variant, 10)} before ${word(variant, 11)} ${word(variant, 12)}.`,
      };
    case 'large':
      return { command: 'create', path: `/workspace/project/app/${word(variant, 1)}_${variant}.py`, file_text: largeContent(variant) };
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
