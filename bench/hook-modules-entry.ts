/**
 * The hook command run from tsc's modules one by one (no bundle, no code cache), for `--scope hook`: what
 * the bundle and the cache save is measured against it. Takes the hook's arguments; the payload on stdin.
 */
import { hookCommand } from '../src/cli/hook-command.js';
import { fdHookIo } from '../src/cli/hook-io.js';

process.exitCode = await hookCommand(process.argv.slice(2), fdHookIo());
