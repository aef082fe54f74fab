/**
 * One stuck session and one clean session, written in each trace format the CLI reads: the stuck agent
 * runs the same failing command eight times, the clean one reads eight different files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonl } from './cli.js';

/** Calls per session in the fixtures. */
export const FIXTURE_CALLS = 8;
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
/** A session's call `i`. */
type CallAt = (i: number) => { tool: string; args: unknown; result: string };
const STUCK = { tool: 'bash', args: { command: 'pytest -x tests/test_api.py' }, result: 'FAILED tests/test_api.py::test_get - AssertionError: 404 != 200' };
const clean = (i: number) => ({ tool: 'read_file', args: { path: `src/module_${i}.py` }, result: `def f${i}():\n    return ${i}\n` });

/** The loopwatch events format: both sessions interleaved. */
export function writeEvents(dir: string, name = 'events.jsonl'): string {
  return writeJsonl(dir, name, range(FIXTURE_CALLS).flatMap((i) => [
    { session: 'stuck', step: i, ...STUCK, error: 'exit status 1' },
    { session: 'clean', step: i, ...clean(i) },
  ]));
}

/** OpenAI Chat Completions: one conversation per line. */
export function writeOpenAiChat(dir: string, name = 'chat.jsonl'): string {
  const conversation = (id: string, call: CallAt) => ({
    id,
    messages: [
      { role: 'user', content: 'Please fix the failing test.' },
      ...range(FIXTURE_CALLS).flatMap((i) => {
        const c = call(i);
        return [
          { role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: c.tool, arguments: JSON.stringify(c.args) } }] },
          { role: 'tool', tool_call_id: `call_${i}`, content: c.result },
        ];
      }),
    ],
  });
  return writeJsonl(dir, name, [conversation('chat-stuck', () => STUCK), conversation('chat-clean', clean)]);
}

/** OpenAI Responses API items: one response per line. */
export function writeOpenAiResponses(dir: string, name = 'responses.jsonl'): string {
  const response = (id: string, call: CallAt) => ({
    id,
    output: range(FIXTURE_CALLS).flatMap((i) => {
      const c = call(i);
      return [
        { type: 'function_call', call_id: `fc_${i}`, name: c.tool, arguments: JSON.stringify(c.args) },
        { type: 'function_call_output', call_id: `fc_${i}`, output: c.result },
      ];
    }),
  });
  return writeJsonl(dir, name, [response('resp-stuck', () => STUCK), response('resp-clean', clean)]);
}

/** Anthropic Messages: one conversation per line, tool results marked `is_error`. */
export function writeAnthropic(dir: string, name = 'anthropic.jsonl'): string {
  const conversation = (id: string, call: CallAt, failing: boolean) => ({
    id,
    messages: [
      { role: 'user', content: 'Please fix the failing test.' },
      ...range(FIXTURE_CALLS).flatMap((i) => {
        const c = call(i);
        return [
          { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: c.tool, input: c.args }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: c.result, is_error: failing }] },
        ];
      }),
    ],
  });
  return writeJsonl(dir, name, [conversation('anthropic-stuck', () => STUCK, true), conversation('anthropic-clean', clean, false)]);
}

/** SWE-agent: one `.traj` document per run. */
export function writeSweAgent(dir: string, stuckName = 'stuck.traj', cleanName = 'clean.traj'): [string, string] {
  const traj = (call: (i: number) => { action: string; observation: string }) => ({
    trajectory: range(FIXTURE_CALLS).map((i) => ({ ...call(i), thought: 'Let me try that again.' })),
    info: { exit_status: 'submitted' },
  });
  const stuck = join(dir, stuckName);
  const cleanPath = join(dir, cleanName);
  writeFileSync(stuck, JSON.stringify(traj(() => ({ action: 'python reproduce.py', observation: 'Traceback (most recent call last):\nKeyError: id' }))));
  writeFileSync(cleanPath, JSON.stringify(traj((i) => ({ action: `open src/module_${i}.py`, observation: `[File: src/module_${i}.py (2 lines total)]` }))));
  return [stuck, cleanPath];
}

