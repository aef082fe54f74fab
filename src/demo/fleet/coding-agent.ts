/**
 * Ordinary work of a coding agent: exploring, reading ranges, searching, editing, re-running the tests
 * after edits, shell commands, handing in. Each step is a fresh call (a call already made is drawn again,
 * a few times at most), so plain work repeats no more than real agents incidentally do.
 */
import type { ToolEvent } from '../../types.js';
import { thought } from './agent-text.js';
import { type CodingScene, codeLine, codingScene, fileLength } from './coding-scene.js';
import { bash, editFile, gitDiffStat, readFile, runTests, searchCode, submit } from './coding-tools.js';
import { CallMemory } from './call-memory.js';
import { type Rng, hashString } from './random.js';

/** A coding agent at work on its scene. */
export class CodingAgent {
  readonly scene: CodingScene;
  /** Calls made so far (plain work draws new ones). */
  readonly memory = new CallMemory();
  private editsSinceTest = 0;
  /** Whether the last run of the whole suite was green. */
  private green = false;

  constructor(private readonly rng: Rng) {
    this.scene = codingScene(rng);
  }

  /** Attaches a thought about `subject` to a call just made (about half the time), in place. */
  note(e: ToolEvent, subject?: string): ToolEvent {
    const text = subject === undefined ? undefined : thought(this.rng, 'coding', subject);
    if (text !== undefined) (e as { text?: string }).text = text;
    return e;
  }

  /** A source file: the one at fault more often than the others. */
  file(): string {
    return this.rng.chance(0.4) ? this.scene.home : this.rng.pick(this.scene.files);
  }

  /** Reads a range of a file. */
  read(path = this.file()): ToolEvent {
    const { args } = this.memory.fresh(() => {
      const start = 1 + 20 * this.rng.int(0, Math.floor(fileLength(path) / 20) - 1);
      return { tool: 'read_file', args: { path, start_line: start, end_line: start + this.rng.pick([19, 39, 59, 99]) } };
    });
    return this.note(readFile(path, args.start_line, args.end_line), path);
  }

  /** Searches the code for the symbol, a word of the bug, an import... (always something found). */
  search(): ToolEvent {
    const s = this.scene;
    const w = () => this.rng.pick(s.bug.words);
    const { args } = this.memory.fresh(() => ({ tool: 'search_code', args: { query: this.rng.pick([s.symbol, `def ${s.symbol}`, `${s.symbol}(`, w(), `import ${s.pkg}`, `${w()}_${w()}`]) } }));
    return this.note(searchCode(s, args.query, this.rng.int(1, 6)), s.symbol);
  }

  /** Edits a line of a file; most edits apply (and may fix a failing test, unless `fixes` is false), some miss. */
  edit(path = this.file(), fixes = true): ToolEvent {
    const line = this.rng.int(1, fileLength(path));
    const old = codeLine(path, line).trim();
    const replacement = `${old.replace(/\bNone\b/, '""').replace(/strict=False/, 'strict=True')}  # ${this.rng.pick(['fix', 'handle tz', 'keep precision', 'guard'])}`;
    if (this.rng.chance(0.12)) return this.note(editFile(path, `${old} `, replacement, 'missing'), path);
    this.scene.edits.push(path);
    this.editsSinceTest++;
    if (fixes && this.scene.failing.length > 0 && this.rng.chance(path === this.scene.home ? 0.6 : 0.25)) this.scene.failing.pop();
    return this.note(editFile(path, old, replacement, 'ok', line), path);
  }

  /** Runs the tests (the suite, or one test file). */
  test(target = this.rng.chance(0.6) ? 'tests' : this.rng.pick(this.scene.testFiles)): ToolEvent {
    this.editsSinceTest = 0;
    if (target === 'tests') this.green = this.scene.failing.length === 0;
    return this.note(runTests(this.scene, this.rng, target), 'the tests');
  }

  /** A shell command other than the tests: listing, git, python one-liners, packaging. */
  shell(): ToolEvent {
    return this.note(this.memory.fresh(() => this.command()), 'the repository layout');
  }

