/**
 * Which calls change the workspace: edits, writes, patches, formatters run in place, installs. A check
 * (tests, type-check, lint, build) re-run after each distinct successful change is progress even when its
 * output never changes, since the state it checks did; a call that only reads (a file, a search, a
 * listing) changes nothing, so a repetition with only reads between is no progress.
 *
 * The one table of tool names loopwatch keeps ({@link EDIT_TOOLS}), with the commands of a shell call that
 * write ({@link SHELL_WRITES}) and the words of an MCP tool's name that say it changes what its server holds
 * ({@link MCP_CHANGE_WORDS}). A tool not named here changes the workspace only through a shell command
 * these recognise; an unknown tool is taken to read.
 *
 * Args are read as values, or as JSON text still in a record's bytes (JsonArgsText: the members named here
 * decoded from their spans alone, src/fingerprint/json-args-text.ts's ARG_MEMBERS, which must list every one).
 */
import { argMember } from '../fingerprint/json-args-text.js';

/** Tools whose successful call changes the workspace, whatever their args (names as the agents give them). */
export const EDIT_TOOLS: ReadonlySet<string> = new Set([
  // Claude Code
  'Edit', 'MultiEdit', 'Write', 'NotebookEdit',
  // Codex
  'apply_patch',
  // Gemini CLI
  'write_file', 'replace',
  // SWE-agent
  'edit', 'create', 'insert',
  // Cline, Roo Code, Cursor, MCP filesystem servers
  'write_to_file', 'replace_in_file', 'apply_diff', 'insert_content', 'search_replace', 'edit_file', 'create_file', 'move_file', 'delete_file',
]);

/**
 * Tools that edit through a `command` argument (OpenHands' and Anthropic's text editors), and the commands
 * that change a file (`view` reads; `undo_edit` goes back to a state already seen).
 */
export const EDITOR_TOOLS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['str_replace_editor', new Set(['create', 'str_replace', 'insert'])],
  ['str_replace_based_edit_tool', new Set(['create', 'str_replace', 'insert'])],
]);

/**
 * A word as a flagless expression matching it in any case (`Set-Content`, `set-content`): PowerShell's
 * cmdlet names are caseless, and SHELL_WRITES' parts are joined into one expression without their flags.
 */
function caseless(word: string): string {
  return [...word].map((c) => (c.toLowerCase() === c.toUpperCase() ? c.replace(/[.\\[\]]/g, '\\$&') : `[${c.toUpperCase()}${c.toLowerCase()}]`)).join('');
}

/**
 * PowerShell's cmdlets that write, move or remove files (a Codex session on Windows runs each command as
 * `powershell.exe -Command ...`), whatever their case; `cp`, `mv`, `rm` and `>` are read as in a POSIX shell.
 * Their short aliases (`sc`, `ac`, `ni`, `ri`, `del`, `ren`) are not: as words they are too common elsewhere
 * (`del` in a Python one-liner, `sc` the Windows service tool).
 */
const POWERSHELL_WRITES = ['Set-Content', 'Add-Content', 'Out-File', 'Tee-Object', 'New-Item', 'Copy-Item', 'Move-Item', 'Remove-Item', 'Rename-Item'];

/**
 * .NET's file writes as PowerShell calls them (`[IO.File]::WriteAllText(...)`, `[System.IO.File]::Delete(...)`).
 */
const DOTNET_FILE_WRITES = String.raw`\[(?:System\.)?IO\.File\]::(?:WriteAll(?:Text|Lines|Bytes)|AppendAll(?:Text|Lines)|Copy|Move|Delete|Replace)\b`;

/**
 * A task tracker's or forge's commands that change the record the agent works on, as an MCP tool's `update`
 * does (MCP_CHANGE_WORDS): beads' `bd update|create|close|reopen|delete|sync`, `bd dep add|remove`,
 * `bd label add|remove`, `bd comments add`; GitHub's `gh issue|pr create|edit|comment|close|reopen|merge`.
 * Their reads (`bd ready`, `bd list`, `bd show`, `gh pr view`) are not: a status polled again after such a
 * change looks at new work.
 */
const TRACKER_WRITES = String.raw`bd\s+(?:update|create|close|reopen|delete|sync|(?:dep|label)\s+(?:add|remove)|comments?\s+add)\b|gh\s+(?:issue|pr)\s+(?:create|edit|comment|close|reopen|merge)\b`;

