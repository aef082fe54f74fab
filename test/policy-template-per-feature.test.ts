/**
 * A template read again at the start of each new feature is no loop: the work between the reads spread
 * over new files (each feature's own spec and checklist). Real sessions (Codex CLI running spec-kit's
 * specify step once per use case) read `.specify/templates/spec-template.md` every 14 to 20 calls, the
 * same text each time (it names "error scenarios": read as a report of a failure), a new spec made between
 * each read and the next. The evidence screen takes a check re-run after each change of a new file as
 * progress, but when the first read had left the call log the gap before the first read still kept was
 * judged against the files changed in that very gap, so it never counted: warned at the 3rd read, broken at
 * the 4th. The stuck twin still fires: the same read again and again with nothing done between.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, flaggedActions } from './helpers/verdicts.js';

const ROOT = '/home/kim/capstone/group14';
const sh = (cmd: string, out: string): ToolEvent => ({ tool: 'exec_command', args: { cmd, workdir: ROOT }, result: out });
const patch = (body: string, files: string): ToolEvent => ({ tool: 'apply_patch', args: { input: `*** Begin Patch\n${body}\n*** End Patch` }, result: `Success. Updated the following files:\n${files}\n` });
const TEMPLATE = "# Feature Specification: [FEATURE NAME]\n\n**Feature Branch**: `[###-feature-name]`\n\n### Edge Cases\n- What happens when [boundary condition]?\n- How does system handle [error scenario]?\n";

/** spec-kit's specify step for use case `n`: 17 calls, the template read fourth. */
function feature(n: number): ToolEvent[] {
  const dir = `specs/0${n}-feature-${n}`;
  return [
    sh(`sed -n '1,260p' './Use Cases/UC-${n}.md'`, `# Use Case ${n}: Feature ${n}\n**Goal in Context**: goal ${n}\n`),
    sh(`sed -n '1,260p' './Acceptance Tests/UC-${n}-AT.md'`, `# Acceptance Test Suite — UC-${n}\n## 1. Purpose ${n}\n`),
    sh(`sed -n '1,260p' './Scenarios/UC-${n}-Scenarios.md'`, `# UC-${n} -- Fully Dressed Scenario Narratives\n`),
    sh("sed -n '1,260p' './.specify/templates/spec-template.md'", TEMPLATE),
    sh(`./.specify/scripts/bash/create-new-feature.sh --json "feature ${n}"`, `{"BRANCH_NAME":"0${n}-feature-${n}","SPEC_FILE":"${ROOT}/${dir}/spec.md"}\n`),
    patch(`*** Delete File: ${ROOT}/${dir}/spec.md\n*** Add File: ${ROOT}/${dir}/spec.md\n+# Feature Specification: Feature ${n}`, `A ${ROOT}/${dir}/spec.md`),
    sh(`mkdir -p '${ROOT}/${dir}/checklists'`, ''),
    sh(`sed -n '1,320p' '${ROOT}/${dir}/spec.md'`, `# Feature Specification: Feature ${n}\n`),
    patch(`*** Add File: ${ROOT}/${dir}/checklists/requirements.md\n+# Specification Quality Checklist: Feature ${n}`, `A ${ROOT}/${dir}/checklists/requirements.md`),
    sh(`rg -n "NEEDS CLARIFICATION" '${ROOT}/${dir}'`, `${ROOT}/${dir}/checklists/requirements.md:7:- [x] No [NEEDS CLARIFICATION] markers remain\n`),
    sh(`sed -n '1,220p' '${ROOT}/${dir}/checklists/requirements.md'`, `# Specification Quality Checklist: Feature ${n}\n`),
    sh(`git status --short ${dir}`, `?? ${dir}/\n`),
    sh('./.specify/scripts/bash/check-prerequisites.sh --json --paths-only', `{"REPO_ROOT":"${ROOT}","BRANCH":"0${n}-feature-${n}","FEATURE_SPEC":"${ROOT}/${dir}/spec.md"}\n`),
    sh(`sed -n '1,260p' './Use Cases/UC-${n}.md' | head -40`, `# Use Case ${n}: Feature ${n}\n`),
    sh(`sed -n '1,260p' './Acceptance Tests/UC-${n}-AT.md' | head -40`, `# Acceptance Test Suite — UC-${n}\n`),
    sh(`sed -n '1,340p' './${dir}/spec.md'`, `# Feature Specification: Feature ${n}\n\n**Feature Branch**: \`0${n}-feature-${n}\`\n`),
    patch(`*** Update File: ${ROOT}/${dir}/spec.md\n@@\n-# Feature Specification: Feature ${n}\n+# Feature Specification: Feature ${n} (clarified)`, `M ${ROOT}/${dir}/spec.md`),
  ];
}
const features: ToolEvent[] = [29, 30, 31, 32, 33].flatMap(feature);

/** The template read again and again, nothing but reads of the same spec between. */
const stuck: ToolEvent[] = Array.from({ length: 6 }, () => [
  sh("sed -n '1,260p' './.specify/templates/spec-template.md'", TEMPLATE),
  sh("sed -n '1,340p' './specs/029-feature-29/spec.md'", '# Feature Specification: Feature 29\n'),
]).flat();

describe.each(ENGINES)('a template read again for each new feature (%s engine)', (engine) => {
  it('should not break the session, one-phase', () => {
    expect(flaggedActions(features, engine)).not.toContain('break');
  });

  it('should still break the same read again and again with nothing done between', () => {
    expect(flaggedActions(stuck, engine)).toContain('break');
  });
});