/** The lines of a Claude Code transcript, each assistant message spread over a text line and a tool_use line as Claude Code writes them. */
export function claudeCodeLines(sessionId: string, call: CallAt, failing: boolean): object[] {
  let uuid = 0;
  let parentUuid: string | null = null;
  const line = (type: 'user' | 'assistant', message: object, extra: object = {}): object => {
    const l = { parentUuid, isSidechain: false, userType: 'external', cwd: '/work/app', sessionId, version: '2.0.14', gitBranch: 'main', type, message, uuid: `u-${sessionId}-${uuid}`, timestamp: new Date(Date.UTC(2026, 0, 5, 10, 0, uuid)).toISOString(), ...extra };
    parentUuid = `u-${sessionId}-${uuid++}`;
    return l;
  };
  return [
    { type: 'summary', summary: 'Fix the failing API test', leafUuid: `u-${sessionId}-0` },
    line('user', { role: 'user', content: 'Please fix the failing test.' }),
    ...range(FIXTURE_CALLS).flatMap((i) => {
      const c = call(i);
      const msg = { model: 'claude-sonnet-4-5', id: `msg_${sessionId}_${i}`, type: 'message', role: 'assistant', stop_reason: null, usage: { input_tokens: 10, output_tokens: 5 } };
      return [
        line('assistant', { ...msg, content: [{ type: 'text', text: 'Let me check.' }] }, { requestId: `req_${i}` }),
        line('assistant', { ...msg, content: [{ type: 'tool_use', id: `toolu_${sessionId}_${i}`, name: c.tool, input: c.args }] }, { requestId: `req_${i}` }),
        line('user', { role: 'user', content: [{ tool_use_id: `toolu_${sessionId}_${i}`, type: 'tool_result', content: c.result, ...(failing ? { is_error: true } : {}) }] }, { toolUseResult: failing ? `Error: ${c.result}` : { stdout: c.result, stderr: '', interrupted: false } }),
      ];
    }),
  ];
}

/** Claude Code: one transcript file per session, named by its session id as `~/.claude/projects/<project>/` has them. */
export function writeClaudeCode(dir: string): [string, string] {
  return [writeJsonl(dir, 'cc-stuck.jsonl', claudeCodeLines('cc-stuck', () => STUCK, true)), writeJsonl(dir, 'cc-clean.jsonl', claudeCodeLines('cc-clean', clean, false))];
}

/** The lines of a Codex CLI rollout: session_meta, the user's turn, then per call reasoning, a shell function_call and its structured output. */
export function codexLines(id: string, call: CallAt, exitCode: number): object[] {
  let t = 0;
  const at = () => new Date(Date.UTC(2026, 0, 5, 10, 0, t++)).toISOString();
  const item = (payload: object) => ({ timestamp: at(), type: 'response_item', payload });
  return [
    { timestamp: at(), type: 'session_meta', payload: { id, timestamp: at(), cwd: '/work/app', originator: 'codex_cli_rs', cli_version: '0.46.0', instructions: null, source: 'cli', git: { branch: 'main' } } },
    item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Please fix the failing test.' }] }),
    { timestamp: at(), type: 'event_msg', payload: { type: 'user_message', message: 'Please fix the failing test.', kind: 'plain' } },
    { timestamp: at(), type: 'turn_context', payload: { cwd: '/work/app', approval_policy: 'on-request', model: 'gpt-5-codex', summary: 'auto' } },
    ...range(FIXTURE_CALLS).flatMap((i) => {
      const c = call(i);
      return [
        item({ type: 'reasoning', summary: [{ type: 'summary_text', text: '**Running it again**' }], content: null, encrypted_content: 'gAAAA' }),
        item({ type: 'function_call', name: c.tool, arguments: JSON.stringify(c.args), call_id: `call_${id}_${i}` }),
        item({ type: 'function_call_output', call_id: `call_${id}_${i}`, output: JSON.stringify({ output: c.result, metadata: { exit_code: exitCode, duration_seconds: 0.4 + i / 10 } }) }),
        { timestamp: at(), type: 'event_msg', payload: { type: 'token_count', info: null } },
      ];
    }),
  ];
}

