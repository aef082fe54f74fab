/**
 * The package installed as a library user gets it from `npm i loopwatch`: its dependencies (piscina, fzstd) and
 * none of its optional peer dependencies (the NATS client, prom-client, the OpenTelemetry API), which npm
 * does not install. The index, every SDK adapter and `loopwatch/nats` load and type-check without them (and
 * without Node's types: the published declarations stand alone),
 * loading neither them nor piscina (that waits for a LoopPool); each part that needs a peer says which
 * packages to install (MissingPeerError, `ERR_LOOPWATCH_MISSING_PEER`); what does not need them works.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PackedInstall, REPO, installPacked } from './helpers/packed-package.js';
import { startServe } from './helpers/serve-process.js';

const NATS = ['@nats-io/transport-node', '@nats-io/jetstream', '@nats-io/kv'];
const PEERS = [...NATS, 'prom-client', '@opentelemetry/api'];
const NATS_INSTALL = 'npm install @nats-io/transport-node @nats-io/jetstream @nats-io/kv';
const ADAPTERS = ['ai-sdk', 'openai-agents', 'langchain', 'anthropic', 'mastra'];

let packed: PackedInstall;

beforeAll(() => {
  packed = installPacked({ peers: false });
}, 120_000);

afterAll(() => packed?.remove());

/** Writes `code` as the app's `file` and runs it; its stdout parsed as JSON (stderr expected empty). */
function run(file: string, code: string): unknown {
  writeFileSync(join(packed.app, file), code);
  const r = packed.node([file]);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout);
}

/** Code that lists which of these packages a module loader has loaded (CommonJS cache, where they all land). */
const LOADED = `const watched = ${JSON.stringify(['piscina', ...PEERS])};
const loaded = () => watched.filter((p) => Object.keys(cache).some((k) => k.includes('/node_modules/' + p + '/')));
`;

