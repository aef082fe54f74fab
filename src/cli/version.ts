/** The package version, read from package.json (beside `src/` in a checkout, beside `dist/` when built). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The package version, from package.json; `unknown` when it cannot be read. */
export function version(): string {
  for (const up of ['../../../package.json', '../../package.json']) {
    try {
      return (JSON.parse(readFileSync(fileURLToPath(new URL(up, import.meta.url)), 'utf8')) as { version: string }).version;
    } catch {
      // not at this depth
    }
  }
  return 'unknown';
}
