/**
 * What `loopwatch serve --nats` keeps holds no secret (issue 30, items 6 and 7): calls carrying secrets of
 * the redaction corpus (helpers/secret-corpus.ts) in their args, error, result, description and text go
 * through a worker on a real nats-server; then every key of both key-value buckets and every message of the
 * verdicts stream is read, and none shows any part of a secret. The calls stream does until the calls are
 * checked and saved: its messages are the caller's own bytes, which loopwatch cannot redact (said in
 * docs/service.md); then the worker purges them (hostile31's bound on the stream). The worker lets calls in
 * through `serve`'s door (call-door.ts), so the same calls get the same verdicts and decisions over HTTP and
 * over NATS, calls that differ only in a secret included.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { ServeServer } from '../src/index.js';
import { post } from './helpers/http.js';
import { until } from './helpers/nats-run.js';
import { natsServerBinary, startNatsServer } from './helpers/nats-server.js';
import { KEY_CONTEXTS, SECRET_CORPUS, VENDOR_KEYS, leakedSecrets } from './helpers/secret-corpus.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  const failed: unknown[] = [];
  for (const c of cleanup.reverse()) await c().catch((e: unknown) => void failed.push(e));
  cleanup = [];
  if (failed.length > 0) throw failed[0];
});

/** A call as both services take it: with its session, and a phase for a two-phase call. */
interface Call {
  readonly session: string;
  readonly id: string;
  readonly tool: string;
  readonly phase?: 'propose' | 'record';
  readonly [field: string]: unknown;
}

/** The texts of the corpus used: each vendor key in two contexts (all contexts in turn), and every secret known by its context. */
function secretTexts(): string[] {
  const vendor = VENDOR_KEYS.flatMap((k, j) => {
    const inContexts = SECRET_CORPUS.filter((s) => s.hidden === k.value);
    return [inContexts[j % inContexts.length], inContexts[(j + 9) % inContexts.length]];
  });
  const context = SECRET_CORPUS.filter((s) => !VENDOR_KEYS.some((k) => s.hidden === k.value));
  return [...vendor, ...context].map((s) => (s as (typeof SECRET_CORPUS)[number]).text);
}

/** The calls of the test, as sessions of calls in order (one message each over NATS, one batch each over HTTP). */
function sessions(): Call[][] {
  const out: Call[][] = [];
  for (const [i, text] of secretTexts().entries()) {
    const args = { cmd: text, note: `run ${text}` };
    // plain checks: the secret in args, error, result, description and text; repeated, so verdicts quote it
    out.push([0, 1, 2, 3].map((k) => ({
      session: `plain-${i}`, id: `p${i}-${k}`, tool: 'run', args,
      ...(k < 2 ? { error: { message: `failed: ${text}` } } : { result: `ok ${text}` }),
      ...(k === 0 ? { description: `runs ${text}`, text: `I will use ${text}` } : {}),
    })));
    // two-phase calls: proposed, then recorded with an error carrying the secret
    out.push([0, 1, 2].flatMap((k) => [
      { session: `live-${i}`, id: `l${i}-${k}`, phase: 'propose' as const, tool: 'run', args },
      { session: `live-${i}`, id: `l${i}-${k}`, phase: 'record' as const, tool: 'run', args, error: `denied: ${text}` },
    ]));
  }
  // calls that differ only in their secret (four vendor keys in one context): the same call once redacted
  const keys = VENDOR_KEYS.filter((k) => /^(ghp_|sk-|xoxb-|glpat-)/.test(k.value)).slice(0, 4);
  for (const [c, context] of KEY_CONTEXTS.slice(0, 6).entries()) {
    out.push(keys.map((k, j) => ({ session: `differ-${c}`, id: `d${c}-${j}`, tool: 'run', args: { cmd: context.wrap(k.value) } })));
  }
  return out;
}

/** Every call's answer through `serve` over HTTP, by call id (a two-phase call's id with its phase). */
async function throughHttp(all: readonly Call[][]): Promise<Map<string, string>> {
  const server = await ServeServer.start({ port: 0 });
  cleanup.push(async () => void (await server.stop()));
  const answers = new Map<string, string>();
  for (const calls of all) {
    const live = calls[0]?.phase !== undefined;
    const r = await post(`${server.url}/v1/${live ? 'decide' : 'check'}/batch`, { calls });
    expect(r.status).toBe(200);
    (r.body.results as { id: string; phase?: string }[]).forEach((a) => answers.set(`${a.id}/${a.phase ?? 'check'}`, JSON.stringify(a)));
  }
  return answers;
}

