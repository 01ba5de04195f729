import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderLongestFirst } from '../../../src/eval/schedule/order-longest-first.js';

const byId = (ids: readonly string[], durations: Record<string, number>) =>
  orderLongestFirst(ids, (id) => id, new Map(Object.entries(durations)));

describe('orderLongestFirst', () => {
  it.each<{ name: string; ids: string[]; durations: Record<string, number>; ordered: string[] }>([
    {
      name: 'every time known',
      ids: ['a', 'b', 'c'],
      durations: { a: 10, b: 30, c: 20 },
      ordered: ['b', 'c', 'a'],
    },
    {
      name: 'ties',
      ids: ['a', 'b', 'c', 'd'],
      durations: { a: 5, b: 9, c: 5, d: 9 },
      ordered: ['b', 'd', 'a', 'c'],
    },
    {
      name: 'some unknown',
      ids: ['a', 'b', 'c', 'd'],
      durations: { b: 1, d: 2 },
      ordered: ['a', 'c', 'd', 'b'],
    },
    { name: 'none known', ids: ['c', 'a', 'b'], durations: {}, ordered: ['c', 'a', 'b'] },
    { name: 'times of other ids', ids: ['a', 'b'], durations: { x: 99, b: 3, a: 4 }, ordered: ['a', 'b'] },
  ])('when $name, returns $ordered', ({ ids, durations, ordered }) => {
    const order = byId(ids, durations);
    expect(order.ordered).toEqual(ordered);
    expect(order.known + order.unknown).toBe(ids.length);
  });

  describe('for any items and times', () => {
    it('returns a permutation: unknown ones first in their order, then known times never increasing', () => {
      fc.assert(
        fc.property(
          fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 40 }),
          fc.func(fc.option(fc.nat({ max: 50 }), { nil: undefined })),
          (ids, timeOf) => {
            const durations = new Map<string, number>();
            for (const id of ids) {
              const ms = timeOf(id);
              if (ms !== undefined) durations.set(id, ms);
            }
            const { ordered, known, unknown } = orderLongestFirst(ids, (id) => id, durations);
            expect([...ordered].sort()).toEqual([...ids].sort());
            expect(known).toBe(durations.size);
            expect(ordered.slice(0, unknown)).toEqual(ids.filter((id) => !durations.has(id)));
            const times = ordered.slice(unknown).map((id) => durations.get(id)!);
            times.forEach((ms, i) => {
              if (i > 0) expect(ms).toBeLessThanOrEqual(times[i - 1]!);
            });
          },
        ),
      );
    });
  });
});
