/**
 * docs/service.md's `loopwatch/nats` sample, run as a person copying it runs it: a Node process of its own
 * against a real nats-server with a worker, `loopwatch/nats` resolved as an installed package resolves it
 * (the file inside dist/, as test/docs-code-samples.test.ts places its samples), only the server's address
 * changed. Before, the sample connected with `{ credsFile: 'worker.creds' }` (the server the docs start just
 * above wants none, and no such file exists: it threw ENOENT), and without `caller.close()` a script ending
 * with it never exited (the connection keeps the event loop alive).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { docSamples, sampleModule } from './helpers/doc-samples.js';
import { natsFixture } from './helpers/nats-fixture.js';
import { natsServerBinary } from './helpers/nats-server.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIR = `${ROOT}dist/doc-samples-nats/`;

describe.skipIf(natsServerBinary === null)("docs/service.md's NatsCaller sample", () => {
  const f = natsFixture(2);

  // async: the worker runs in this process, so the sample's process must not block its event loop
  it('should run to its end in a process of its own and exit', async () => {
    const sample = docSamples().find((s) => s.where.startsWith('docs/service.md') && s.modules.includes('loopwatch/nats'));
    expect(sample).toBeDefined();
    if (sample === undefined) return;
    const text = sampleModule(sample, []).replaceAll('nats://127.0.0.1:4222', f.server.url);
    expect(text).toContain(f.server.url);
    const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    mkdirSync(DIR, { recursive: true });
    writeFileSync(`${DIR}sample.mjs`, js);
    writeFileSync(`${DIR}run.mjs`, "import { sample } from './sample.mjs';\nawait sample();\nconsole.log('sample done');\n");
    const run = await promisify(execFile)(process.execPath, [`${DIR}run.mjs`], { cwd: DIR, encoding: 'utf8', timeout: 20_000 }).catch((e: Error & { stdout?: string; stderr?: string; killed?: boolean }) => ({ stdout: e.stdout, stderr: `${e.killed === true ? 'killed at the timeout: the process did not exit\n' : ''}${e.stderr ?? e.message}` }));
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('sample done\n');
  }, 40_000);
});