/** Codex CLI: one rollout file per session, in the `YYYY/MM/DD/` folders `~/.codex/sessions/` has. */
export function writeCodex(dir: string): [string, string] {
  const day = join(dir, '2026', '01', '05');
  mkdirSync(day, { recursive: true });
  return [
    writeJsonl(day, 'rollout-2026-01-05T10-00-00-codex-stuck.jsonl', codexLines('codex-stuck', () => STUCK, 1)),
    writeJsonl(day, 'rollout-2026-01-05T11-00-00-codex-clean.jsonl', codexLines('codex-clean', clean, 0)),
  ];
}

/** An OTLP/JSON string attribute. */
const attr = (key: string, value: string | number) => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } });
/** A 16-byte trace id (or, `bytes` 8, span id) in hex, made from `name`. */
export const hexId = (name: string, bytes = 16): string => Buffer.from(name.padEnd(bytes, '.').slice(0, bytes)).toString('hex');

/**
 * Collector file-exporter lines (one OTLP/JSON export per line) of one agent run per session: an
 * `invoke_agent` span naming the conversation (exported last, as it ends last), a `chat` span and an
 * `execute_tool` span per call, the tool spans carrying no conversation id of their own; batches of three
 * calls, each batch's spans in reverse order. `withArgs` false leaves `gen_ai.tool.call.arguments` out.
 */
export function otelExportLines(runs: readonly { conversation: string; call: CallAt; failing: boolean }[], withArgs = true): object[] {
  const resource = { attributes: [attr('service.name', 'support-agent')] };
  const scope = { name: 'opentelemetry.instrumentation.genai', version: '0.4b0' };
  const lines: object[] = [];
  const t0 = 1_767_607_200_000_000_000n;
  for (const run of runs) {
    const traceId = hexId(run.conversation);
    const root = hexId(`${run.conversation}:root`, 8);
    const spans = range(FIXTURE_CALLS).flatMap((i) => {
      const c = run.call(i);
      const start = t0 + BigInt(i) * 2_000_000_000n;
      const span = (kind: string, offset: bigint, attributes: object[], status: object = {}) => ({
        traceId, spanId: hexId(`${run.conversation}:${kind}${i}`, 8), parentSpanId: root, name: kind === 'chat' ? 'chat gpt-4o' : `execute_tool ${c.tool}`, kind: kind === 'chat' ? 3 : 1,
        startTimeUnixNano: String(start + offset), endTimeUnixNano: String(start + offset + 900_000_000n), attributes, status,
      });
      return [
        span('chat', 0n, [attr('gen_ai.operation.name', 'chat'), attr('gen_ai.request.model', 'gpt-4o'), attr('gen_ai.usage.input_tokens', 120)]),
        span('tool', 1_000_000_000n, [
          attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', c.tool), attr('gen_ai.tool.call.id', `call_${i}`), attr('gen_ai.tool.type', 'function'),
          ...(withArgs ? [attr('gen_ai.tool.call.arguments', JSON.stringify(c.args))] : []), attr('gen_ai.tool.call.result', c.result),
          ...(run.failing ? [attr('error.type', 'ToolError')] : []),
        ], run.failing ? { code: 2, message: c.result } : {}),
      ];
    });
    for (let b = 0; b < spans.length; b += 6) lines.push({ resourceSpans: [{ resource, scopeSpans: [{ scope, spans: spans.slice(b, b + 6).reverse() }] }] });
    const agent = { traceId, spanId: root, name: 'invoke_agent support', kind: 1, startTimeUnixNano: String(t0 - 1n), endTimeUnixNano: String(t0 + 20_000_000_000n), attributes: [attr('gen_ai.operation.name', 'invoke_agent'), attr('gen_ai.conversation.id', run.conversation)], status: { code: 1 } };
    lines.push({ resourceSpans: [{ resource, scopeSpans: [{ scope, spans: [agent] }] }] });
  }
  return lines;
}

/** OpenTelemetry GenAI spans: both runs in one collector file-exporter dump. */
export function writeOtel(dir: string, name = 'traces.jsonl', withArgs = true): string {
  return writeJsonl(dir, name, otelExportLines([{ conversation: 'otel-stuck', call: () => STUCK, failing: true }, { conversation: 'otel-clean', call: clean, failing: false }], withArgs));
}

