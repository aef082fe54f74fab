/** Outcomes that say the work is still under way, and those that do not. */
import { describe, expect, it } from 'vitest';
import { WAITING_LOOK, saysStillWaiting } from '../src/text/still-waiting.js';

describe('saysStillWaiting', () => {
  it.each([
    '{"status": "pending"}',
    'Job j-8812 is still RUNNING (step 3 of 16)',
    'deployment in progress',
    '{"state":"in_progress"}',
    'Your request is queued.',
    'Cluster is provisioning',
  ])('should read %j as still under way', (text) => {
    expect(saysStillWaiting(text)).toBe(true);
  });

  it.each(['{"status": "processed"}', 'Job failed: quota exceeded', 'dependency-pending.txt written', 'unpending', 'rerunning is not a status'])(
    'should not read %j as still under way',
    (text) => {
      expect(saysStillWaiting(text)).toBe(false);
    },
  );

  it('should read a status written in colour as without its codes (quiet34)', () => {
    expect(saysStillWaiting('\u001b[1;33mWaiting for tests to start...\u001b[0m\n')).toBe(true);
    expect(saysStillWaiting('\u001b[32mdeploy\u001b[0m: \u001b[33mpending\u001b[0m')).toBe(true);
    expect(saysStillWaiting('\u001b[32mDone\u001b[0m: 12 passed')).toBe(false);
  });

  it('should read small JSON values, and ignore long outcomes and non-text', () => {
    expect(saysStillWaiting({ status: 'pending', id: 7 })).toBe(true);
    expect(saysStillWaiting(`${'log line\n'.repeat(WAITING_LOOK / 9)} running`)).toBe(false);
    expect(saysStillWaiting(undefined)).toBe(false);
    expect(saysStillWaiting(42)).toBe(false);
  });
});
