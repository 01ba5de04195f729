import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeIdEnd, readNodeId } from '../../src/parsers/pytest-node-id.js';

/** The character loop `nodeIdEnd` was before it searched with `indexOf`: the reference. */
function nodeIdEndByChars(text: string, start = 0): number {
  let index = start;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char === 32 || char === 9) break;
    if (char === 91) return blockEndByChars(text, index);
    index++;
  }
  return index === start ? -1 : index;
}

function blockEndByChars(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 91) depth++;
    else if (char === 93) {
      depth--;
      if (depth === 0 && (index + 1 === text.length || text.charCodeAt(index + 1) === 32)) return index + 1;
    }
  }
  for (let index = text.length - 1; index > open; index--) {
    if (text.charCodeAt(index) === 93 && (index + 1 === text.length || text.charCodeAt(index + 1) === 32))
      return index + 1;
  }
  return -1;
}

describe('nodeIdEnd', () => {
  it.each([
    ['tests/t.py::test_x PASSED', 0, 18],
    ['PASSED tests/t.py::test_x[a b-x [1] - y] - boom', 7, 40],
    ['PASSED tests/t.py::test_x[/tmp/a.txt]', 7, 37],
    ['t.py::test_x[a]b c]', 0, 19],
    ['t.py::test_x[a] ]', 0, 15],
    ['t.py::test_x[[a]', 0, 16],
    ['t.py::test_x\t[a]', 0, 12],
    ['t.py::test_x[a', 0, -1],
    [' x', 0, -1],
    ['x', 1, -1],
    ['x', 5, -1],
  ])('reads the id of %j from %i as ending at %i', (text, start, end) => {
    expect(nodeIdEnd(text, start)).toBe(end);
    expect(nodeIdEndByChars(text, start)).toBe(end);
  });

  it('ends every id where the character-by-character scan ends it', () => {
    const text = fc.string({ unit: fc.constantFrom('a', ':', '-', ' ', '\t', '[', ']', '/'), maxLength: 40 });
    fc.assert(
      fc.property(text, fc.nat(42), (line, start) => {
        expect(nodeIdEnd(line, start)).toBe(nodeIdEndByChars(line, start));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('readNodeId', () => {
  it('splits a line into the id and the rest', () => {
    expect(readNodeId('t.py::test_x[a b] PASSED')).toEqual({ id: 't.py::test_x[a b]', rest: ' PASSED' });
    expect(readNodeId(' PASSED')).toBeUndefined();
  });
});
