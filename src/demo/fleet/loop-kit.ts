/**
 * Shapes shared by the injected loops: a call repeated to the end of the session, a unit cycled, one
 * call coming back between other calls, near-identical variants of a string (one character changed), and
 * paraphrases of a query (the same idea in other words).
 */
import type { ToolEvent } from '../../types.js';
import type { Rng } from './random.js';

/** `count` calls, the k-th made by `make(k)`. */
export function fill(count: number, make: (k: number) => ToolEvent): ToolEvent[] {
  return Array.from({ length: count }, (_, k) => make(k));
}

/**
 * `count` calls made by `make`, each one a call not made before in the run as long as `make` finds one
 * within a few draws, by args (an agent varying its args does not repeat itself until it runs out of ideas).
 */
export function varied(count: number, make: () => ToolEvent): ToolEvent[] {
  const seen = new Set<string>();
  return fill(count, () => {
    let e = make();
    let key = JSON.stringify(e.args);
    for (let k = 0; k < 12 && seen.has(key); k++) key = JSON.stringify((e = make()).args);
    seen.add(key);
    return e;
  });
}

/** The calls of `unit` over and over, `count` calls in all (the last repetition may be cut short). */
export function cycle(count: number, unit: readonly (() => ToolEvent)[]): ToolEvent[] {
  return fill(count, (k) => (unit[k % unit.length] as () => ToolEvent)());
}

/**
 * `count` calls: `again()` first, then `gap` (drawn in [lo, hi] each time) calls of `other()` before it
 * comes back, and so on to the end.
 */
export function recurring(count: number, rng: Rng, again: () => ToolEvent, other: () => ToolEvent, lo: number, hi: number): ToolEvent[] {
  const out: ToolEvent[] = [];
  while (out.length < count) {
    out.push(again());
    for (let g = rng.int(lo, hi); g > 0 && out.length < count; g--) out.push(other());
  }
  return out;
}

const NEAR: Readonly<Record<string, string>> = { '0': '9', '1': '7', '3': '8', '5': '6', a: 's', e: 'r', i: 'o', o: 'p', s: 'a', t: 'r', l: 'k', n: 'm', _: '-', '-': '_', '.': ',', ' ': '  ' };

/** `s` with one character changed: dropped, doubled, swapped with its neighbour, or a neighbouring key. */
export function typo(rng: Rng, s: string): string {
  if (s.length < 3) return `${s}${s.charAt(s.length - 1)}`;
  const i = rng.int(1, s.length - 2);
  const c = s.charAt(i);
  switch (rng.int(0, 3)) {
    case 0: return s.slice(0, i) + s.slice(i + 1);
    case 1: return s.slice(0, i) + c + s.slice(i);
    case 2: return s.slice(0, i - 1) + c + s.charAt(i - 1) + s.slice(i + 1);
    default: return s.slice(0, i) + (NEAR[c] ?? c.toUpperCase()) + s.slice(i + 1);
  }
}

/** Words agents add when they reword a search, by style. */
export const FILLERS = Object.freeze({
  coding: ['function', 'handling', 'code', 'logic', 'implementation', 'where', 'bug', 'issue', 'problem', 'method'],
  support: ['customer', 'policy', 'help', 'issue', 'request', 'question', 'process', 'rules', 'options', 'steps'],
});

/** A rewording of the idea `words`: reordered, a word sometimes dropped, a word of `fillers` sometimes added. */
export function paraphrase(rng: Rng, words: readonly string[], fillers: readonly string[]): string {
  const kept = rng.shuffle([...words]);
  if (kept.length > 3 && rng.chance(0.4)) kept.pop();
  if (rng.chance(0.5)) kept.splice(rng.int(0, kept.length), 0, rng.pick(fillers));
  if (rng.chance(0.3)) kept[0] = `${kept[0] as string}s`;
  return kept.join(' ');
}
