/**
 * Coding agents stuck without repeating a call exactly: the same error class whatever the args
 * (`dead_end`), near-identical args with the same failure (`similar_args`), paraphrases of one failed
 * search (`semantic`), different calls with the same result (`result_repeat`), and text chanting the same
 * sentence while the calls go on (`chanting`). Each maker returns exactly `count` calls.
 */
import type { ToolEvent } from '../../types.js';
import { CHANT_PHRASES, chant } from './agent-text.js';
import type { CodingAgent } from './coding-agent.js';
import { codeLine } from './coding-scene.js';
import { bash, bashError, editFile, readMissing, searchCode } from './coding-tools.js';
import { FILLERS, fill, paraphrase, typo, varied } from './loop-kit.js';
import type { Rng } from './random.js';
import type { Block } from './truth.js';

const GUESS_DIRS = ['', 'src/', 'conf/', 'config/', 'lib/', 'app/', 'core/', 'settings/', 'etc/'];
const GUESS_NAMES = ['settings', 'config', 'defaults', 'conf', 'local_settings', 'base', 'env', 'constants', 'options'];
const FUNCS = ['to_utc', 'parse_iso', 'parse_timestamp', 'fromisoformat', 'normalize_tz', 'coerce_date', 'date_from_string', 'strptime_safe', 'make_aware', 'utc_offset'];

/** The same error class, args different each time. */
export function codingDeadEnd(a: CodingAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  switch (rng.int(0, 2)) {
    case 0:
      return { variant: 'guessing-file-paths', events: varied(count, () => readMissing(`${s.pkg}/${rng.pick(GUESS_DIRS)}${rng.pick(GUESS_NAMES)}.${rng.pick(['py', 'py', 'toml', 'yaml', 'cfg'])}`)) };
    case 1:
      return {
        variant: 'edits-that-never-match',
        events: varied(count, () => {
          const path = rng.pick(s.files);
          const line = rng.int(1, 300);
          return editFile(path, `${codeLine(path, line).trim()}\n${codeLine(path, line + 2).trim()}`, `${codeLine(path, line).trim()}  # fixed`, 'missing');
        }),
      };
    default:
      return {
        variant: 'importing-names-that-do-not-exist',
        events: varied(count, () => {
          const mod = rng.pick(s.files).slice(s.pkg.length + 1, -3);
          const fn = rng.pick(FUNCS);
          return bashError(`cd ${s.repo} && python -c "from ${s.pkg}.${mod} import ${fn}"`, `ImportError: cannot import name '${fn}' from '${s.pkg}.${mod}' (${s.repo}/${s.pkg}/${mod}.py)`);
        }),
      };
  }
}

/** Retries with one character changed, failing the same way. */
export function codingSimilarArgs(a: CodingAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  switch (rng.int(0, 2)) {
    case 0: {
      const line = rng.int(1, 200);
      const old = `${codeLine(s.home, line).trim()}\n${codeLine(s.home, line + 1).trim()}`;
      const fixed = `${old}  # keep tzinfo`;
      return { variant: 'old-str-variants', events: varied(count, () => editFile(s.home, typo(rng, old), fixed, 'missing')) };
    }
    case 1: {
      const path = `${s.pkg}/utils/date_parsing.py`;
      return { variant: 'path-typos', events: varied(count, () => readMissing(typo(rng, path))) };
    }
    default: {
      const dep = rng.pick(['python-dateutil', 'pytz', 'tzdata', 'pyyaml', 'requests']);
      return {
        variant: 'pinned-version-variants',
        events: varied(count, () => {
          const v = `${rng.int(2, 3)}.${rng.int(8, 9)}.${rng.int(0, 9)}`;
          return bashError(`pip install ${dep}==${v}`, `ERROR: Could not find a version that satisfies the requirement ${dep}==${v} (from versions: 1.0.0, 1.2.1, 1.4.7)\nERROR: No matching distribution found for ${dep}==${v}`);
        }),
      };
    }
  }
}

/** One failed search reworded again and again. */
export function codingSemantic(a: CodingAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  const idea = rng.sample(s.bug.words, 4);
  const reword = () => paraphrase(rng, idea, FILLERS.coding);
  if (rng.chance(0.6)) return { variant: 'paraphrased-code-search', events: varied(count, () => searchCode(s, reword(), 0)) };
  return { variant: 'paraphrased-issue-search', events: varied(count, () => ({ tool: 'search_issues', args: { repo: `acme/${s.pkg}`, query: reword() }, result: '0 results' })) };
}

/** Different calls, the same result each time. */
export function codingResultRepeat(a: CodingAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  if (rng.chance(0.5)) {
    return { variant: 'different-searches-nothing-found', events: varied(count, () => searchCode(s, `${rng.pick(FUNCS)}${rng.pick(['', '(', '_v2', '_tz'])}`, 0)) };
  }
  const runs = [`python -m ${s.pkg}`, `python ${s.pkg}/cli.py`, `python -c "import ${s.pkg}.cli"`, `${s.pkg} --help`, `${s.pkg} --version`, `python -m ${s.pkg}.cli check`, `python setup.py develop && ${s.pkg}`, `pip install -e . -q && ${s.pkg} run`];
  const out = `Traceback (most recent call last):\n  File "${s.repo}/${s.home}", line 12, in <module>\n    import yaml\nModuleNotFoundError: No module named 'yaml'\n[exit code 1]`;
  return { variant: 'different-ways-to-run-same-crash', events: varied(count, () => bash(`cd ${s.repo} && ${rng.pick(runs)}`, out)) };
}

/** The agent's text repeating one sentence while its calls go on. */
export function codingChanting(a: CodingAgent, rng: Rng, count: number): Block {
  const phrase = rng.pick(CHANT_PHRASES.coding);
  const inOne = rng.chance(0.7);
  const events = fill(count, (k): ToolEvent => ({ ...a.look(), text: inOne ? chant(phrase, rng.int(6, 40), k === 0 ? 'Looking at the failure again.' : undefined) : phrase }));
  return { variant: inOne ? 'sentence-repeated-in-each-output' : 'same-sentence-every-call', events };
}
