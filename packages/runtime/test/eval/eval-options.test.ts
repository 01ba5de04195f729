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
  describe('createsPerSecond', () => {
    it('defaults to no pacing and keeps a positive rate', () => {
      expect(normalizeEvalOptions(base).createsPerSecond).toBe(Number.POSITIVE_INFINITY);
      expect(normalizeEvalOptions({ ...base, createsPerSecond: 5 }).createsPerSecond).toBe(5);
      expect(normalizeEvalOptions({ ...base, createsPerSecond: 0.5 }).createsPerSecond).toBe(0.5);
    });
    it.each([0, -5, Number.NaN, 1e-9])(
      'refuses %s with invalid_option naming the flag',
      (createsPerSecond) => {
        const error = failure({ createsPerSecond });
        expect(SandkitError.isInstance(error) && error.code).toBe('invalid_option');
        expect((error as Error).message).toContain(
          '--creates-per-second must be a number of creates per second, at least 0.001',
        );
      },
    );
  });

  describe('schedule', () => {
    it('defaults to auto with no durations file, and the cache as the environment says (off in tests)', () => {
      const options = normalizeEvalOptions(base);
      expect(options.schedule).toBe('auto');
      expect(options.durations).toBeNull();
      expect(options.durationsCache).toBeNull();
    });

    it('resolves a durations cache directory to an absolute path, and takes false as off', () => {
      expect(normalizeEvalOptions({ ...base, durationsCache: 'cache/d' }).durationsCache).toMatch(
        /^\/.*\/cache\/d$/,
      );
      expect(normalizeEvalOptions({ ...base, durationsCache: false }).durationsCache).toBeNull();
    });

    it('accepts longest-first without a durations file when the cache is on', () => {
      const options = normalizeEvalOptions({ ...base, schedule: 'longest-first', durationsCache: 'cache/d' });
      expect(options.schedule).toBe('longest-first');
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
        given: { schedule: 'longest-first' as const, durationsCache: false as const },
        message: '--schedule longest-first needs earlier times: give --durations FILE',
      },
      {
        given: { schedule: 'dataset' as const, durations: 'prev/results.jsonl' },
        message: '--durations orders the instances only with --schedule auto or longest-first',
      },
      {
        given: { schedule: 'random' as never },
        message: '--schedule must be auto, dataset or longest-first, got random',
      },
    ])('throws SandkitError invalid_option for $given', ({ given, message }) => {
      const error = failure(given);
      expect(SandkitError.isInstance(error) && error.code).toBe('invalid_option');
      expect((error as Error).message).toContain(message);
    });
  });
});
