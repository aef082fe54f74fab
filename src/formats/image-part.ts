/**
 * An image in message content, as a short text in its place. Anthropic (and Claude Code's `tool_result`
 * blocks) write an image as `{type: "image", source: {type: "base64", media_type, data}}`: kept whole, a
 * screenshot becomes hundreds of kilobytes of base64 in the result. The placeholder says what it was and
 * how big, with a fingerprint of its bytes so the same image twice still reads the same, and two different
 * ones do not: `[image image/png, 48,213 bytes, 9f86d081884c7d65]`. Other sources (`url`, `file`) are named
 * with a fingerprint of the source object.
 */
import { hashString, hashValue } from '../fingerprint/canonical-hash.js';
import { u64, toHex } from '../fingerprint/u64.js';

/** Bytes decoded from `n` characters of base64 ending with `pad` `=` signs. */
const base64Bytes = (n: number, pad: number): number => Math.max(0, Math.floor((n * 3) / 4) - pad);

/** The placeholder of content part `part` when it is an image block, else null. */
export function imagePlaceholder(part: Readonly<Record<string, unknown>>): string | null {
  if (part.type !== 'image' || typeof part.source !== 'object' || part.source === null || Array.isArray(part.source)) return null;
  const source = part.source as Readonly<Record<string, unknown>>;
  if (source.type === 'base64' && typeof source.data === 'string') {
    const data = source.data;
    const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
    const lo = hashString(data);
    const media = typeof source.media_type === 'string' && source.media_type !== '' ? source.media_type : 'unknown type';
    return `[image ${media}, ${base64Bytes(data.length, pad).toLocaleString('en-US')} bytes, ${toHex(u64.hi, lo)}]`;
  }
  const lo = hashValue(source);
  return `[image ${typeof source.type === 'string' ? source.type : 'source'}, ${toHex(u64.hi, lo)}]`;
}