/** The payloads a Claude Code tool hook receives for one session's calls: PreToolUse, then PostToolUse or PostToolUseFailure. */
export function hookPayloads(sessionId: string, call: CallAt, failing: boolean): object[] {
  const common = { session_id: sessionId, transcript_path: `/home/dev/.claude/projects/-work-app/${sessionId}.jsonl`, cwd: '/work/app', permission_mode: 'default' };
  return [
    { ...common, hook_event_name: 'UserPromptSubmit', prompt: 'Please fix the failing test.' },
    ...range(FIXTURE_CALLS).flatMap((i) => {
      const c = call(i);
      const pre = { ...common, hook_event_name: 'PreToolUse', tool_name: c.tool, tool_input: c.args, tool_use_id: `toolu_${sessionId}_${i}` };
      const post = failing ? { ...pre, hook_event_name: 'PostToolUseFailure', error: c.result, is_interrupt: false } : { ...pre, hook_event_name: 'PostToolUse', tool_response: { stdout: c.result, stderr: '', interrupted: false } };
      return [pre, post];
    }),
    { ...common, hook_event_name: 'Stop', stop_hook_active: false },
  ];
}

/** Hook payload logs: both sessions' payloads in one log, interleaved as two agents sharing a logging hook write them. */
export function writeHookPayloads(dir: string, name = 'hooks.jsonl'): string {
  const a = hookPayloads('hook-stuck', () => STUCK, true);
  const b = hookPayloads('hook-clean', clean, false);
  return writeJsonl(dir, name, a.flatMap((p, i) => [p, b[i]!]));
}

/**
 * An OpenHands event stream as `event_to_dict` writes it: the user's message and its recall, then per call
 * an agent action with its tool call metadata and the observation caused by it (exit codes for commands),
 * between agent state changes.
 */
export function openHandsEvents(call: CallAt, failing: boolean): object[] {
  let id = 0;
  const ts = () => new Date(Date.UTC(2026, 0, 5, 10, 0, id)).toISOString().replace('Z', '');
  const events: object[] = [
    { id: id++, timestamp: ts(), source: 'environment', message: '', observation: 'agent_state_changed', content: '', extras: { agent_state: 'running' } },
    { id: id++, timestamp: ts(), source: 'user', message: 'Please fix the failing test.', action: 'message', args: { content: 'Please fix the failing test.', image_urls: null, wait_for_response: false } },
    { id: id++, timestamp: ts(), source: 'user', message: 'Retrieving content for: Please fix', action: 'recall', args: { recall_type: 'workspace_context', query: 'Please fix the failing test.', thought: '' } },
    { id: id++, timestamp: ts(), source: 'environment', message: 'Added workspace context', cause: 2, observation: 'recall', content: 'Added workspace context', extras: { recall_type: 'workspace_context' } },
  ];
  for (const i of range(FIXTURE_CALLS)) {
    const c = call(i);
    const run = c.tool === 'bash';
    const meta = { function_name: run ? 'execute_bash' : 'str_replace_editor', tool_call_id: `toolu_${i}`, model_response: { id: `chatcmpl-${i}`, object: 'chat.completion', choices: [] }, total_calls_in_response: 1 };
    const args = run ? { command: (c.args as { command: string }).command, is_input: false, thought: 'Let me run the tests again.', blocking: false, hidden: false, confirmation_state: 'confirmed' } : { path: (c.args as { path: string }).path, start: 0, end: -1, thought: 'Reading the next module.', impl_source: 'oh_aci', view_range: null };
    const action = id++;
    events.push({ id: action, timestamp: ts(), source: 'agent', message: run ? `Running command: ${args.command as string}` : `Reading file: ${args.path as string}`, action: run ? 'run' : 'read', tool_call_metadata: meta, args });
    const extras = run ? { command: args.command, metadata: { exit_code: failing ? 1 : 0, pid: -1, username: 'openhands', working_dir: '/workspace', prefix: '', suffix: `\n[The command completed with exit code ${failing ? 1 : 0}.]` }, hidden: false } : { path: args.path, impl_source: 'oh_aci' };
    events.push({ id: id++, timestamp: ts(), source: 'agent', message: run ? `Command executed with exit code ${failing ? 1 : 0}.` : `I read the file ${args.path as string}.`, cause: action, observation: run ? 'run' : 'read', tool_call_metadata: meta, content: c.result, extras, ...(run ? { success: !failing } : {}) });
  }
  events.push({ id: id++, timestamp: ts(), source: 'environment', message: '', observation: 'agent_state_changed', content: '', extras: { agent_state: 'awaiting_user_input' } });
  return events;
}

