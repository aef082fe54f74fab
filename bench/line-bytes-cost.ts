/**
 * Cost harness (not part of the suite): what a pool pays per events-format record before any detection,
 * over the fleet's records (each read once per pass, from one large buffer, as a batch would hold them):
 * finding the session by reading the whole record (`eventLineSession`) or by its first bytes
 * (`lineRouteSession`), and taking a record out of a batch as a copy (`ByteReader.bytes`) or as a view
 * (`ByteReader.view`).
 *
 *   node dist/bench/line-bytes-cost.js [sessions = 10000] [calls = 40] [passes = 3]
 */
import { eventLineSession } from '../src/formats/event-line.js';
import { lineRouteSession } from '../src/formats/line-route.js';
import { ByteReader } from '../src/snapshot/byte-reader.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';
import { fleetEvents } from './fleet.js';

const [sessions = '10000', calls = '40', passes = '3'] = process.argv.slice(2);
const records = fleetEvents(Number(sessions), Number(calls)).map((e) => Buffer.from(JSON.stringify(e)));
const w = new ByteWriter(1 << 20);
for (const r of records) w.bytes(r);
const { buffer, length } = w.take();
const batch = new Uint8Array(buffer, 0, length);
const lines: Buffer[] = [];
{
  const r = new ByteReader(batch);
  for (let i = 0; i < records.length; i++) {
    const v = r.view();
    lines.push(Buffer.from(v.buffer, v.byteOffset, v.byteLength));
  }
}
const bytes = lines.reduce((n, l) => n + l.length, 0);

const ways: Record<string, () => number> = {
  'session, whole record read (eventLineSession)': () => lines.reduce((n, l) => n + (eventLineSession(l) === null ? 0 : 1), 0),
  'session, first bytes (lineRouteSession)': () => lines.reduce((n, l) => n + (lineRouteSession(l) === null ? 0 : 1), 0),
  'record out of its batch, a copy (ByteReader.bytes)': () => {
    const r = new ByteReader(batch);
    let n = 0;
    for (let i = 0; i < lines.length; i++) n += r.bytes().length;
    return n;
  },
  'record out of its batch, a view (ByteReader.view)': () => {
    const r = new ByteReader(batch);
    let n = 0;
    for (let i = 0; i < lines.length; i++) n += r.view().length;
    return n;
  },
};
console.log(`${lines.length.toLocaleString('en')} records, ${Math.round(bytes / lines.length)} bytes on average; ns per record, each pass in turn`);
const times = new Map<string, number[]>();
for (let p = 0; p < Number(passes); p++) {
  for (const [name, f] of Object.entries(ways)) {
    const t = performance.now();
    f();
    (times.get(name) ?? times.set(name, []).get(name))?.push(((performance.now() - t) * 1e6) / lines.length);
  }
}
for (const [name, ns] of times) console.log(`${name}: ${ns.map((x) => Math.round(x).toLocaleString('en')).join(', ')}`);