/** Shell commands that write files or the environment, tried on a shell call's command text. */
export const SHELL_WRITES: readonly RegExp[] = Object.freeze([
  // patches (Codex's `apply_patch`, and `applypatch << 'PATCH'` as older Codex models wrote it), in-place edits, files written through a pipe
  /(?:^|[\s;&|(])(?:apply_patch|applypatch|patch|tee)(?:\s|$)/,
  // (perl's flag groups may hold digits: `perl -0pi -e`, `perl -0777 -pi -e`, a record separator before the -i)
  /(?:^|[\s;&|(])(?:sed|perl)\s+(?:-[a-zA-Z0-9]*\s+)*-[a-zA-Z0-9]*i/,
  /(?:^|[\s;&|(])git\s+(?:apply|am|checkout|restore|reset|merge|rebase|cherry-pick|revert|stash|switch|pull|mv|rm)\b/,
  // a redirect into a file (not a descriptor; not a device that keeps nothing, quoted or not: /dev/null,
  // /dev/stderr, PowerShell's `$null`, Windows' `nul`)
  /(?:^|[^0-9&>=-])>>?\s*(?!&|["']?(?:\/dev\/(?:null|stdout|stderr|tty|fd\/\d+)|\$[Nn][Uu][Ll][Ll]|[Nn][Uu][Ll])(?![\w.\/-]))["']?[\w.~/$-]/,
  // files made, moved, removed
  /(?:^|[\s;&|(])(?:mv|cp|rm|mkdir|touch|ln|chmod|truncate|install)\s/,
  // formatters and fixers that rewrite files (`.*--fix` is read again after each `eslint` of a line: quadratic,
  // so only a command's first COMMAND_LOOK characters are tried, 14 ms on the worst such command)
  /(?:^|[\s;&|(])(?:gofmt\s+(?:-\w+\s+)*-w|go\s+fmt|cargo\s+fmt|rustfmt|black|isort|ruff\s+format|prettier\s+.*--write|eslint\s+.*--fix|ruff\s+check\s+.*--fix)\b/,
  // an interpreter's inline script that writes a file (`python3 - <<'PY'` ... `path.write_text(text)`,
  // `node -e "fs.writeFileSync(...)"`): the script is the edit, as `perl -pi` is
  /(?:^|[\s;&|(])(?:python3?|node|ruby|bun|deno)\s+(?:-[a-zA-Z]*\s+)*(?:-[ce]\s|-\s*<<|<<)[\s\S]*?(?:\.write_(?:text|bytes)\(|\bwriteFile(?:Sync)?\(|\bFile\.write\(|\bopen\([^)\n]*,\s*['"][wa]b?\+?['"])/,
  // PowerShell's cmdlets and .NET's file calls that write (any case; not followed by more of a name: `New-ItemProperty`)
  new RegExp(String.raw`(?:^|[\s;&|(])(?:${POWERSHELL_WRITES.map(caseless).join('|')})(?![\w-])`),
  new RegExp(DOTNET_FILE_WRITES),
  // a task tracker's or forge's changes of its records
  new RegExp(String.raw`(?:^|[\s;&|(])(?:${TRACKER_WRITES})`),
  // installs, and removals by the same package managers (`npm uninstall`, `bun remove -g x`: a `which x` after
  // one looks at a changed environment, as after an install)
  /(?:^|[\s;&|(])(?:npm\s+(?:install|i|ci|add|uninstall|remove|rm|un)|pnpm\s+(?:install|add|i|remove|rm|uninstall)|yarn\s+(?:add|remove)|bun\s+(?:add|install|i|remove|rm)|pip3?\s+(?:install|uninstall)|uv\s+(?:add|remove|pip\s+(?:install|uninstall)|sync)|poetry\s+(?:add|remove)|cargo\s+(?:add|remove)|go\s+get|bundle\s+install)\b/,
]);

/** What most of SHELL_WRITES (nine of eleven) begin with: a command's start or a separator before its word. */
const AT_WORD = String.raw`(?:^|[\s;&|(])`;

/**
 * SHELL_WRITES as one expression (none has flags or state): one scan of a command where some() would make
 * eleven. The patterns that begin with AT_WORD share it (`P(?:a|b)` matches where `(?:Pa)|(?:Pb)` does), so
 * at most places of a command one test of a byte rejects them all: 0.61x the time of the seven side by side
 * over the traces' 23,175 shell commands (187 against 308 ns a command).
 */
const ANY_SHELL_WRITE = new RegExp(
  [
    `${AT_WORD}(?:${SHELL_WRITES.filter((p) => p.source.startsWith(AT_WORD)).map((p) => `(?:${p.source.slice(AT_WORD.length)})`).join('|')})`,
    ...SHELL_WRITES.filter((p) => !p.source.startsWith(AT_WORD)).map((p) => `(?:${p.source})`),
  ].join('|'),
);

/** Characters of a shell command read at most. */
export const COMMAND_LOOK = 4096;

/**
 * The command text of a shell call's args: `command` or `cmd`, a string or an array of strings. Not the
 * `allow` option's commandText (allow-rules.ts), which reads args still encoded too and, as documented for
 * `allow`, only `command`: reading `cmd` there would allow calls no rule was written for.
 */
export function commandText(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const c = argMember(args, 'command') ?? argMember(args, 'cmd');
  if (typeof c === 'string') return c.length > COMMAND_LOOK ? c.slice(0, COMMAND_LOOK) : c;
  if (Array.isArray(c) && c.every((x) => typeof x === 'string')) return (c as string[]).join(' ').slice(0, COMMAND_LOOK);
  return undefined;
}

/**
 * Words of an MCP tool's name that say it changes what its server holds (`n8n_update_partial_workflow`,
 * `create_entities`, `issue_write`, `deploy_to_vercel`): a workflow, an issue, a record of the world the
 * agent works on, as an edit changes a file.
 */
export const MCP_CHANGE_WORDS: ReadonlySet<string> = new Set([
  'create', 'update', 'delete', 'remove', 'add', 'set', 'write', 'edit', 'patch', 'put', 'insert', 'upsert', 'replace', 'append',
  'rename', 'move', 'save', 'upload', 'publish', 'deploy', 'apply', 'activate', 'deactivate', 'merge', 'commit', 'push',
]);

/** An MCP tool's name as Claude Code and Codex give it: `mcp__<server>__<tool>`; the tool's part captured. */
const MCP_TOOL = /^mcp__.+?__(.+)$/;

/** A tool's name cut into words: at `_`, `-`, `.`, white space, and a capital after a lower-case letter. */
const NAME_WORDS = /[_\-.\s]+|(?<=[a-z0-9])(?=[A-Z])/;

/** Whether `tool` is an MCP tool (`mcp__<server>__<tool>`) whose name has a word of {@link MCP_CHANGE_WORDS}. */
export function mcpChanges(tool: string): boolean {
  if (!tool.startsWith('mcp__')) return false;
  const name = MCP_TOOL.exec(tool)?.[1];
  return name !== undefined && name.split(NAME_WORDS).some((w) => MCP_CHANGE_WORDS.has(w.toLowerCase()));
}

/**
 * Whether a call of `tool` with (normalised) `args` changes the workspace when it succeeds. `read`: how its
 * command text is read ({@link commandText}, or a caller's reading of it made once for several readers).
 * {@link toolChanges}, else {@link shellCommandWrites} of the command text.
 */
export function changesWorkspace(tool: string, args: unknown, read: (args: unknown) => string | undefined = commandText): boolean {
  const known = toolChanges(tool, args);
  if (known !== undefined) return known;
  const command = read(args);
  return command !== undefined && shellCommandWrites(command);
}

/**
 * Whether a call of `tool` changes the workspace by what its tool is: true for an edit tool or an MCP tool
 * named for a change, an editor tool's answer by its `command` member; undefined for any other tool, whose
 * shell command (if its args hold one) decides ({@link shellCommandWrites}).
 */
export function toolChanges(tool: string, args: unknown): boolean | undefined {
  if (EDIT_TOOLS.has(tool)) return true;
  if (mcpChanges(tool)) return true;
  const editor = EDITOR_TOOLS.get(tool);
  if (editor === undefined) return undefined;
  const c = typeof args === 'object' && args !== null ? argMember(args, 'command') : undefined;
  return typeof c === 'string' && editor.has(c);
}

/** Whether a shell command writes files or the environment (one of {@link SHELL_WRITES}): a function of its text alone. */
export function shellCommandWrites(command: string): boolean {
  return ANY_SHELL_WRITE.test(command);
}

/** Fields that name the file an edit changes, in the order tried. */
export const TARGET_FIELDS: readonly string[] = Object.freeze(['file_path', 'path', 'notebook_path', 'filePath', 'target_file', 'filename', 'file']);

const PATCH_FILE = /\*\*\* (?:Update|Add|Delete) File: ([^\n]+)/;

/**
 * The file a change names: its path field, or the first file of a patch (`*** Update File: <path>`, as
 * Codex's apply_patch writes it, as a tool's input or inside a shell command); undefined when unknown
 * (most shell writes).
 */
export function changeTarget(tool: string, args: unknown): string | undefined {
  if (typeof args === 'string') return PATCH_FILE.exec(args.slice(0, COMMAND_LOOK))?.[1]?.trim();
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  if (EDIT_TOOLS.has(tool) || EDITOR_TOOLS.has(tool)) {
    for (const f of TARGET_FIELDS) {
      const v = argMember(args, f);
      if (typeof v === 'string' && v !== '') return v;
    }
  }
  for (const text of [argMember(args, 'input'), argMember(args, 'patch'), commandText(args)]) {
    if (typeof text !== 'string') continue;
    const file = PATCH_FILE.exec(text.slice(0, COMMAND_LOOK))?.[1]?.trim();
    if (file !== undefined) return file;
  }
  return undefined;
}
