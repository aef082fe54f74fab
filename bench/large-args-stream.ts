/**
 * A stream of calls with large args, in the events format (JSON Lines), for measuring what `loopwatch scan`
 * holds while reading them: `sessions` sessions of `calls` calls each, interleaved (call 1 of every
 * session, then call 2, ...), each call a `write_file` whose `content` is `argBytes` bytes of words. A
 * session writes the same file again and again, one word changed in turn to one of three marks (so its
 * calls repeat every third call and are alike in between), and every fourth call fails with the same error. Made on the fly,
 * never stored: `node dist/bench/large-args-stream.js 200 20 1048576 | loopwatch scan -`.
 */
import { pathToFileURL } from 'node:url';

/** The stream's shape. */
export interface LargeArgsShape {
  /** Sessions, at least 1. */
  readonly sessions: number;
  /** Calls per session, at least 1. */
  readonly calls: number;
  /** Bytes of each call's `content` argument (ASCII), at least 16. */
  readonly argBytes: number;
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'kappa', 'lambda', 'omega', 'sigma', 'theta', 'zeta', 'const', 'return', 'value', 'index', 'buffer', 'stream'];

/** `n` bytes of space-separated words, from a small linear congruential generator seeded by `seed`. */
function words(n: number, seed: number): string {
  const parts: string[] = [];
  let size = 0;
  let x = seed >>> 0 || 1;
  while (size < n) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    const w = WORDS[x >>> 28] as string;
    parts.push(w);
    size += w.length + 1;
  }
  return parts.join(' ').slice(0, n);
}

/** The record of `session`'s call `call` (0-based) on the session's `base` text, one line without its newline. */
export function largeArgsLine(session: number, call: number, base: string): string {
  const mark = `edit${call % 3}`;
  const at = ((call % 3) * 7919) % Math.max(1, base.length - mark.length);
  const content = base.slice(0, at) + mark + base.slice(at + mark.length);
  const failed = call % 4 === 3;
  const outcome = failed ? `"error":"disk quota exceeded"` : `"result":"wrote ${content.length} bytes"`;
  return `{"session":"s-${session}","tool":"write_file","args":{"path":"/src/file-${session}.txt","content":"${content}"},${outcome}}`;
}

/**
 * Writes the stream to `out` a line at a time, waiting for `drain` whenever the stream asks (so the
 * writer never holds more than a line or two).
 */
export async function writeLargeArgsStream(out: NodeJS.WritableStream, shape: LargeArgsShape): Promise<void> {
  const bases = Array.from({ length: shape.sessions }, (_, s) => words(shape.argBytes, s + 1));
  for (let c = 0; c < shape.calls; c++) {
    for (let s = 0; s < shape.sessions; s++) {
      if (!out.write(`${largeArgsLine(s, c, bases[s] as string)}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [sessions = 200, calls = 20, argBytes = 1 << 20] = process.argv.slice(2).map(Number);
  process.stdout.on('error', () => process.exit(0)); // the reader went away
  await writeLargeArgsStream(process.stdout, { sessions, calls, argBytes });
}