describe('the package without its optional peer dependencies', () => {
  it('should depend on piscina and fzstd (Zstandard below Node.js 22.15) alone, with the NATS client, prom-client and the OpenTelemetry API optional peers, and no install script', () => {
    const m = packed.manifest;
    expect(Object.keys(m.dependencies ?? {})).toEqual(['fzstd', 'piscina']);
    expect(Object.keys(m.peerDependencies ?? {}).sort()).toEqual([...PEERS].sort());
    for (const p of PEERS) expect(m.peerDependenciesMeta?.[p], p).toEqual({ optional: true });
    // npm runs these on a consumer's install (prepare: of a tarball, a folder or git); none is shipped
    expect(Object.keys(m.scripts ?? {}).filter((s) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(s))).toEqual([]);
    expect(m.scripts?.prepack).toBe('npm run build');
    // what npm puts beside it: its dependencies (optional peers only when the user installs them)
    expect(packed.installed).toEqual(['fzstd', 'piscina']);
    // the files run for their effects are named; every other module is free of them
    expect(m.sideEffects).toEqual(expect.arrayContaining(['./dist/src/bin/loopwatch.js', './dist/src/cli/main.js', './dist/src/cli/hook-main.js', './dist/hook/*.cjs']));
  });

  it('should import the index and every subpath from an ES module without loading a peer or piscina, piscina once a LoopPool is made', () => {
    const imports = [`import * as lw from 'loopwatch';`, ...ADAPTERS.map((a, i) => `import * as a${i} from 'loopwatch/${a}';`), `import * as nats from 'loopwatch/nats';`].join('\n');
    const got = run(
      'bare.mjs',
      `${imports}
import { createRequire } from 'node:module';
const cache = createRequire(import.meta.url).cache;
${LOADED}const before = loaded();
const exports = [typeof lw.LoopDetector, ${ADAPTERS.map((_, i) => `Object.keys(a${i}).length > 0`).join(', ')}, typeof nats.NatsCaller];
const pool = new lw.LoopPool({ workers: 1 });
const afterPool = loaded();
const out = await pool.checkBatch(Array.from({ length: 6 }, () => ({ session: 's', tool: 'bash', args: { command: 'make' }, result: 'FAILED' })));
await pool.close();
console.log(JSON.stringify({ before, exports, afterPool, actions: out.map((v) => v && v.action) }));
`,
    );
    expect(got).toEqual({ before: [], exports: ['function', ...ADAPTERS.map(() => true), 'function'], afterPool: ['piscina'], actions: [null, null, 'warn', 'break', 'break', 'break'] });
  });

  it('should require the index and every subpath from a .cjs file without loading a peer or piscina, piscina once a LoopPool is made', () => {
    const got = run(
      'bare.cjs',
      `const cache = require.cache;
${LOADED}const lw = require('loopwatch');
const subpaths = ${JSON.stringify([...ADAPTERS, 'nats'])}.map((a) => Object.keys(require('loopwatch/' + a)).length > 0);
const before = loaded();
const pool = new lw.LoopPool({ workers: 1 });
const afterPool = loaded();
pool.close().then(() => console.log(JSON.stringify({ before, subpaths, afterPool })));
`,
    );
    expect(got).toEqual({ before: [], subpaths: [...ADAPTERS, 'nats'].map(() => true), afterPool: ['piscina'] });
  });

  it.each(['caller.mjs', 'caller.cjs'])('should reject NatsCaller.connect with a MissingPeerError naming the NATS packages to install (%s)', (file) => {
    const head = file.endsWith('.mjs') ? "import { NatsCaller, MissingPeerError } from 'loopwatch/nats';\n" : "const { NatsCaller, MissingPeerError } = require('loopwatch/nats');\n";
    const got = run(file, `${head}NatsCaller.connect('nats://127.0.0.1:1').then(() => console.log('"connected"'), (e) => console.log(JSON.stringify({ is: e instanceof MissingPeerError, code: e.code, packages: e.packages, message: e.message })));\n`) as Record<string, unknown>;
    expect(got).toMatchObject({ is: true, code: 'ERR_LOOPWATCH_MISSING_PEER', packages: NATS });
    expect(got.message).toContain(NATS_INSTALL);
  });

  it('should serve from the library without prom-client: checks answered, GET /metrics 501 naming prom-client', () => {
    const got = run(
      'serve.mjs',
      `import { ServeServer } from 'loopwatch';
const server = await ServeServer.start({ port: 0 });
const check = await fetch(server.url + '/v1/check', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: 's', id: 'c1', tool: 'bash', args: { command: 'ls' } }) });
const metrics = await fetch(server.url + '/metrics');
const body = await metrics.json();
await server.stop();
console.log(JSON.stringify({ check: check.status, metrics: metrics.status, body, unavailable: server.metricsUnavailable && server.metricsUnavailable.code }));
`,
    ) as { check: number; metrics: number; body: { error: { code: string; message: string } }; unavailable: string };
    expect([got.check, got.metrics, got.unavailable]).toEqual([200, 501, 'ERR_LOOPWATCH_MISSING_PEER']);
    expect(got.body.error.code).toBe('metrics_unavailable');
    expect(got.body.error.message).toContain('npm install prom-client');
  });

  it('should run the installed `loopwatch serve` without prom-client, saying /metrics needs it', async () => {
    const serve = await startServe(['--port', '0', '--no-token'], join(packed.pkgDir, 'dist', 'src', 'bin', 'loopwatch.js'));
    try {
      expect(serve.stderr()).toContain('GET /metrics answers 501');
      expect(serve.stderr()).toContain('npm install prom-client');
      const check = await fetch(`${serve.url}/v1/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: 's', id: 'c1', tool: 'bash', args: { command: 'ls' } }) });
      expect(check.status).toBe(200);
      expect((await fetch(`${serve.url}/metrics`)).status).toBe(501);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });

  it('should refuse `serve --nats` and `scan --metrics` with exit code 2, naming the packages to install', () => {
    const cli = join(packed.pkgDir, 'dist', 'src', 'bin', 'loopwatch.js');
    const nats = packed.node([cli, 'serve', '--nats', 'nats://127.0.0.1:1']);
    expect(nats.status).toBe(2);
    expect(nats.stderr).toContain('loopwatch serve: --nats needs @nats-io/transport-node, @nats-io/jetstream, @nats-io/kv');
    expect(nats.stderr).toContain(NATS_INSTALL);
    const line = JSON.stringify({ session: 's', tool: 'bash', args: { command: 'ls' } });
    const scan = packed.node([cli, 'scan', '-', '--metrics', join(packed.app, 'scan.prom')], `${line}\n`);
    expect(scan.status).toBe(2);
    expect(scan.stderr).toContain('--metrics needs prom-client');
    expect(scan.stderr).toContain('npm install prom-client');
    expect(scan.stdout).toBe(''); // refused before reading any input
  });

  it('should make an engine without @opentelemetry/api while a MeterProvider is registered: no metrics, one warning naming it', () => {
    const r = packed.node([
      '--input-type=module',
      '-e',
      `import { LoopEngine } from 'loopwatch';
globalThis[Symbol.for('opentelemetry.js.api.1')] = { version: '1.9.0', metrics: {} };
const warnings = [];
process.on('warning', (w) => warnings.push([w.code, w.message]));
const engines = [new LoopEngine(), new LoopEngine()];
const v = engines[0].checkBatch(Array.from({ length: 6 }, () => ({ session: 's', tool: 'bash', args: { command: 'make' }, result: 'FAILED' })));
setImmediate(() => console.log(JSON.stringify({ actions: v.map((x) => x && x.action), warnings })));
`,
    ]);
    const got = JSON.parse(r.stdout) as { actions: (string | null)[]; warnings: [string, string][] };
    expect(got.actions).toEqual([null, null, 'warn', 'break', 'break', 'break']);
    expect(got.warnings).toHaveLength(1);
    expect(got.warnings[0]![0]).toBe('ERR_LOOPWATCH_MISSING_PEER');
    expect(got.warnings[0]![1]).toContain('npm install @opentelemetry/api');
  });

  it('should type-check the index, every subpath and a meter option, from .mts and .cts, without the peers and without Node\'s types (skipLibCheck false)', () => {
    // a consumer whose tsconfig checks libraries' declarations and has no @types/node (nor the DOM's types):
    // before newuser26 loopwatch's own declarations named Node's (Buffer, NodeJS.ReadableStream, node:events,
    // node:http, AbortSignal): 8 errors
    const use = `import { LoopEngine, LoopPool, readInputs, BearerToken, type LoopEngineOptions, type LostSession, type Verdict } from 'loopwatch';
${ADAPTERS.map((a, i) => `import * as a${i} from 'loopwatch/${a}';`).join('\n')}
import { NatsCaller, MissingPeerError } from 'loopwatch/nats';
const options: LoopEngineOptions = { meter: false };
const v: (Verdict | null)[] = new LoopEngine(options).checkBatch([{ session: 's', tool: 't' }]) as (Verdict | null)[];
const pool = new LoopPool({ workers: 1 }).on('sessionLost', (s: LostSession) => s.sessionId);
async function* lines() { yield '{}'; }
export const all = [v, pool, readInputs(['-'], { stdin: lines() }), BearerToken, ${ADAPTERS.map((_, i) => `a${i}`).join(', ')}, NatsCaller.connect, MissingPeerError];
`;
    writeFileSync(join(packed.app, 'use.mts'), use);
    writeFileSync(join(packed.app, 'use.cts'), use);
    const compilerOptions = { noEmit: true, strict: true, skipLibCheck: false, types: [], lib: ['es2022'], target: 'es2022', module: 'node16', moduleResolution: 'node16' };
    writeFileSync(join(packed.app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['use.mts', 'use.cts'] }));
    const tsc = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = packed.node([tsc, '-p', '.']);
    expect(r.stdout + r.stderr).toBe('');
  }, 180_000);
});
