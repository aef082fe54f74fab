/**
 * The benchmark suite's command line, read and checked before anything is measured: an unknown option, a
 * `--scope` that names no scope, or a number that is not one (`--time abc`) is a usage error naming the
 * flag, the rule and the value received, not a run that measures nothing (a misspelt scope used to print
 * an empty report and exit 0) or prints `NaN ms per task`.
 */
import { parseArgs } from 'node:util';

/** The suite's options, checked. */
export interface BenchArgs {
  /** Scopes whose id or name contains it; '' for every scope. */
  readonly scope: string;
  readonly json: boolean;
  /** Milliseconds per task. */
  readonly time: number;
  /** Session counts of the per-call scopes. */
  readonly sessions: readonly number[];
  /** A child's one scope id ('' in the parent). */
  readonly run: string;
  /** Runs of each scope. */
  readonly repeat: number;
  readonly fleetSessions: number;
  readonly fleetCalls: number;
}

/** A usage error of the suite's command line (exit 2). */
export class BenchUsageError extends Error {
  override readonly name = 'BenchUsageError';
}

const OPTIONS = {
  scope: { type: 'string', default: '' },
  json: { type: 'boolean', default: false },
  time: { type: 'string', default: '400' },
  sessions: { type: 'string', default: '1,1000,10000' },
  run: { type: 'string', default: '' },
  repeat: { type: 'string', default: '1' },
  'fleet-sessions': { type: 'string', default: '10000' },
  'fleet-calls': { type: 'string', default: '100' },
} as const;

/** `text` as a number above 0 (an integer when `integer`), else a usage error naming `flag`. */
function positive(flag: string, text: string, integer: boolean): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0 || (integer && !Number.isSafeInteger(n))) {
    throw new BenchUsageError(`--${flag} must be ${integer ? 'a whole number' : 'a number'} above 0, received ${JSON.stringify(text)}`);
  }
  return n;
}

/**
 * Reads `argv` (without node and the script). `scopes` are the suite's scope ids and names: a `--scope`
 * that none of them contains is refused, with the ids listed. Throws {@link BenchUsageError}.
 */
export function readBenchArgs(argv: readonly string[], scopes: readonly { readonly id: string; readonly name: string }[]): BenchArgs {
  const parse = (args: string[]) => parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false });
  let values: ReturnType<typeof parse>['values'];
  try {
    ({ values } = parse([...argv]));
  } catch (e) {
    throw new BenchUsageError(`${(e as Error).message.split('\n')[0]}; options: ${Object.keys(OPTIONS).filter((k) => k !== 'run').map((k) => `--${k}`).join(', ')}`);
  }
  const scope = values.scope;
  if (scope !== '' && !scopes.some((s) => s.id.includes(scope) || s.name.includes(scope))) {
    throw new BenchUsageError(`--scope must be part of a scope's id or name, received ${JSON.stringify(scope)}; scopes: ${scopes.map((s) => s.id).join(', ')}`);
  }
  const sessions = values.sessions.split(',').map((s) => positive('sessions', s, true));
  return {
    scope,
    json: values.json,
    time: positive('time', values.time, false),
    sessions,
    run: values.run,
    repeat: positive('repeat', values.repeat, true),
    fleetSessions: positive('fleet-sessions', values['fleet-sessions'], true),
    fleetCalls: positive('fleet-calls', values['fleet-calls'], true),
  };
}
