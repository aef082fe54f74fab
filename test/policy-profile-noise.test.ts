/**
 * A shell startup file's errors at the head of every output are not the command's answer. Real sessions
 * (Codex CLI on macOS, `bash -lc` sourcing a `.profile` written for zsh) begin every output with
 * "/Users/<me>/.profile: line 6: compdef: command not found": read as the result, its "not found" said
 * that every command found nothing, so a listing, a read, a `mkdir` and a `date` in one long `workdir`
 * (alike as text) were similar calls stalled on "nothing found": semantic warnings from the 3rd call and a
 * break at the 27th. Set aside, what each command printed decides. The stuck twin still fires: similar
 * searches each really finding nothing, after the same startup lines.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { failedSilently } from '../src/text/failure-kinds.js';
import { bytesSayNothingFound } from '../src/text/nothing-found.js';
import { shellNoiseEnd, withoutShellNoise } from '../src/text/shell-noise.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const PROFILE = '/Users/ana/.profile: line 6: compdef: command not found\n/Users/ana/.profile: line 217: compdef: command not found\n';
const WORKDIR = '/Users/ana/Developer/simulador-aposentadoria-financeira';
/** A Codex shell call in the project's workdir whose output, after the profile's lines, is `out`. */
const sh = (cmd: string, out: string): ToolEvent => ({ tool: 'shell', args: { command: ['bash', '-lc', cmd], workdir: WORKDIR }, result: `${PROFILE}${out}` });

/** spec-kit's specify step: look around, read the template, write the spec, check it. */
const work: ToolEvent[] = [
  sh('ls', ''),
  sh('ls -a', '.\n..\n.codex\n.git\n.specify\n'),
  sh('ls .specify', 'memory\nscripts\ntemplates\n'),
  sh('git branch --show-current', 'main\n'),
  sh('ls .specify/templates', 'plan-template.md\nspec-template.md\ntasks-template.md\n'),
  sh("sed -n '1,200p' .specify/templates/spec-template.md", '# Feature Specification: [FEATURE NAME]\n\n**Feature Branch**: `[###-feature-name]`\n'),
  sh('.specify/scripts/bash/create-new-feature.sh --json "retirement returns"', '{"BRANCH_NAME":"001-retirement-returns","SPEC_FILE":"specs/001-retirement-returns/spec.md"}\n'),
  sh("sed -n '1,200p' specs/001-retirement-returns/spec.md", '# Feature Specification: [FEATURE NAME]\n'),
  sh("sed -n '200,400p' specs/001-retirement-returns/spec.md", ''),
  sh('date +%Y-%m-%d', '2025-11-03\n'),
  { tool: 'apply_patch', args: { input: '*** Begin Patch\n*** Update File: specs/001-retirement-returns/spec.md\n@@\n-# Feature Specification: [FEATURE NAME]\n+# Feature Specification: Retirement returns\n*** End Patch' }, result: 'Success. Updated the following files:\nM specs/001-retirement-returns/spec.md\n' },
  sh("sed -n '1,200p' specs/001-retirement-returns/spec.md", '# Feature Specification: Retirement returns\n'),
  sh('mkdir -p specs/001-retirement-returns/checklists', ''),
  sh("cat <<'EOF' > specs/001-retirement-returns/checklists/requirements.md\n# Checklist\nEOF", ''),
  sh('git status -sb', '## 001-retirement-returns\n?? specs/\n'),
  sh('nl -ba specs/001-retirement-returns/spec.md | head -40', '     1\t# Feature Specification: Retirement returns\n'),
  sh('nl -ba specs/001-retirement-returns/checklists/requirements.md', '     1\t# Checklist\n'),
];

/** Similar searches, each really finding nothing, after the same startup lines. */
const searches: ToolEvent[] = ['retirement age', 'retirement income', 'retirement returns', 'retirement savings', 'retirement plan', 'retirement goal', 'retirement target'].map((q) =>
  sh(`grep -rn '${q}' docs || echo 'no matches found'`, 'no matches found\n'),
);

describe("a startup file's lines at the head of an output", () => {
  it('should be set aside, by the string and the byte readings alike, at the head only', () => {
    expect(withoutShellNoise(`${PROFILE}a.ts\n`)).toBe('a.ts\n');
    expect(withoutShellNoise('/home/bo/.bashrc: line 3: __git_ps1: command not found\r\nok')).toBe('ok');
    expect(withoutShellNoise('/etc/profile: line 9: x: No such file or directory\nok')).toBe('ok');
    // not a startup file, not at the head
    expect(withoutShellNoise('./build.sh: line 6: make: command not found\n')).toBe('./build.sh: line 6: make: command not found\n');
    expect(withoutShellNoise(`a.ts\n${PROFILE}`)).toBe(`a.ts\n${PROFILE}`);
    const enc = new TextEncoder();
    for (const t of [`${PROFILE}a.ts\n`, '/home/bo/.bashrc: line 3: __git_ps1: command not found\r\nok', './build.sh: line 6: make: command not found\n', PROFILE, `a.ts\n${PROFILE}`, 'Now using node v18.20.5 (npm v10.8.2)\nok']) {
      const b = enc.encode(t);
      expect(new TextDecoder().decode(b.subarray(shellNoiseEnd(b, b.length))), JSON.stringify(t)).toBe(withoutShellNoise(t));
    }
  });

  it("should not make the profile's \"not found\" the command's answer", () => {
    const says = (t: string): boolean => {
      const b = new TextEncoder().encode(t);
      return bytesSayNothingFound(b, b.length);
    };
    expect(says(`${PROFILE}.\n..\n.git\n`)).toBe(false);
    expect(says(PROFILE)).toBe(false);
    expect(says(`${PROFILE}no matches found\n`)).toBe(true);
    // a missing program is no search that found nothing (quiet30: test/policy-missing-program-no-finding)
    expect(says('bash: line 1: rg: command not found\n')).toBe(false);
  });
});

