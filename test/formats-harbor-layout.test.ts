/**
 * Harbor job and trial folders (written here as Harbor lays them out): a folder scan reads only the trials'
 * ATIF trajectories (trajectory.json first, then its continuations), passes over the job's and trials'
 * settings, results, verifier and artifacts files and the agent's own logs with one note, walks the agent
 * folder of a trial without a trajectory, and leaves a folder that only looks alike as it was.
 */
import { describe, expect, it } from 'vitest';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-harbor');

const trajectory = (session: string, tool: string) => JSON.stringify({
  schema_version: 'ATIF-v1.6',
  session_id: session,
  agent: { name: 'claude-code', version: '2.1.0' },
  steps: [
    { step_id: 1, source: 'user', message: 'Fix the build.' },
    { step_id: 2, source: 'agent', message: 'Building.', tool_calls: [{ tool_call_id: 't1', function_name: tool, arguments: { command: 'make' } }], observation: { results: [{ source_call_id: 't1', content: 'ok', extra: { tool_result_is_error: false } }] } },
  ],
});

/** A Harbor trial folder `trial` below `job`; `withTrajectory` false leaves the agent's own log only. */
function trial(job: string, name: string, withTrajectory: boolean): void {
  const at = (p: string) => `${job}/${name}/${p}`;
  write(at('config.json'), JSON.stringify({ task: { path: 'tasks/build' }, agent: { name: 'claude-code' }, trial_name: name }));
  write(at('result.json'), JSON.stringify({ id: 'r', task_name: 'build', verifier_result: { rewards: { reward: 1 } } }));
  write(at('trial.log'), 'started\n');
  write(at('verifier/reward.txt'), '1');
  write(at('verifier/reward.json'), '{"reward": 1}');
  write(at('artifacts/manifest.json'), '[]');
  write(at('agent/setup/return-code.txt'), '0');
  if (withTrajectory) {
    write(at('agent/trajectory.cont-1.json'), trajectory(`${name}-cont-1`, 'Bash'));
    write(at('agent/trajectory.json'), trajectory(name, 'Bash'));
    // the Claude Code session the trajectory was made from, and Claude's own settings: passed over
    write(at('agent/sessions/projects/-app/s1.jsonl'), JSON.stringify({ type: 'user', sessionId: 's1', message: { role: 'user', content: 'Fix the build.' } }) + '\n');
    write(at('agent/sessions/.claude.json'), '{"numStartups": 1}');
  } else {
    write(at('agent/events.jsonl'), JSON.stringify({ session: `${name}-raw`, step: 0, tool: 'make', args: { target: 'all' }, result: 'ok' }) + '\n');
  }
}

const sessions = (items: Awaited<ReturnType<typeof collect>>) => items.filter((i) => i.kind === 'call').map((i) => i.kind === 'call' && `${i.session} ${i.event.tool} ${i.errorInfo}`);
const notes = (items: Awaited<ReturnType<typeof collect>>) => items.filter((i) => i.kind === 'note' || i.kind === 'issue').map((i) => (i.kind === 'note' ? ['note', i.file, i.message] : i.kind === 'issue' && [i.code, i.file, i.message]));

describe('Harbor job folders', () => {
  it('should read only the trials\' trajectories, with one note for the job and no issue', async () => {
    write('jobs/2026-12-05__10-00-00/config.json', JSON.stringify({ job_name: 'j', n_attempts: 1 }));
    write('jobs/2026-12-05__10-00-00/result.json', JSON.stringify({ id: 'j', stats: {} }));
    write('jobs/2026-12-05__10-00-00/job.log', 'done\n');
    trial('jobs/2026-12-05__10-00-00', 'build__a1', true);
    trial('jobs/2026-12-05__10-00-00', 'build__b2', false);
    const job = `${dir}/jobs/2026-12-05__10-00-00`;
    const items = await collect([`${dir}/jobs`]);
    expect(sessions(items)).toEqual(['build__a1 Bash absent', 'build__a1-cont-1 Bash absent', 'build__b2-raw make absent']);
    expect(notes(items)).toEqual([['note', job, expect.stringMatching(/^a Harbor job: its config.json and result.json, and of each trial config.json, result.json, verifier\/, artifacts\/ and the agent's own logs .* passed over; only the ATIF trajectories read/)]]);
  });

  it('should read a trial folder given on its own the same way, and leave a folder that only looks alike as it was', async () => {
    trial('alone', 'build__c3', true);
    const items = await collect([`${dir}/alone/build__c3`]);
    expect(sessions(items)).toEqual(['build__c3 Bash absent', 'build__c3-cont-1 Bash absent']);
    expect(notes(items).map((n) => n && n[0] !== 'note' ? n : [n && n[0], n && n[1], String(n && n[2]).slice(0, 18)])).toEqual([['note', `${dir}/alone/build__c3`, 'a Harbor trial: of']]);
    // a config.json beside a folder that is no trial: read as before (and reported as what it is)
    const config = write('plain/config.json', '{"port": 1}');
    write('plain/sub/result.json', '{}');
    const plain = await collect([`${dir}/plain`]);
    expect(plain.map((i) => i.kind === 'issue' && [i.code, i.file])).toEqual([['unknown-format', config], ['unknown-format', `${dir}/plain/sub/result.json`]]);
  });
});
