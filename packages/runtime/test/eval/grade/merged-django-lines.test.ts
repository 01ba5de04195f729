import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergedDjangoLines } from '../../../src/eval/grade/merged-django-lines.js';

/** The search it replaces: one split of the whole log per id. */
const naive = (log: string, ids: readonly string[]): Map<string, string> => {
  const found = new Map<string, string>();
  for (const id of ids) {
    const line = log
      .split(/\r?\n|\r/)
      .find((line) => line.includes(` ... ${id} ... `) && !line.startsWith(`${id} ... `));
    if (line !== undefined) found.set(id, line.trim());
  }
  return found;
};

describe('mergedDjangoLines', () => {
  describe('when a test prints on the line of one that left its " ... " open', () => {
    it('returns that line for the second test only, from the text or the bytes', () => {
      const log = 'test_x (m.T) ... test_y (m.T) ... ok\r\nERROR: test_x (m.T) (qs=1)\n';
      const ids = new Set(['test_x (m.T)', 'test_y (m.T)']);
      const expected = new Map([['test_y (m.T)', 'test_x (m.T) ... test_y (m.T) ... ok']]);
      expect(mergedDjangoLines(log, ids)).toEqual(expected);
      expect(mergedDjangoLines(Buffer.from(log), ids)).toEqual(expected);
    });
  });

  describe('when logs and ids are made of separators, dots, spaces and line ends', () => {
    it('returns what one split per id returns, from the text and from the UTF-8 bytes', () => {
      const unit = fc.constantFrom(' ', '.', '...', ' ... ', 'a', 'é', '\n', '\r', '\r\n', 'a ... ');
      fc.assert(
        fc.property(
          fc.array(unit, { maxLength: 40 }).map((parts) => parts.join('')),
          fc.uniqueArray(
            fc
              .array(fc.constantFrom('a', '.', ' ', 'é', 'b'), { maxLength: 4 })
              .map((parts) => parts.join('')),
            { maxLength: 6 },
          ),
          (log, ids) => {
            const expected = naive(log, ids);
            expect(mergedDjangoLines(log, new Set(ids))).toEqual(expected);
            expect(mergedDjangoLines(Buffer.from(log), new Set(ids))).toEqual(expected);
          },
        ),
        { numRuns: 3000 },
      );
    });
  });
});
