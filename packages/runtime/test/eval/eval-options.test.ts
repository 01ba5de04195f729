import { SandkitError } from '@sandkit/core';
import { describe, expect, it } from 'vitest';
import { type EvalOptions, normalizeEvalOptions } from '../../src/eval/eval-options.js';

const base: EvalOptions = { dataset: 'instances.jsonl', gold: true, out: 'out' };
const failure = (options: Partial<EvalOptions>): unknown => {
  try {
    normalizeEvalOptions({ ...base, ...options });
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('normalizeEvalOptions', () => {
  describe('schedule', () => {
    it('defaults to the dataset order with no durations file', () => {
      const options = normalizeEvalOptions(base);
      expect(options.schedule).toBe('dataset');
      expect(options.durations).toBeNull();
    });

    it('resolves the durations file of longest-first to an absolute path', () => {
      const options = normalizeEvalOptions({
        ...base,
        schedule: 'longest-first',
        durations: 'prev/results.jsonl',
      });
      expect(options.schedule).toBe('longest-first');
      expect(options.durations).toMatch(/^\/.*\/prev\/results\.jsonl$/);
    });

    it.each([
      {
        given: { schedule: 'longest-first' as const },
        message: '--schedule longest-first needs --durations FILE',
      },
      {
        given: { durations: 'prev/results.jsonl' },
        message: '--durations orders the instances only with --schedule longest-first',
      },
      {
        given: { schedule: 'random' as never },
        message: '--schedule must be dataset or longest-first, got random',
      },
    ])('throws SandkitError invalid_option for $given', ({ given, message }) => {
      const error = failure(given);
      expect(SandkitError.isInstance(error) && error.code).toBe('invalid_option');
      expect((error as Error).message).toContain(message);
    });
  });
});
