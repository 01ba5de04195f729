import { describe, expect, it } from 'vitest';
import { readPatchSteps } from '../../../src/view/load/read-patch-steps.js';

/** The model patch step of an eval.log as EvalLog writes it (a real log's lines, paths shortened). */
const log = [
  '[0.916s] checkout: exit 0',
  '[0.917s] model patch: exit 0',
  '  output:',
  '    Checking patch src/paginate.js...',
  '    error: src/paginate.js: patch does not apply',
  '    ::sandkit-fallback git apply --reject',
  '    Rejected hunk #1.',
  '    ::sandkit-fallback patch --fuzz=5',
  '    Hunk #1 succeeded at 3 with fuzz 1.',
  '    ::sandkit-applied-with patch --fuzz=5',
  '[0.917s] model patch applied with patch --fuzz=5: src/paginate.js',
].join('\n');

describe('readPatchSteps', () => {
  describe('when the chain fell back twice', () => {
    it('returns each step with its output, the last one applied', () => {
      expect(readPatchSteps(log)).toEqual([
        {
          method: 'git apply',
          applied: false,
          output: 'Checking patch src/paginate.js...\nerror: src/paginate.js: patch does not apply',
        },
        { method: 'git apply --reject', applied: false, output: 'Rejected hunk #1.' },
        { method: 'patch --fuzz=5', applied: true, output: 'Hunk #1 succeeded at 3 with fuzz 1.' },
      ]);
    });
  });

  describe('when the log has no model patch step', () => {
    it('returns no step', () => {
      expect(readPatchSteps('[0.1s] finished: empty_patch\n')).toEqual([]);
    });
  });
});
