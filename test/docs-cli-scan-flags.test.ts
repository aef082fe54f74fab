/**
 * docs/cli.md's scan table names every option `loopwatch scan --help` lists, so a first-time reader of the
 * docs finds each flag the CLI offers (`--metrics` was only in `--help` and docs/metrics.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCAN_HELP } from '../src/cli/help-text.js';

const cliDoc = readFileSync(new URL('../docs/cli.md', import.meta.url), 'utf8');

describe('docs/cli.md scan options', () => {
  it('should document every long option scan --help lists', () => {
    const flags = [...new Set([...SCAN_HELP.matchAll(/^ {2}(?:-[a-z], )?(--[a-z][a-z-]*)/gm)].map((m) => m[1]!))];
    expect(flags.length).toBeGreaterThan(20);
    expect(flags.filter((f) => f !== '--help' && !cliDoc.includes(`| \`${f}`) && !cliDoc.includes(`\`${f} `) && !cliDoc.includes(`, \`${f}`))).toEqual([]);
  });
});
