/**
 * Snapshots across the policy options added after snapshot version 6 (`interleavedStep`, `kindWeights`):
 * at their defaults they leave the options fingerprint as it was, so snapshots taken before them still
 * restore; set, they are part of it, so a snapshot restores only under the same weights and step.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector, SnapshotError } from '../src/index.js';
import type { LoopDetectorOptions } from '../src/index.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { CONFIG_PRESETS } from '../src/presets/config-options.js';
import { optionsFingerprint } from '../src/snapshot/snapshot-format.js';

// the options over the hand-tuned values (the built-ins those builds ran by default; the shipped default is fitted)
const hex = (o: LoopDetectorOptions): string[] => optionsFingerprint(resolveOptions(CONFIG_PRESETS['hand-tuned']?.(o))).map((w) => (w >>> 0).toString(16));

describe('snapshots and the policy options added since version 6', () => {
  it('should keep the fingerprint of options written before them', () => {
    // the values the build before these options gave (commit 3f949c5)
    expect(hex({})).toEqual(['7eff9aba', 'b3d2f7f0']);
    expect(hex({ policy: { cooldown: 3, ladder: ['warn', 'break'] }, detectors: { frequency: { threshold: 4 } } })).toEqual(['59cd23fb', '8beb3a26']);
    expect(hex({ policy: { progress: 'slow', interleavedStep: 0.5, kindWeights: {} } })).toEqual(['371e806f', '23ee82']);
  });

  it('should restore a snapshot only under the same weights and step', () => {
    const weighted: LoopDetectorOptions = { policy: { kindWeights: { frequency: 0.8, cycle: 0 }, interleavedStep: 1 } };
    const a = new LoopDetector(weighted);
    for (let i = 0; i < 4; i++) a.check({ tool: 'search', args: { q: 'x' }, result: 'none' });
    const bytes = a.snapshot();
    const b = new LoopDetector({ policy: { interleavedStep: 1, kindWeights: { cycle: 0, frequency: 0.8 } } });
    b.restore(bytes);
    expect(b.check({ tool: 'search', args: { q: 'x' }, result: 'none' })).toEqual(a.check({ tool: 'search', args: { q: 'x' }, result: 'none' }));
    expect(() => new LoopDetector().restore(bytes)).toThrow(SnapshotError);
    expect(() => new LoopDetector({ policy: { kindWeights: { frequency: 0.8, cycle: 0 } } }).restore(bytes)).toThrow(SnapshotError);
    expect(() => new LoopDetector({ policy: { interleavedStep: 1, kindWeights: { frequency: 0.7, cycle: 0 } } }).restore(bytes)).toThrow(SnapshotError);
  });
});