/** OpenHands: each conversation as its event store keeps it, `sessions/<id>/events/<N>.json` beside its metadata and cache pages; returns the sessions folder. */
export function writeOpenHands(dir: string): string {
  const sessions = join(dir, 'sessions');
  for (const [id, call, failing] of [['oh-stuck', () => STUCK, true], ['oh-clean', clean, false]] as const) {
    const events = openHandsEvents(call, failing);
    mkdirSync(join(sessions, id, 'events'), { recursive: true });
    mkdirSync(join(sessions, id, 'event_cache'), { recursive: true });
    events.forEach((e, n) => writeFileSync(join(sessions, id, 'events', `${n}.json`), JSON.stringify(e)));
    writeFileSync(join(sessions, id, 'event_cache', '0-25.json'), JSON.stringify(events.slice(0, 25)));
    writeFileSync(join(sessions, id, 'metadata.json'), JSON.stringify({ conversation_id: id, title: 'Fix the test', selected_repository: null }));
  }
  return sessions;
}

/**
 * A Gemini CLI chat as the CLI records it (`~/.gemini/tmp/<project>/chats/session-*.json`): the user's
 * message, then per call a `gemini` message with its text, thoughts and the tool call with its
 * `functionResponse` result and status (an `error` response and status when `failing`).
 */
export function geminiChat(sessionId: string, call: CallAt, failing: boolean): object {
  let t = 0;
  const ts = () => new Date(Date.UTC(2026, 1, 23, 9, 0, t++)).toISOString();
  return {
    sessionId,
    projectHash: 'c1a9f0'.padEnd(64, '0'),
    startTime: ts(),
    lastUpdated: ts(),
    messages: [
      { id: `${sessionId}-u`, timestamp: ts(), type: 'user', content: [{ text: 'Please fix the failing test.' }] },
      ...range(FIXTURE_CALLS).map((i) => {
        const c = call(i);
        const id = `${c.tool}_17718374356${i}_0`;
        const response = failing ? { error: c.result } : { output: c.result };
        return {
          id: `${sessionId}-g${i}`,
          timestamp: ts(),
          type: 'gemini',
          content: 'Let me check.',
          thoughts: [{ subject: 'Checking', description: 'Looking at it again.', timestamp: ts() }],
          tokens: { input: 100, output: 10, cached: 0, thoughts: 5, tool: 0, total: 115 },
          model: 'gemini-3-pro-preview',
          toolCalls: [{ id, name: c.tool, args: c.args, result: [{ functionResponse: { id, name: c.tool, response } }], status: failing ? 'error' : 'success', timestamp: ts(), resultDisplay: c.result, displayName: c.tool, description: '', renderOutputAsMarkdown: false }],
        };
      }),
    ],
  };
}

/** Gemini CLI: one chat file per session, under `chats/` as `~/.gemini/tmp/<project>/` has them. */
export function writeGeminiCli(dir: string): [string, string] {
  const chats = join(dir, 'gemini', 'chats');
  mkdirSync(chats, { recursive: true });
  const stuck = join(chats, 'session-2026-02-23T09-00-gem-stuck.json');
  const cleanPath = join(chats, 'session-2026-02-23T10-00-gem-clean.json');
  writeFileSync(stuck, JSON.stringify(geminiChat('gem-stuck', () => STUCK, true), null, 2));
  writeFileSync(cleanPath, JSON.stringify(geminiChat('gem-clean', clean, false), null, 2));
  return [stuck, cleanPath];
}

