import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { mapConcurrent } from '../../../src/eval/grade/map-concurrent.js';

describe('mapConcurrent', () => {
  describe('when the calls finish out of order', () => {
    it('returns the results in the order of the items, with never more than `limit` calls pending', async () => {
      let pending = 0;
      let most = 0;
      const delays = [30, 5, 20, 1, 15, 2, 10, 0];
      const results = await mapConcurrent(delays, 3, async (delay, index) => {
        pending++;
        most = Math.max(most, pending);
        await sleep(delay);
        pending--;
        return `${index}:${delay}`;
      });
      expect(results).toEqual(delays.map((delay, index) => `${index}:${delay}`));
      expect(most).toBe(3);
    });
  });

  describe('when a call rejects', () => {
    it('rejects with that error and starts no call after it', async () => {
      const started: number[] = [];
      const run = mapConcurrent([0, 1, 2, 3, 4, 5], 2, async (item) => {
        started.push(item);
        await sleep(1);
        if (item === 1) throw new Error('boom at 1');
        return item;
      });
      await expect(run).rejects.toThrow('boom at 1');
      expect(started).toEqual([0, 1, 2]);
    });
  });

  describe('when the limit is below 1 or there are no items', () => {
    it('runs one call at a time, and resolves to [] for no items', async () => {
      let pending = 0;
      let most = 0;
      const results = await mapConcurrent([1, 2, 3], 0, async (item) => {
        pending++;
        most = Math.max(most, pending);
        await sleep(1);
        pending--;
        return item * 2;
      });
      expect(results).toEqual([2, 4, 6]);
      expect(most).toBe(1);
      expect(await mapConcurrent([], 4, async () => 1)).toEqual([]);
    });
  });
});
