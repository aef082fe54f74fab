/**
 * A dead end needs the agent's own failures: searches that found nothing (`rg` exiting 1 without a word),
 * reads and listings of paths not there, programs not there (CallFact.SILENT) are no error repeated
 * (quiet12). Real sessions warned so: a Codex agent exploring a Go service searched `rg -n
 * "GetUniversityStatistics"` in one folder, other searches, the same search again, then another that found
 * nothing (holdout7: a dead end of three silent failures, one search twice); another's `cat` of a template
 * not there, `ls .codex`, `python` not found, then one `rg` given three patterns wrongly (one real error among
 * silent ones). Such a dead end holds fewer of the agent's own failures than the detector's threshold: set
 * aside (src/policy/evidence-screen.ts fewOwnFailures). The same search again is a repeated call, which the
 * detectors of repeated calls still weigh.
 * Kept: a silent failure retried at once (`go test` failing in Codex's sandbox without a word, run again at
 * once, then with other caches: a wall pushed at), and one real error again and again with probes between.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, verdictsOf } from './helpers/verdicts.js';

const W = '/home/dev/gaokao';
/** A Codex shell call that found nothing (exit 1, no output: the reader gives an error without text). */
const nothing = (command: string): ToolEvent => ({ tool: 'shell_command', args: { command, workdir: W }, result: '', error: true });
const found = (command: string, out: string): ToolEvent => ({ tool: 'shell_command', args: { command, workdir: W }, result: out });
const failing = (command: string, out: string): ToolEvent => ({ tool: 'shell_command', args: { command, workdir: W }, result: out, error: out });

/** Searches for a function, one twice with others between, each finding nothing now and then. */
const searches: ToolEvent[] = [
  found('rg -n "UniversityStatistics" -S services/data-service', 'services/data-service/main.go:130:\tuniversities.GET("/statistics", h.GetUniversityStatistics)\n'),
  nothing('rg -n "GetUniversityStatistics" -S services/data-service/internal/services'),
  found('rg -n "Statistics" -S services/data-service/internal', 'services/data-service/internal/database/database.go:207:\t\t&models.DataStatistics{},\n'),
  nothing('rg -n "GetUniversityStatistics" -S services/data-service/internal/services'),
  found('ls services/data-service/internal/services', 'admission_service.go\ncache_service.go\nuniversity_service.go\n'),
  nothing('rg -n "Statistics" -S services/data-service/internal/services/university_service.go'),
  found("sed -n '1,200p' services/data-service/internal/services/university_service.go", 'package services\n\nimport (\n\t"context"\n)\n'),
];

/** Probes finding nothing, then one real error (rg given three patterns). */
const probesThenOneError: ToolEvent[] = [
  failing('cat .codex/.github/pull_request_template.md', 'cat: .codex/.github/pull_request_template.md: No such file or directory\n'),
  failing('ls .codex', "ls: cannot access '.codex': No such file or directory\n"),
  nothing("rg --files -g 'pull_request_template.md'"),
  found('cat AGENTS.md', '# Repository Overview\n- Multi-service Go monorepo.\n'),
  failing('python install-skill.py --path skills/create-plan', 'zsh:1: command not found: python\n'),
  found('python3 install-skill.py --path skills/create-plan', 'Installed create-plan\n'),
  failing('rg -n "Kafka" -n "topic" README.md', 'rg: topic: No such file or directory (os error 2)\nREADME.md:104:- Golang, Gin, Kafka, MySQL\n'),
];

/** `go test` failing without a word (Codex's sandbox), run again at once, then with other caches. */
const sandboxWall: ToolEvent[] = [
  nothing('GOCACHE=$(pwd)/.cache go test ./...'),
  nothing('GOCACHE=$(pwd)/.cache go test ./...'),
  found('GOCACHE=$(pwd)/.cache go env GOCACHE', '/home/dev/lms-go/.cache\n'),
  found('mkdir -p .cache/go-build .cache/go-mod', ''),
  nothing('GOCACHE=$(pwd)/.cache/go-build GOMODCACHE=$(pwd)/.cache/go-mod go test ./...'),
];

/** One real error again and again, probes finding nothing between. */
const realWall: ToolEvent[] = [
  failing('make build', "make: *** No rule to make target `config.mk'.  Stop.\n"),
  nothing('rg -n "config.mk" Makefile'),
  failing('make all', "make: *** No rule to make target `config.mk'.  Stop.\n"),
  failing('ls config', "ls: cannot access 'config': No such file or directory\n"),
  failing('make -j4', "make: *** No rule to make target `config.mk'.  Stop.\n"),
];

const deadEnds = (events: readonly ToolEvent[], engine: (typeof ENGINES)[number]): number[] =>
  verdictsOf(events, { engine }).flatMap((v, i) => (v?.kind === 'dead_end' || v?.signals?.some((s) => s.kind === 'dead_end') === true ? [i] : []));

describe.each(ENGINES)('silent failures in a dead end (%s engine)', (engine) => {
  it('should see no dead end in searches finding nothing, one of them twice with others between', () => {
    expect(deadEnds(searches, engine)).toEqual([]);
  });

  it('should see no dead end in probes finding nothing and one real error', () => {
    expect(deadEnds(probesThenOneError, engine)).toEqual([]);
  });

  it('should still see a dead end in a silent failure retried at once', () => {
    expect(deadEnds(sandboxWall, engine)).not.toEqual([]);
  });

  it('should still see a dead end in one real error again and again, probes between', () => {
    expect(deadEnds(realWall, engine)).not.toEqual([]);
  });
});