  private command(): ToolEvent {
    const s = this.scene;
    const r = this.rng;
    const f = this.file();
    switch (r.int(0, 11)) {
      case 0: return bash(`ls ${s.repo}/${s.pkg}`, s.files.map((x) => x.slice(s.pkg.length + 1)).join('\n'));
      case 1: return gitDiffStat(s);
      case 2: return bash(`cd ${s.repo} && git log --oneline -5 -- ${f}`, Array.from({ length: 5 }, (_, i) => `${(hashString(f) + i * 0x9e37).toString(16).slice(0, 7)} ${r.pick(['Fix', 'Add', 'Refactor', 'Bump'])} ${r.pick(s.bug.words)}`).join('\n'));
      case 3: return bash(`wc -l ${s.repo}/${f}`, `${fileLength(f)} ${s.repo}/${f}`);
      case 4: return bash(`cd ${s.repo} && python -c "import ${s.pkg}; print(${s.pkg}.__version__)"`, `${1 + (hashString(s.pkg) % 3)}.${hashString(s.repo) % 20}.0`);
      case 5: return bash(`grep -rn "${s.symbol}" ${s.repo}/${s.pkg} | head -5`, `${s.repo}/${s.home}:${1 + (hashString(s.home) % 200)}:def ${s.symbol}(value, *, strict=False):`);
      case 6: return bash(`cd ${s.repo} && git status --short`, [...new Set(s.edits)].map((x) => ` M ${x}`).join('\n'));
      case 7: return bash(`ls ${s.repo}/tests`, s.testFiles.map((x) => x.slice(6)).join('\n'));
      case 8: return bash(`sed -n '1,30p' ${s.repo}/${f}`, codeLine(f, 1) + '\n' + codeLine(f, 2) + '\n...');
      case 9: return bash(`cd ${s.repo} && git blame -L ${1 + (hashString(f) % 50)},+10 ${f}`, `^${hashString(f).toString(16).slice(0, 7)} (dev 2024-02-11) ${codeLine(f, 1 + (hashString(f) % 50))}`);
      case 10: return bash(`pip show ${r.pick(['python-dateutil', 'pytest', 'requests', 'pyyaml', 'attrs'])}`, `Name: package\nVersion: ${r.int(1, 7)}.${r.int(0, 30)}.${r.int(0, 9)}\nLocation: /usr/lib/python3/site-packages`);
      default: return bash(`cd ${s.repo} && python -m ${s.pkg}.cli --help`, `usage: ${s.pkg} [-h] [--config PATH] {run,check,export} ...`);
    }
  }

  /** A step that looks without touching anything: reading, searching or a shell command. */
  look(): ToolEvent {
    const kind = this.rng.weighted({ read: 3, search: 2, shell: 1 });
    return kind === 'read' ? this.read() : kind === 'search' ? this.search() : this.shell();
  }

  /** One step of ordinary work: tests when something was edited, else reading, searching, editing, shell. */
  step(): ToolEvent {
    if (this.editsSinceTest > 0 && this.rng.chance(0.5)) return this.test();
    const kind = this.rng.weighted({ read: 4, search: 2, edit: 2, shell: 2 });
    return kind === 'read' ? this.read() : kind === 'search' ? this.search() : kind === 'edit' ? this.edit() : this.shell();
  }

  /**
   * `n` steps of ordinary work, the first three exploring when `exploring`. With `untilDone`, the work
   * stops early once the whole suite has run green (the agent then finishes).
   */
  work(n: number, exploring = false, untilDone = false): ToolEvent[] {
    const out: ToolEvent[] = [];
    for (let i = 0; i < n && !(untilDone && this.green); i++) {
      const first = exploring ? i : 3;
      if (first >= 3 && this.scene.failing.length === 0 && !this.green) out.push(this.test('tests'));
      else out.push(first === 0 ? this.shell() : first === 1 ? this.search() : first === 2 ? this.read(this.scene.home) : this.step());
    }
    return out;
  }

  /** The end of a session that finished: the diff, then the hand-in. */
  finish(): ToolEvent[] {
    return [gitDiffStat(this.scene), submit(`Fixed ${this.scene.symbol} (${this.scene.bug.words.slice(0, 2).join(' ')}); tests updated.`)];
  }
}
