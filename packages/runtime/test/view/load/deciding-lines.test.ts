import { describe, expect, it } from 'vitest';
import { findDecidingLines } from '../../../src/view/load/deciding-lines.js';

describe('findDecidingLines', () => {
  describe('when a test is named on several lines', () => {
    it('returns the first line naming it with a status word, not a mention before it', () => {
      const lines = [
        'collecting test_a (tests.T.test_a)',
        'test_a (tests.T.test_a) ... FAIL',
        'FAIL: test_a (tests.T.test_a)',
      ];
      expect(findDecidingLines(lines, ['test_a (tests.T.test_a)']).get('test_a (tests.T.test_a)')).toBe(2);
    });
  });

  describe('when only the last part of a path-like id is printed', () => {
    it.each([
      ['Suite > adds two numbers', '  ✓ adds two numbers (3 ms)', 1],
      ['tests/x.py::Class::test_longer', 'test_longer PASSED', 1],
      ['Suite > tiny', '✓ tiny', null],
    ])('finds %s by its last part when that part is at least 6 characters', (name, line, expected) => {
      expect(findDecidingLines([line], [name]).get(name)).toBe(expected);
    });
  });

  describe('when a test is not in the log', () => {
    it('returns null for it', () => {
      expect(findDecidingLines(['PASSED a.py::b'], ['a.py::missing']).get('a.py::missing')).toBeNull();
    });
  });
});
