/**
 * The world of one coding session: a small Python repository with a bug, its files (whose lines are a
 * pure function of path and line number, so reading a range twice gives the same text), its test suite
 * and how its tests are run (a `run_tests` tool, or pytest through `bash`).
 */
import { type Rng, hashString } from './random.js';

const PROJECTS = ['calendar', 'invoicer', 'feedparser', 'shipit', 'ledger', 'tinyhttp', 'mdconvert', 'geokit', 'authkit', 'scheduler', 'pricing', 'notifier'];
const MODULES = ['parse', 'utils', 'models', 'views', 'api', 'client', 'config', 'cli', 'cache', 'auth', 'storage', 'formatters', 'validators', 'tz', 'errors', 'serializers', 'tasks', 'db'];
const FUNCS = ['parse_date', 'load_config', 'get_user', 'format_amount', 'retry_request', 'normalize_path', 'build_query', 'render_template', 'validate_email', 'compute_total', 'merge_settings', 'read_chunk', 'to_utc', 'slugify', 'paginate', 'encode_token', 'apply_discount', 'resolve_host'];
const VARS = ['value', 'result', 'items', 'path', 'config', 'user', 'amount', 'token', 'offset', 'payload', 'response', 'entry'];
const CLASSES = ['Parser', 'Config', 'Client', 'Session', 'Invoice', 'Ledger', 'Schedule', 'Formatter', 'Cache', 'Token'];
const COMMENTS = ['handle the empty case first', 'TODO: support negative offsets', 'keep the order stable', 'fall back to UTC', 'see issue #' /* number added */, 'cached on first use', 'the caller owns the result'];

/** What the bug is about: the words a task statement and the agent's searches use. */
export interface BugTopic {
  readonly words: readonly string[];
  readonly error: string;
}

const BUGS: readonly BugTopic[] = [
  { words: ['timezone', 'offset', 'parse', 'iso', 'datetime'], error: "AssertionError: assert datetime(2024, 3, 1, 9, 0) == datetime(2024, 3, 1, 9, 0, tzinfo=timezone.utc)" },
  { words: ['rounding', 'currency', 'amount', 'decimal', 'total'], error: "AssertionError: assert Decimal('10.01') == Decimal('10.00')" },
  { words: ['retry', 'backoff', 'request', 'timeout', 'client'], error: 'AssertionError: expected 3 attempts, got 1' },
  { words: ['config', 'merge', 'defaults', 'override', 'settings'], error: "KeyError: 'database'" },
  { words: ['unicode', 'slug', 'normalize', 'accent', 'title'], error: "AssertionError: assert 'caf' == 'cafe'" },
  { words: ['pagination', 'cursor', 'limit', 'page', 'query'], error: 'AssertionError: assert 49 == 50' },
  { words: ['token', 'expiry', 'refresh', 'auth', 'session'], error: 'AssertionError: token accepted after expiry' },
];

/** One coding session's repository, bug and test suite. */
export interface CodingScene {
  readonly repo: string;
  readonly pkg: string;
  /** Source files, relative to the repository root. */
  readonly files: readonly string[];
  readonly testFiles: readonly string[];
  /** The function at fault, and the file it lives in. */
  readonly symbol: string;
  readonly home: string;
  readonly bug: BugTopic;
  /** How tests are run: a `run_tests` tool (no timings) or `bash` with raw pytest output (timings vary). */
  readonly harness: 'tool' | 'bash';
  /** Names of the failing tests now; shrinks as the fix progresses. */
  failing: string[];
  passed: number;
  /** Edits made so far (what `git diff` shows). */
  edits: string[];
}

/** A fresh scene for a coding session. */
export function codingScene(rng: Rng): CodingScene {
  const pkg = rng.pick(PROJECTS);
  const mods = rng.sample(MODULES, rng.int(5, 9));
  const files = [`${pkg}/__init__.py`, ...mods.map((m) => `${pkg}/${m}.py`)];
  const testFiles = mods.slice(0, rng.int(2, 4)).map((m) => `tests/test_${m}.py`);
  const bug = rng.pick(BUGS);
  const symbol = rng.pick(FUNCS);
  const failing = Array.from({ length: rng.int(1, 5) }, (_, i) => `${rng.pick(testFiles)}::test_${symbol}_${bug.words[i % bug.words.length] as string}`);
  return { repo: `/workspace/${pkg}`, pkg, files, testFiles, symbol, home: files[1] as string, bug, harness: rng.chance(0.5) ? 'tool' : 'bash', failing: [...new Set(failing)], passed: rng.int(12, 140), edits: [] };
}

/** Number of lines of a file (stable per path). */
export function fileLength(path: string): number {
  return 60 + (hashString(path) % 540);
}

/** Line `n` (from 1) of the file at `path`: plausible Python, the same every time. */
export function codeLine(path: string, n: number): string {
  const h = hashString(`${path}#${n}`);
  const v = VARS[h % VARS.length] as string;
  const f = FUNCS[(h >>> 5) % FUNCS.length] as string;
  switch ((h >>> 10) % 9) {
    case 0: return `def ${f}(${v}, *, strict=False):`;
    case 1: return `    if ${v} is None:`;
    case 2: return `        return ${f}(${v})`;
    case 3: return `    ${v} = ${f}(${VARS[(h >>> 14) % VARS.length] as string})`;
    case 4: return `from .${MODULES[(h >>> 14) % MODULES.length] as string} import ${f}`;
    case 5: return `    raise ValueError(f"invalid ${v}: {${v}!r}")`;
    case 6: return `class ${CLASSES[(h >>> 14) % CLASSES.length] as string}:`;
    case 7: return `    # ${COMMENTS[(h >>> 14) % COMMENTS.length] as string}${(h >>> 14) % COMMENTS.length === 4 ? String(100 + (h % 900)) : ''}`;
    default: return `    for ${v} in ${v}s:`;
  }
}

/** Lines shown of a long range; the rest is summarised, as reading tools truncate. */
export const SHOWN_LINES = 12;

/** Shown ranges made so far, by path and range (paths come from a small vocabulary); emptied past 20,000. */
const RANGES = new Map<string, string>();

/** Lines `start` to `end` of a file, numbered as `cat -n` does (at most {@link SHOWN_LINES} shown). */
export function numberedLines(path: string, start: number, end: number): string {
  const key = `${path}:${start}:${end}`;
  let out = RANGES.get(key);
  if (out !== undefined) return out;
  const last = Math.min(end, start + SHOWN_LINES - 1);
  out = `${String(start).padStart(6)}\t${codeLine(path, start)}`;
  for (let n = start + 1; n <= last; n++) out += `\n${String(n).padStart(6)}\t${codeLine(path, n)}`;
  if (last < end) out += `\n... (${end - last} more lines)`;
  if (RANGES.size >= 20_000) RANGES.clear();
  RANGES.set(key, out);
  return out;
}
