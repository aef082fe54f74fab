/**
 * Sessions' call-log words in blocks of the thread's shared chunks (src/state/word-blocks.ts): WebAssembly
 * sessions make no typed array of their own for them; a disposed session's block goes back as it is (not
 * copied: nothing reads a disposed session, branch perf42) and zeroed to the next session.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import { CallLog, FACT_WORDS } from '../src/state/call-log.js';
import { CallFacts } from '../src/policy/call-facts.js';
import { SummaryRing } from '../src/state/summary-ring.js';
import { MAX_CHUNK_BLOCKS, giveWords, takeWords } from '../src/state/word-blocks.js';

const CORE: LoopDetectorOptions = { detectors: { exactRepeat: true, frequency: true, cycle: true, resultRepeat: true } };
const logOf = (d: LoopDetector): CallLog => (d as unknown as { pipeline: { log: CallLog } }).pipeline.log;
const call = (i: number): ToolEvent => ({ tool: 'read', args: { path: `f${i % 3}.ts` }, result: `r${i}` });

describe('shared word blocks', () => {
  it('should hand out zeroed blocks, reuse given-back ones and carve chunks of more blocks as more are taken', () => {
    const size = 7919;
    const a = takeWords(size);
    a.words.fill(5, a.base, a.base + size);
    const b = takeWords(size);
    expect(b.words).not.toBe(a.words); // a chunk of one block, then a new chunk
    giveWords(size, a.words, a.base);
    const c = takeWords(size);
    expect(c.words).toBe(a.words);
    expect(c.base).toBe(a.base);
    expect([...c.words.subarray(c.base, c.base + size)].every((w) => w === 0)).toBe(true);
    const more = Array.from({ length: 3 * MAX_CHUNK_BLOCKS }, () => takeWords(size));
    for (const m of more) expect(m.words.length).toBeLessThanOrEqual(MAX_CHUNK_BLOCKS * size);
    expect(more.filter((m) => m.words.length === MAX_CHUNK_BLOCKS * size).length).toBeGreaterThan(0);
  });

  it('should keep a WebAssembly session\'s words in a shared chunk, and give a disposed one\'s back uncopied to the next session', () => {
    const d = new LoopDetector({ ...CORE, engine: 'wasm' });
    const others = Array.from({ length: 4 }, () => new LoopDetector({ ...CORE, engine: 'wasm' }));
    for (let i = 0; i < 30; i++) d.check(call(i));
    const log = logOf(d);
    expect(log.words.length).toBeGreaterThanOrEqual(log.wordBase + (3 + FACT_WORDS) * log.capacity);
    const { words, wordBase } = log;
    const stats = d.stats();
    d.dispose();
    // the log holds no words and reads as holding no call; its stats stay
    expect(log.words.length).toBe(0);
    expect(log.signatureHex(29)).toBeUndefined();
    expect(d.stats()).toEqual(stats);
    expect(() => d.isStuck()).toThrow(/disposed/);
    // another session takes the very block, zeroed, and writes its own calls there
    const e = new LoopDetector({ ...CORE, engine: 'wasm' });
    const next = logOf(e);
    expect(next.words).toBe(words);
    expect(next.wordBase).toBe(wordBase);
    expect(words.subarray(wordBase, wordBase + (3 + FACT_WORDS) * next.capacity).every((w) => w === 0)).toBe(true);
    for (let i = 0; i < 30; i++) e.check({ tool: 'write', args: { path: `g${i}.ts` }, result: `s${i}` });
    expect(next.signatureHex(29)).toMatch(/^[0-9a-f]{16}$/);
    for (const o of [...others, e]) o.dispose();
  });

  it('should give the same verdicts and snapshots as the reference engine, whose log has its own words', () => {
    const w = new LoopDetector({ ...CORE, engine: 'wasm' });
    const r = new LoopDetector({ ...CORE, engine: 'reference' });
    for (let i = 0; i < 40; i++) expect(w.check(call(i))).toEqual(r.check(call(i)));
    w.dispose();
  });

  it('should keep a call\'s tool and its facts\' bits in halves of one word, each undone apart', () => {
    const log = new CallLog(4, { normaliseArgs: (a) => a });
    const facts = new CallFacts(4, log);
    const tools = ['t-a', 't-b', 't-c', 't-d', 't-e', 't-f'];
    tools.forEach((t, i) => {
      log.push(t, {}, true, undefined, i, i, undefined, undefined);
      facts.note(i, 0xffff - i, undefined, 7 + i);
    });
    for (let i = 2; i < 6; i++) {
      expect(log.ref(i)?.tool).toBe(tools[i]);
      expect(facts.of(i)).toBe(0xffff - i);
      expect(facts.targetOf(i)).toBe(7 + i);
    }
    // a proposal: both marked, both written, both rolled back (in either order)
    log.mark();
    facts.mark();
    log.push('t-new', {}, true, undefined, 9, 9, undefined, undefined);
    expect(facts.of(2)).toBe(0xffff - 2); // the slot's old bits stay until the facts note the new call
    facts.note(6, 1, undefined, 0);
    expect(log.ref(6)?.tool).toBe('t-new');
    expect(facts.of(6)).toBe(1);
    facts.rollback();
    log.rollback();
    expect(log.ref(2)?.tool).toBe('t-c');
    expect(facts.of(2)).toBe(0xffff - 2);
    facts.reset();
    expect(log.ref(5)?.tool).toBe('t-f');
    expect(facts.of(5)).toBe(0);
  });

  it('should keep a summary ring\'s table in a shared block as in its own array, its neighbour\'s beside it', () => {
    const own = new SummaryRing(5);
    const shared = new SummaryRing(5, true);
    const neighbour = new SummaryRing(5, true);
    const bytes = (i: number): Uint8Array => new Uint8Array(8 + (i % 7) * 13).fill(65 + (i % 26));
    for (let i = 0; i < 40; i++) {
      own.put(i, bytes(i));
      shared.put(i, bytes(i));
      neighbour.put(i, bytes(i + 1));
      if (i % 9 === 0) {
        own.drop(i - 1);
        shared.drop(i - 1);
      }
      for (let j = Math.max(0, i - 6); j <= i; j++) {
        expect(shared.has(j)).toBe(own.has(j));
        if (own.has(j)) expect(shared.bytesOf(j).subarray(shared.at(j), shared.at(j) + bytes(j).length)).toEqual(bytes(j));
      }
    }
    shared.dropTable();
    neighbour.dropTable();
  });
});
