/**
 * A request's or message's body as text, only when it is UTF-8 (JSON's only encoding, RFC 8259 8.1).
 * Read leniently, an invalid byte became U+FFFD without a word: a body sent as Latin-1 (`charset=iso-8859-1`
 * in its Content-Type, which was not looked at) lost its accented letters, and session ids differing only
 * in invalid bytes (`a<FF>`, `a<FE>`) were one session, sharing its calls and state file, as lone
 * surrogates did before they were refused (call-schema.ts). A UTF-8 byte order mark is passed over (RFC
 * 8259 lets a parser ignore it; before it was a `bad_json` naming an invisible character). The hook routes
 * and `loopwatch hook`'s stdin read their payloads through this too (src/hooks/hook-payload.ts).
 */
import { isUtf8 } from 'node:buffer';

/** The text of `bytes`, or the offset of their first byte that is not UTF-8. */
export function utf8Body(bytes: Uint8Array): { readonly text: string } | { readonly badAt: number } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const start = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  const text = buf.toString('utf8', start);
  if (isUtf8(buf)) return { text };
  // valid sequences come back as they were, an invalid one as EF BF BD: the first difference is the first bad byte
  const again = Buffer.from(text, 'utf8');
  let i = 0;
  while (i < again.length && again[i] === buf[start + i]) i++;
  return { badAt: start + i };
}

/** What to say of a body whose byte at `at` is not UTF-8. */
export function notUtf8(what: string, at: number): string {
  return `${what} is not UTF-8 (byte ${at} is not part of a UTF-8 character); JSON is sent as UTF-8`;
}
