import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNumstatZ } from '../../src/git/parse-numstat.js';

describe('parseNumstatZ', () => {
  it.each([
    ['a plain record', '3\t1\tsrc/a.ts\0', [{ path: 'src/a.ts', additions: 3, deletions: 1, binary: false }]],
    [
      'B28: a rename record (empty path, then old and new)',
      '1\t0\t\0before.txt\0after.txt\0' + '3\t1\t\0src/old.ts\0src/new.ts\0',
      [
        { path: 'after.txt', oldPath: 'before.txt', additions: 1, deletions: 0, binary: false },
        { path: 'src/new.ts', oldPath: 'src/old.ts', additions: 3, deletions: 1, binary: false },
      ],
    ],
    ['a binary file', '-\t-\timg.png\0', [{ path: 'img.png', additions: -1, deletions: -1, binary: true }]],
    [
      'names with tabs and newlines',
      '1\t1\ta\tb\nc\0',
      [{ path: 'a\tb\nc', additions: 1, deletions: 1, binary: false }],
    ],
    [
      'a record cut short by a cap',
      '1\t1\ta\0' + '2\t2\tb',
      [{ path: 'a', additions: 1, deletions: 1, binary: false }],
    ],
    ['a rename cut short', '1\t0\t\0old\0new', []],
    ['empty output', '', []],
    ['garbage', 'warning: x\n', []],
  ])('%s', (_name, text, expected) => {
    expect(parseNumstatZ(text)).toEqual(expected);
  });

  it('never throws and never reports a count below -1', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('1\t2\t', '-\t-\t', '\0', '\t', '7\t0\tx\0')), {
          maxLength: 30,
        }),
        (parts) => {
          for (const entry of parseNumstatZ(parts.join(''))) {
            expect(entry.additions).toBeGreaterThanOrEqual(-1);
            expect(entry.deletions).toBeGreaterThanOrEqual(-1);
            expect(entry.binary).toBe(entry.additions === -1);
          }
        },
      ),
    );
  });
});
