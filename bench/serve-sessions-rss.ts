/**
 * What many sessions cost `loopwatch serve`: `node dist/bench/serve-sessions-rss.js SESSIONS [--cli PATH]
 * [--pad CHARS] [serve flags...]` starts `loopwatch serve --port 0 --no-state` with a token of its own (and the flags given, e.g.
 * `--session-memory 67108864`), opens SESSIONS sessions of one call each through `POST /v1/check/batch`
 * (2,000 calls a request, as one client opening sessions without end would), and prints, every 20,000
 * sessions, the server's resident memory (VmRSS of /proc) and what `/healthz` says: live sessions and the
 * bytes the memory budget counts (`sessionMemory.heldBytes` of `budgetBytes`). `--cli` runs another
 * build's CLI (e.g. /work/wt/prev/dist/src/bin/loopwatch.js) to compare; `--pad` gives each call's args a
 * field of CHARS characters (800 calls a request then, under the 4 MiB body limit). A measuring tool, not
 * a figure of the suite (Linux only: it reads /proc).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServeChild } from './serve-child.js';

/** The CLI of this build. */
const CLI = fileURLToPath(new URL('../src/bin/loopwatch.js', import.meta.url));

/** The resident MB of process `pid`. */
function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** What /healthz says of the sessions. */
interface Health {
  sessions: number;
  sessionMemory: { heldBytes: number; budgetBytes: number };
}

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 200_000);
  let rest = process.argv.slice(3);
  const option = (name: string): string | undefined => {
    if (rest[0] !== name) return undefined;
    const value = rest[1];
    rest = rest.slice(2);
    return value;
  };
  const cli = option('--cli') ?? CLI;
  const pad = Number(option('--pad') ?? 0);
  const flags = rest;
  const { url, child, authorization, stop } = await startServeChild(cli, flags);
  const pid = child.pid as number;
  const health = async (): Promise<Health> => (await (await fetch(`${url}/healthz`)).json()) as Health;
  const row = async (n: number): Promise<void> => {
    const h = await health();
    console.log(`${String(n).padStart(8)} sessions opened: RSS ${rssMb(pid).toFixed(0).padStart(5)} MB, live ${String(h.sessions).padStart(7)}, counted ${(h.sessionMemory.heldBytes / 2 ** 20).toFixed(1)} of ${(h.sessionMemory.budgetBytes / 2 ** 20).toFixed(0)} MiB`);
  };
  try {
    console.log(`${cli} serve ${flags.join(' ')}${pad === 0 ? '' : `, args of ${pad} characters`} (node ${process.version})`);
    await row(0);
    const per = pad > 1_000 ? 800 : 2_000;
    for (let n = 0; n < total; n += per) {
      const calls = Array.from({ length: Math.min(per, total - n) }, (_, i) => ({ session: `s-${n + i}`, tool: 'read_file', args: pad === 0 ? { path: `src/file-${(n + i) % 97}.ts` } : { path: `src/file-${(n + i) % 97}.ts`, body: `${n + i}`.padEnd(pad, 'x') } }));
      const res = await fetch(`${url}/v1/check/batch`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ calls }) });
      if (res.status !== 200) throw new Error(`batch at ${n}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      if ((n + per) % 20_000 === 0) await row(n + per);
    }
  } finally {
    stop('SIGTERM');
  }
}

await main();