/** ssh-add run by a startup file (holdout4 kozakana 019c4aff: the line ahead of every output, alone when a probe found nothing). */
const SSH_ADD = 'Identity added: /Users/goki/.ssh/id_rsa_github (/Users/goki/.ssh/id_rsa_github)\n';

describe("ssh-add's line at the head of an output", () => {
  it('should be set aside, with its variants, by the string and the byte readings alike', () => {
    expect(withoutShellNoise(`${SSH_ADD}main\n`)).toBe('main\n');
    expect(withoutShellNoise('Identity added: /home/u/.ssh/id_ed25519 (user@host)\r\nok')).toBe('ok');
    expect(withoutShellNoise('Certificate added: /home/u/.ssh/id_ed25519-cert.pub (u@ca)\nok')).toBe('ok');
    expect(withoutShellNoise('Identity added: /home/u/my keys/id (a (b) c)\n')).toBe('');
    // not ssh-add's shape, not at the head
    for (const t of ['Identity added: /home/u/.ssh/id_ed25519\n', 'Identity added:  (user@host)\n', 'Identity added: x (y) \n', `main\n${SSH_ADD}`]) expect(withoutShellNoise(t)).toBe(t);
    const enc = new TextEncoder();
    for (const t of [`${SSH_ADD}main\n`, SSH_ADD, 'Identity added: a (b)\r', 'Identity added: a (\r)', 'Identity added: a (b\r', 'Identity added: a (b)\r\r', 'Identity added: (b)', 'Identity added: x (y) \n', `${SSH_ADD}${PROFILE}ok`]) {
      const b = enc.encode(t);
      expect(new TextDecoder().decode(b.subarray(shellNoiseEnd(b, b.length))), JSON.stringify(t)).toBe(withoutShellNoise(t));
    }
  });

  it("should set aside ssh-add's lines when it reaches no agent, by the string and the byte readings alike", () => {
    expect(withoutShellNoise('Error connecting to agent: Operation not permitted\nls: specs: No such file or directory\n')).toBe('ls: specs: No such file or directory\n');
    expect(withoutShellNoise('Error connecting to agent: No such file or directory\r\nok')).toBe('ok');
    expect(withoutShellNoise('Could not open a connection to your authentication agent.\nok')).toBe('ok');
    expect(withoutShellNoise(`Error connecting to agent: Connection refused\n${SSH_ADD}main\n`)).toBe('main\n');
    // no reason, a reason after white space, more after the sentence, not at the head
    for (const t of ['Error connecting to agent: \n', 'Error connecting to agent:  x\n', 'Error connecting to agent:\n', 'Could not open a connection to your authentication agent.x\n', 'Could not open a connection to your authentication agent\n', 'main\nError connecting to agent: Operation not permitted\n']) expect(withoutShellNoise(t)).toBe(t);
    const enc = new TextEncoder();
    for (const t of ['Error connecting to agent: Operation not permitted\nok', 'Error connecting to agent: x', 'Error connecting to agent: x\r', 'Error connecting to agent: \r', 'Error connecting to agent: \r\r', 'Error connecting to agent: \u00a0x\n', 'Error connecting to agent: \tx\n', 'Error connecting to agent: ', 'Error connecting to agent:', 'Could not open a connection to your authentication agent.', 'Could not open a connection to your authentication agent.\r\r\nok', 'Could not open a connection to your authentication agent.\r\nok', 'Could not open a connection to your authentication agent.!\nok', 'Could not open a connection', `Error connecting to agent: Connection refused\n${SSH_ADD}${PROFILE}ok`]) {
      const b = enc.encode(t);
      expect(new TextDecoder().decode(b.subarray(shellNoiseEnd(b, b.length))), JSON.stringify(t)).toBe(withoutShellNoise(t));
    }
  });

  it('should leave a failed probe with that line alone silent', () => {
    expect(failedSilently('Exit code: 1', SSH_ADD)).toBe(true);
    expect(failedSilently(SSH_ADD, undefined)).toBe(true);
    expect(failedSilently(`${SSH_ADD}fatal: not a git repository`, undefined)).toBe(false);
    expect(failedSilently('Exit code: 1', 'Error connecting to agent: Operation not permitted\n')).toBe(true);
    expect(failedSilently('Error connecting to agent: Operation not permitted\nfatal: not a git repository', undefined)).toBe(false);
  });
});

describe.each(ENGINES)('commands after a profile that fails (%s engine)', (engine) => {
  it('should leave ordinary work alone, one- and two-phase', () => {
    expect(flaggedActions(work, engine)).toEqual([]);
    expect(liveActions(work, engine)).toEqual([]);
  });

  it('should still flag similar searches each finding nothing after the same lines', () => {
    expect(flaggedActions(searches, engine)).toContain('break');
  });
});
