/**
 * Secrets split by an invalid byte (hostile10). An invalid UTF-8 byte reads as U+FFFD wherever loopwatch
 * decodes bytes (the MCP proxy's lines, a hook's stdin, serve's bodies, trace files), so a token with one
 * stray byte inside was two runs no rule knew: both halves were shown, in the MCP proxy's warning to the
 * model and its stderr line too. The rules now also read the text without its U+FFFD
 * (src/text/secret-split.ts).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LiveGuard, redactSecrets } from '../src/index.js';
import { mcpLogLine } from '../src/cli/mcp-command.js';
import { McpProxy } from '../src/mcp/mcp-proxy.js';
import { ToolCallGate } from '../src/mcp/tool-call-gate.js';
import { cutText } from '../src/text/shown-text.js';
import { ORDINARY_CORPUS, SECRET_CORPUS, VENDOR_KEYS, shownPart } from './helpers/secret-corpus.js';

const R = '\uFFFD';

/** `s.text` with U+FFFD put into its hidden part at `k`. */
const split = (s: (typeof SECRET_CORPUS)[number], k: number): string => s.text.replace(s.hidden, `${s.hidden.slice(0, k)}${R}${s.hidden.slice(k)}`);

describe('secrets split by U+FFFD', () => {
  it('should redact every secret of the corpus with U+FFFD put inside it', () => {
    for (const s of SECRET_CORPUS) {
      for (const k of new Set([1, 5, Math.floor(s.hidden.length / 3), Math.floor(s.hidden.length / 2), s.hidden.length - 5])) {
        if (k <= 0 || k >= s.hidden.length) continue;
        const out = redactSecrets(split(s, k));
        expect(shownPart(out, s), `${s.name} split at ${k}: ${out}`).toBeNull();
      }
    }
  });

  it('should redact a key split by several U+FFFD, and never show part of it however the text is cut', () => {
    for (const k of VENDOR_KEYS) {
      const text = `token ${k.value.slice(0, 6)}${R}${R}${k.value.slice(6, 14)}${R}${k.value.slice(14)} done`;
      const s = { name: k.name, text, hidden: k.value };
      expect(shownPart(redactSecrets(text), s), k.name).toBeNull();
      for (let max = 1; max <= text.length + 1; max++) expect(shownPart(redactSecrets(cutText(text, max)), s), `${k.name} cut at ${max}`).toBeNull();
    }
  });

  it('should leave ordinary text with U+FFFD in it as it is', () => {
    // (U+FFFD where a value starts is a value of its own to the rules as they were: `"api_key": \uFFFDnull`)
    for (const t of ORDINARY_CORPUS) {
      const text = `${R} ${t.text} ${R}`;
      expect(redactSecrets(text), t.name).toBe(text);
      const words = t.text.replace(/\b([0-9a-f]{6})([0-9a-f]{6,})\b/g, `$1${R}$2`);
      expect(redactSecrets(words), t.name).toBe(words);
    }
    expect(redactSecrets(`${R}${R}${R}`)).toBe(`${R}${R}${R}`);
  });

  it('should show no part of a token split by an invalid byte in the MCP proxy warning or its log line', async () => {
    const key = (VENDOR_KEYS.find((k) => k.value.startsWith('ghp_')) ?? VENDOR_KEYS[0])?.value as string;
    const cIn = new PassThrough();
    const cOut = new PassThrough();
    const sIn = new PassThrough();
    const sOut = new PassThrough();
    let toClient = '';
    cOut.on('data', (b: Buffer) => (toClient += b.toString('utf8')));
    sOut.resume();
    const logs: string[] = [];
    const gate = new ToolCallGate(new LiveGuard(), 's', (tool, id, d) => logs.push(mcpLogLine(`${d.action} ${tool} (id ${id}): ${d.message ?? ''}`)));
    new McpProxy(gate, { input: cIn, output: cOut }, { input: sIn, output: sOut }, 1 << 20, () => undefined, () => undefined);
    const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
    for (let id = 1; id <= 5; id++) {
      const head = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"run","arguments":{"command":"curl -H 'Authorization: token ${key.slice(0, 20)}`;
      cIn.write(Buffer.concat([Buffer.from(head), Buffer.from([0xff]), Buffer.from(`${key.slice(20)}' https://api.github.com\"}}}\n`)]));
      await settle();
      sIn.write(`{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"curl: (22) The requested URL returned error: 401"}],"isError":true}}\n`);
      await settle();
    }
    const warnings = toClient.split('\n').filter((l) => l.includes('[loopwatch]'));
    expect(warnings.length).toBeGreaterThan(0);
    expect(logs.length).toBeGreaterThan(0);
    const s = { name: 'split token', text: '', hidden: key };
    for (const shown of [...warnings, ...logs]) expect(shownPart(shown, s), shown).toBeNull();
  });
});
