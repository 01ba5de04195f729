import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';
import { parsePytestPieces } from '../../src/parsers/pytest-parser.js';

const fixtures = join(import.meta.dirname, '../fixtures/runners');
const files = readdirSync(fixtures).filter((file) => file.startsWith('pytest-'));

/** `text` cut after the line ends at `cuts` (indexes into its lines), each piece but the last ending with `\n`. */
function cutAtLines(text: string, cuts: readonly number[]): string[] {
  const lines = text.split('\n');
  const at = new Set(cuts.map((cut) => cut % lines.length));
  const pieces: string[] = [];
  let piece = '';
  lines.forEach((line, index) => {
    piece += index === lines.length - 1 ? line : `${line}\n`;
    if (at.has(index)) {
      pieces.push(piece);
      piece = '';
    }
  });
  pieces.push(piece);
  return pieces;
}

describe('parsePytestPieces', () => {
  describe('when real pytest output comes in pieces cut at line ends', () => {
    it.each(files)('%s: gives what parseTestOutput gives for the whole text', (file) => {
      const text = readFileSync(join(fixtures, file), 'utf8');
      const whole = parseTestOutput(text, { framework: 'pytest' });
      expect(whole.tests.length + (whole.total ?? 0)).toBeGreaterThan(0); // the fixture shows something
      fc.assert(
        fc.property(fc.array(fc.nat(), { maxLength: 20 }), (cuts) => {
          expect(parsePytestPieces(cutAtLines(text, cuts))).toEqual(whole);
        }),
        { numRuns: 50 },
      );
    });
  });

  describe('when given no pieces', () => {
    it('gives what parseTestOutput gives for an empty text', () => {
      expect(parsePytestPieces([])).toEqual(parseTestOutput('', { framework: 'pytest' }));
    });
  });
});
