import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prefixRelatives } from '../../../src/eval/instance/grade.js';

/** The pass over every logged id that `prefixRelatives` replaces. */
const naive = (ids: readonly string[], test: string): string[] =>
  ids.filter((id) => id.startsWith(test) || test.startsWith(id)).sort();

/** Ids from a small alphabet (`a`, `b`, `[`, `]`, a space, `é`, `\u0000`), so that prefixes are common. */
const id = fc.string({ unit: fc.constantFrom('a', 'b', '[', ']', ' ', 'é', '\u0000'), maxLength: 6 });

describe('prefixRelatives', () => {
  describe('when ids are prefixes of the test, start with it, or neither', () => {
    it('returns what the pass over every id returns, in the same order', () => {
      fc.assert(
        fc.property(fc.uniqueArray(id, { maxLength: 40 }), id, (ids, test) => {
          const sorted = [...ids].sort();
          expect(prefixRelatives(sorted, test)).toEqual(naive(ids, test));
        }),
        { numRuns: 2000 },
      );
    });
  });

  describe('when the test is a parametrised pytest id', () => {
    it('returns its logged parameter sets and the logged ids it extends, ascending', () => {
      const sorted = [
        't.py::test_a',
        't.py::test_a[1]',
        't.py::test_a[2]',
        't.py::test_ab',
        't.py::test_b',
      ].sort();
      expect(prefixRelatives(sorted, 't.py::test_a[')).toEqual([
        't.py::test_a',
        't.py::test_a[1]',
        't.py::test_a[2]',
      ]);
      expect(prefixRelatives(sorted, 't.py::test_c')).toEqual([]);
    });
  });
});
