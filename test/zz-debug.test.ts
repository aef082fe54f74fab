import { it } from 'vitest';
import { LoopDetector } from '../src/index.js';
it('dbg', () => {
  const a = new LoopDetector({}, 's');
  const steps: [string, any][] = [
    ['p', { tool: 'read_file', args: { path: 'src/part1.py' } }], ['r', { tool: 'read_file', args: { path: 'src/part1.py' }, result: '# part 1\nimport os\n' }],
    ['p', { tool: 'grep', args: { pattern: 'def frobnicate', path: '.' } }], ['r', { tool: 'grep', args: { pattern: 'def frobnicate', path: '.' }, result: 'No matches found' }],
    ['p', { tool: 'read_file', args: { path: 'src/part2.py' } }], ['r', { tool: 'read_file', args: { path: 'src/part2.py' }, result: '# part 2\nimport os\n' }],
    ['p', { tool: 'grep', args: { pattern: 'def frobnicate', path: '.' } }],
  ];
  for (const [k, c] of steps) k === 'p' ? a.propose(c) : a.record(c);
  const b = new LoopDetector({}, 's');
  b.restore(a.snapshot());
  const rest: [string, any][] = [
    ['p', { tool: 'read_file', args: { path: 'src/part3.py' } }], ['r', { tool: 'read_file', args: { path: 'src/part3.py' }, result: '# part 3\nimport os\n' }],
    ['p', { tool: 'grep', args: { pattern: 'def frobnicate', path: '.' } }], ['r', { tool: 'grep', args: { pattern: 'def frobnicate', path: '.' }, result: 'No matches found' }],
    ['p', { tool: 'read_file', args: { path: 'src/part4.py' } }], ['r', { tool: 'read_file', args: { path: 'src/part4.py' }, result: '# part 4\nimport os\n' }],
    ['p', { tool: 'grep', args: { pattern: 'def frobnicate', path: '.' } }],
  ];
  for (const [k, c] of rest) {
    const x = k === 'p' ? a.propose(c) : a.record(c);
    const y = k === 'p' ? b.propose(c) : b.record(c);
    console.log(JSON.stringify(x) === JSON.stringify(y) ? 'same' : `DIFF\n${JSON.stringify(x)}\n${JSON.stringify(y)}`);
  }
});