/** An ATIF trajectory (Harbor): a user step, then one agent step per call, its observation holding the result. */
export function atifTrajectory(sessionId: string, call: CallAt): object {
  return {
    schema_version: 'ATIF-v1.5',
    session_id: sessionId,
    agent: { name: 'terminus-2', version: '2.0.0', model_name: 'claude-sonnet-4-5' },
    steps: [
      { step_id: 1, timestamp: '2026-03-02T10:00:00Z', source: 'user', message: 'Please fix the failing test.' },
      ...range(FIXTURE_CALLS).map((i) => {
        const c = call(i);
        return {
          step_id: i + 2,
          source: 'agent',
          message: 'Let me try that again.',
          reasoning_content: 'The test failed; run it once more.',
          tool_calls: [{ tool_call_id: `call_${i}`, function_name: c.tool, arguments: c.args }],
          observation: { results: [{ source_call_id: `call_${i}`, content: c.result }] },
          metrics: { prompt_tokens: 1200, completion_tokens: 40, cached_tokens: 800, cost_usd: 0.002 },
        };
      }),
    ],
    final_metrics: { total_prompt_tokens: 9600, total_completion_tokens: 320, total_steps: FIXTURE_CALLS + 1 },
  };
}

/** ATIF: one `trajectory.json` per trial, under `<trial>/agent/` as Harbor writes them. */
export function writeAtif(dir: string): [string, string] {
  const write = (trial: string, doc: object): string => {
    const agent = join(dir, 'harbor-job', trial, 'agent');
    mkdirSync(agent, { recursive: true });
    writeFileSync(join(agent, 'trajectory.json'), JSON.stringify(doc, null, 2));
    return join(agent, 'trajectory.json');
  };
  return [write('fix-tests__stuck', atifTrajectory('atif-stuck', () => STUCK)), write('fix-tests__clean', atifTrajectory('atif-clean', clean))];
}

/** An Inspect AI eval log (JSON form): one sample per session, tool errors recorded when failing. */
export function inspectLog(samples: { id: string; call: CallAt; failing: boolean }[]): object {
  return {
    version: 2,
    status: 'success',
    eval: { eval_id: 'e1', run_id: 'r1', created: '2026-03-02T10:00:00+00:00', task: 'fix_tests', task_id: 't1', model: 'openai/gpt-5' },
    plan: { name: 'plan', steps: [{ solver: 'react', params: {} }] },
    results: { total_samples: samples.length, completed_samples: samples.length, scores: [] },
    stats: { started_at: '2026-03-02T10:00:00+00:00', completed_at: '2026-03-02T10:05:00+00:00', model_usage: {} },
    samples: samples.map(({ id, call, failing }) => ({
      id,
      epoch: 1,
      input: 'Please fix the failing test.',
      target: '',
      messages: [
        { id: 'm0', role: 'user', content: 'Please fix the failing test.', source: 'input' },
        ...range(FIXTURE_CALLS).flatMap((i) => {
          const c = call(i);
          return [
            { id: `a${i}`, role: 'assistant', content: [{ type: 'reasoning', reasoning: 'Try again.' }, { type: 'text', text: 'Let me try that again.' }], source: 'generate', model: 'gpt-5', tool_calls: [{ id: `call_${i}`, function: c.tool, arguments: c.args, type: 'function' }] },
            { id: `t${i}`, role: 'tool', content: c.result, tool_call_id: `call_${i}`, function: c.tool, error: failing ? { type: 'unknown', message: c.result } : null },
          ];
        }),
      ],
      scores: { match: { value: 'I' } },
      attachments: {},
    })),
  };
}

/** Inspect AI: both samples in one JSON log under `logs/`, as `--log-format json` writes it. */
export function writeInspectLog(dir: string): string {
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const file = join(dir, 'logs', '2026-03-02T10-00-00+00-00_fix-tests_k3x.json');
  writeFileSync(file, JSON.stringify(inspectLog([{ id: 'stuck', call: () => STUCK, failing: true }, { id: 'clean', call: clean, failing: false }]), null, 2));
  return file;
}
