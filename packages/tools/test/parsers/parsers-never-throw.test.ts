import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';
import { testFrameworks } from '../../src/parsers/test-output-types.js';

// parseTestOutput promises "any text is parsed without throwing". The JUnit 5 parser threw a
// RangeError (Invalid array length) on a tree line whose indent was cut off its 3-column units,
// as a log cut mid-line and re-joined gives: it set path.length to 4/3. Every parser is fed real
// fixture lines cut at any column, shifted by spaces and re-ordered, under every framework name.
const dir = join(import.meta.dirname, '../fixtures/runners');
const lines = readdirSync(dir)
  .filter((name) => name.endsWith('.txt'))
  .map((name) => ({ name, lines: readFileSync(join(dir, name), 'utf8').split('\n').slice(1, 120) }));
const all = lines.flatMap((file) => file.lines);
/** Lines of the framework's own fixtures (named after it) half the time, of any fixture else. */
const linesFor = (framework: string): fc.Arbitrary<string> => {
  const own = lines.filter((file) => file.name.startsWith(`${framework}-`)).flatMap((file) => file.lines);
  return own.length > 0
    ? fc.oneof(fc.constantFrom(...own), fc.constantFrom(...all))
    : fc.constantFrom(...all);
};

describe('parseTestOutput never throws', () => {
  it('on a JUnit 5 tree line whose indent is off its 3-column units', () => {
    const text = [
      '╷',
      '├─ JUnit Jupiter ✔',
      '│  ├─ CalcTest ✔',
      ' │  ├─ adds() ✔',
      '│  │ └─ cut() ✔',
      '│  │  └─ subtracts() ✘ expected: <1> but was: <2>',
      '[         1 tests successful      ]',
      '[         1 tests failed          ]',
    ].join('\n');
    const parsed = parseTestOutput(text, { framework: 'junit5' });
    expect(parsed).toMatchObject({ passed: 1, failed: 1 });
    expect(parsed.tests).toContainEqual({ name: 'JUnit Jupiter:CalcTest:subtracts()', status: 'failed' });
    // the shifted lines are not read as tree lines at some other depth
    expect(parsed.tests.map((test) => test.name).filter((name) => /adds|cut/.test(name))).toEqual([]);
  });

  it('on real runner lines cut, shifted and re-ordered, under every framework (property)', () => {
    const piece = (framework: string) =>
      fc
        .tuple(linesFor(framework), fc.nat(), fc.nat(3), fc.constantFrom('whole', 'head', 'tail'))
        .map(([line, cut, pad, keep]) => {
          const at = cut % (line.length + 1);
          const kept = keep === 'whole' ? line : keep === 'head' ? line.slice(0, at) : line.slice(at);
          return ' '.repeat(pad) + kept;
        });
    const run = fc
      .constantFrom(...testFrameworks)
      .chain((framework) => fc.tuple(fc.constant(framework), fc.array(piece(framework), { maxLength: 40 })));
    fc.assert(
      fc.property(run, ([framework, parts]) => {
        const parsed = parseTestOutput(parts.join('\n'), { framework });
        expect(parsed.framework).toBe(framework);
      }),
      { numRuns: 3000 },
    );
  });
});
