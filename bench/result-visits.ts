/**
 * How many times each byte of a text result is read, and by what, with every default detector on (the head
 * read with the acknowledgement's words and the pass, "nothing found" and brief asked): counted from each
 * reading's rules over the results' UTF-8 bytes, not timed (bench/result-pass.ts --visits prints it). A
 * reading kept by a cache is counted only where the cache misses; "met before" is a text seen earlier in the
 * traces (the module's direct-mapped caches hold 2,048 entries each, so the counts are a bound). The host's
 * rows are its readings of the head as a string (result-reading.ts), at least one expression over it on a miss.
 */

const MASK_LIMIT = 2048;
const NOTHING_LOOK = 300;
const HEAD_UNITS = 4096;
const NOISE_WORD = 256;

const space = (b: number): boolean => b === 0x20 || (b >= 0x09 && b <= 0x0d);

/** Bytes of the first HEAD_UNITS UTF-16 units of UTF-8 bytes `t`. */
function headBytes(t: Uint8Array): number {
  let i = 0;
  let units = 0;
  while (i < t.length && units < HEAD_UNITS) {
    const b = t[i] as number;
    const w = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    units += w === 4 ? 2 : 1;
    i += w;
  }
  return Math.min(i, t.length);
}

/** Bytes shellNoiseEnd reads of a text whose first line is no startup line: its first word, within NOISE_WORD. */
function noiseLook(t: Uint8Array): number {
  let i = 0;
  while (i < t.length && i < NOISE_WORD && !space(t[i] as number)) i++;
  return Math.min(i + 1, t.length);
}

/** White space bytes at both ends (what a trim reads). */
function trimRuns(t: Uint8Array): number {
  let s = 0;
  while (s < t.length && space(t[s] as number)) s++;
  let e = t.length;
  while (e > s && space(t[e - 1] as number)) e--;
  return s + (t.length - e) + (s < t.length ? 2 : 0);
}

/** The table: reads of each result byte by each reading, before and after result-pass.ts's shared passes. */
export function resultVisits(texts: readonly Uint8Array[]): string {
  const seen = new Set<string>();
  const heads = new Set<string>();
  const dec = new TextDecoder();
  const rows = new Map<string, [number, number]>();
  const add = (what: string, before: number, after: number): void => {
    const r = rows.get(what) ?? [0, 0];
    r[0] += before;
    r[1] += after;
    rows.set(what, r);
  };
  let total = 0;
  let repeats = 0;
  for (const t of texts) {
    const n = t.length;
    total += n;
    const s = dec.decode(t);
    const again = seen.has(s);
    if (again) repeats++;
    seen.add(s);
    const m = headBytes(t);
    const head = s.length > HEAD_UNITS ? s.slice(0, HEAD_UNITS) : s;
    const headAgain = heads.has(head);
    heads.add(head);
    const blankLead = (() => {
      let i = 0;
      while (i < n && space(t[i] as number)) i++;
      return Math.min(i + 1, n);
    })();
    const noise = noiseLook(t);
    add('host: the result written into the record as UTF-8', n, n);
    add('module: the result hashed (xxh64, its fingerprint)', n, n);
    add("module: the head's UTF-16 units counted", m, m);
    add("module: the head hashed (the host's cache key; in the fingerprint's loop when the head is the whole result)", m, m === n ? 0 : m);
    add('module: the head scanned (reportScan; head cache missed)', headAgain ? 0 : m, headAgain ? 0 : m);
    add('module: blank (leading white space)', blankLead, blankLead);
    add("module: the shell's startup lines (first word; once for blank and nothing found)", 2 * noise, noise);
    add('module: "nothing found" (first 300 bytes)', Math.min(n, NOTHING_LOOK), Math.min(n, NOTHING_LOOK));
    add('module: brief (trims)', trimRuns(t), trimRuns(t));
    add('module: masked and the mask hashed (mask cache missed)', again ? 0 : 2 * Math.min(n, MASK_LIMIT), again ? 0 : 2 * Math.min(n, MASK_LIMIT));
    add("host: the head compared with the kept one (host cache hit)", headAgain ? m : 0, headAgain ? m : 0);
    add('host: the head read by its expressions (host cache missed; at least the empty mailbox)', headAgain ? 0 : m, headAgain ? 0 : m);
  }
  const lines = [
    `${texts.length} text results, ${total} bytes (${(total / texts.length).toFixed(0)} B a result), ${repeats} met before (${((100 * repeats) / texts.length).toFixed(1)}%)`,
    '| reading | reads of each byte, before | after (shared passes) |',
    '|---|---|---|',
  ];
  let sb = 0;
  let sa = 0;
  for (const [what, [b, a]] of rows) {
    sb += b;
    sa += a;
    lines.push(`| ${what} | ${(b / total).toFixed(2)} | ${(a / total).toFixed(2)} |`);
  }
  lines.push(`| all | ${(sb / total).toFixed(2)} | ${(sa / total).toFixed(2)} |`);
  return lines.join('\n');
}
