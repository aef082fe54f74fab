/**
 * Reading OTLP/JSON as plain values: an export's resource list (as exporters and Grafana Tempo write it),
 * attribute lists (`[{key, value: AnyValue}]`) as a map of JS values, span and trace ids as lowercase hex,
 * timestamps as bigints. The OTLP/JSON spec writes ids in hex; dumps
 * made with a generic protobuf-to-JSON mapping write them in base64: both are accepted (a 16-byte trace id is
 * 32 hex digits or 24 base64 characters, so the two never read alike).
 */
import { isRecord } from './json-value.js';

/**
 * The resource list of an export: `resourceSpans` (OTLP/JSON), `batches` (Grafana Tempo), either under
 * `trace` (Tempo's v2 API); null when `v` has none.
 */
export function resourceList(v: unknown): { readonly key: string; readonly list: readonly unknown[] } | null {
  if (!isRecord(v)) return null;
  const doc = isRecord(v.trace) && v.resourceSpans === undefined && v.batches === undefined ? v.trace : v;
  if (Array.isArray(doc.resourceSpans)) return { key: 'resourceSpans', list: doc.resourceSpans };
  if (Array.isArray(doc.batches)) return { key: 'batches', list: doc.batches };
  return null;
}

/** An OTLP `AnyValue` as a JS value: strings, numbers, booleans, arrays and objects; undefined when empty or unknown. */
export function anyValue(v: unknown): unknown {
  if (!isRecord(v)) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) {
    const i = v.intValue;
    if (typeof i !== 'string') return i;
    const n = Number(i);
    return Number.isSafeInteger(n) ? n : i;
  }
  if ('doubleValue' in v) return v.doubleValue;
  if ('bytesValue' in v) return v.bytesValue;
  if (isRecord(v.arrayValue)) return Array.isArray(v.arrayValue.values) ? v.arrayValue.values.map(anyValue) : [];
  if (isRecord(v.kvlistValue)) return Object.fromEntries(attributeMap(v.kvlistValue.values));
  return undefined;
}

/** An attribute list as a map from key to value; entries without a string key are left out. */
export function attributeMap(list: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!Array.isArray(list)) return out;
  for (const kv of list) if (isRecord(kv) && typeof kv.key === 'string') out.set(kv.key, anyValue(kv.value));
  return out;
}

const HEX = /^[0-9a-f]+$/i;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** An id of `bytes` bytes (16 for a trace, 8 for a span) as lowercase hex, from hex or base64; null when it is neither or all zeros. */
export function otlpId(v: unknown, bytes: number): string | null {
  if (typeof v !== 'string') return null;
  let hex: string | null = null;
  if (v.length === 2 * bytes && HEX.test(v)) hex = v.toLowerCase();
  else if (v.length === 4 * Math.ceil(bytes / 3) && BASE64.test(v)) {
    const raw = Buffer.from(v, 'base64');
    if (raw.length === bytes) hex = raw.toString('hex');
  }
  return hex === null || /^0+$/.test(hex) ? null : hex;
}

/**
 * A `*UnixNano` timestamp as a bigint: decimal text (as OTLP/JSON writes 64-bit integers) exactly, a number
 * (past 2^53 already rounded by JSON parsing, to within a microsecond) as it is; null when it is neither.
 */
export function unixNano(v: unknown): bigint | null {
  if (typeof v === 'string' && /^\d{1,20}$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return BigInt(Math.trunc(v));
  return null;
}