/** Every value (and key) of a key-value bucket, as text. */
async function bucketText(url: string, bucket: string): Promise<string[]> {
  const nc = await connect({ servers: url });
  try {
    const kv = await new Kvm(nc).open(bucket);
    const out: string[] = [];
    for await (const k of await kv.keys()) {
      const e = await kv.get(k);
      out.push(k, e === null ? '' : Buffer.from(e.value).toString('latin1'));
    }
    return out;
  } finally {
    await nc.close();
  }
}

/** Every message of a stream, as text (its subject, headers and data). */
async function streamText(url: string, stream: string): Promise<string[]> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    const { first_seq, last_seq } = (await jsm.streams.info(stream)).state;
    const out: string[] = [];
    for (let seq = first_seq; seq <= last_seq; seq++) {
      const m = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
      if (m !== null) out.push(`${m.subject} ${m.header?.toString() ?? ''} ${Buffer.from(m.data).toString('latin1')}`);
    }
    return out;
  } finally {
    await nc.close();
  }
}

describe.skipIf(natsServerBinary === null)('what a NATS worker keeps of calls carrying secrets', () => {
  it('should keep no secret in the buckets or the verdicts stream, and answer as serve over HTTP does', async () => {
    const { NatsWorker } = await import('../src/serve/nats/nats-worker.js');
    const { NatsCaller } = await import('../src/serve/nats/nats-caller.js');
    const all = sessions();
    const server = await startNatsServer();
    cleanup.push(() => server.stop());
    // snapshots every 2 calls and after 100 ms: every session's state reaches the bucket
    const worker = await NatsWorker.start({ servers: server.url, partitions: 2, leaseMs: 900, snapshotEvery: 2, flushMs: 100, purgeEveryMs: 200, workerId: 'w' });
    cleanup.push(() => worker.stop());
    await until('the worker to own both partitions', () => worker.partitions().length === 2);
    const caller = await NatsCaller.connect(server.url);
    cleanup.push(() => caller.close());

    const nats = new Map<string, string>();
    const answers: string[] = [];
    for (const calls of all) {
      const session = calls[0]?.session as string;
      const a = await caller.check(session, calls.map(({ session: _, ...c }) => c), 10_000);
      answers.push(JSON.stringify(a));
      (a.results as readonly unknown[] as { id: string; phase?: string }[]).forEach((r) => nats.set(`${r.id}/${r.phase ?? 'check'}`, JSON.stringify(r)));
    }

    // the same calls, the same answers (verdicts quoting the redacted call, decisions, warnings)
    const http = await throughHttp(all);
    expect(nats.size).toBe(all.flat().length);
    expect.soft([...nats.entries()].filter(([k, v]) => http.get(k) !== v).map(([k]) => k)).toEqual([]);
    const shown = [...nats.values()].join('\n');
    expect(shown).toContain('"verdict":{');
    expect(shown).toContain('[REDACTED]');
    // calls that differ only in a secret are one call repeated: found as such
    expect.soft([...nats.entries()].some(([k, v]) => k.startsWith('d') && v.includes('"verdict":{'))).toBe(true);

    // every session's state is in the bucket, holding no secret; nor do the answers, or the verdicts stream
    await until('every session stored', async () => (await bucketText(server.url, 'loopwatch-sessions')).length === 2 * all.length, 15_000);
    const stored = await bucketText(server.url, 'loopwatch-sessions');
    expect(stored.join('\n')).toContain('run');
    expect.soft(leakedSecrets(stored.join('\n'))).toEqual([]);
    expect.soft(leakedSecrets((await bucketText(server.url, 'loopwatch-owners')).join('\n'))).toEqual([]);
    expect.soft(leakedSecrets(answers.join('\n'))).toEqual([]);
    const verdicts = await streamText(server.url, 'LOOPWATCH_VERDICTS');
    expect(verdicts.length).toBe(all.length);
    expect.soft(leakedSecrets(verdicts.join('\n'))).toEqual([]);
    // the calls stream holds what callers published, their secrets too (loopwatch cannot redact those bytes),
    // only until they are checked and saved: then the worker purges them
    await until('the checked calls purged, their secrets with them', async () => leakedSecrets((await streamText(server.url, 'LOOPWATCH_CALLS')).join('\n')).length === 0, 15_000);
  }, 120_000);
});
