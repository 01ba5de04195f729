import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeLogInput, gradeLog, type LogGrade } from '../../../src/eval/grade/grade-log.js';
import { gradeLogBytes } from '../../../src/eval/grade/grade-log-bytes.js';
import { decodeUtf8 } from '../../../src/eval/load/decode-utf8.js';

const start = "+ : '>>>>> Start Test Output'";
const end = "+ : '>>>>> End Test Output'";
const ids = [
  'tests/t.py::test_a',
  'tests/t.py::test_b[/tmp/x/f.txt]',
  'tests/t.py::test_c[1h 30m]',
  'tests/t.py::test_c[1h 45m]',
  'tests/t.py::test_ü[✓ 日本]',
];
const input = (officialParser: string | null, parser = 'pytest'): GradeLogInput => ({
  parser,
  officialParser,
  failOnly: false,
  FAIL_TO_PASS: ['tests/t.py::test_a', 'tests/t.py::test_c[1h', 'tests/t.py::test_missing'],
  PASS_TO_PASS: ['tests/t.py::test_b[/f.txt]', 'tests/t.py::test_ü[✓'],
});
/** A grade with its maps as entry lists, so that their order is compared too. */
const comparable = (grade: LogGrade) => ({ ...grade, statuses: [...grade.statuses] });
/** What gradeLog gives for the text of `bytes`, as grade read logs before. */
const asText = (bytes: Buffer, of: GradeLogInput) => comparable(gradeLog(decodeUtf8(bytes), of));
/** `lines` test lines, so that a piece cut inside a line would change what is parsed. */
const filler = (lines: number) =>
  Array.from({ length: lines }, (_, n) => `PASSED tests/f.py::test_${n}[/tmp/${n % 7 ? n : '✓'}.txt]\n`).join(
    '',
  );

describe('gradeLogBytes', () => {
  describe('when a pytest log spans many pieces', () => {
    it('grades it as gradeLog grades its text, statuses in the same order', () => {
      const tests = ids.map((id, n) => `${n % 2 ? 'FAILED' : 'PASSED'} ${id}`).join('\n');
      const text = `+ git apply -v -\n${start}\n${filler(3000)}${tests}\n${'y'.repeat(70_000)}\n${tests}\n${end}\n`;
      const bytes = Buffer.from(text);
      expect(bytes.length).toBeGreaterThan(6 * 32 * 1024);
      const graded = gradeLogBytes(bytes, input('parse_log_pytest'));
      expect(comparable(graded)).toEqual(asText(bytes, input('parse_log_pytest')));
      expect(graded.statuses.size).toBe(3000 + ids.length - 1); // every line read whole; two ids cut to one
      expect(graded.collisions.map((c) => c.official)).toEqual(['tests/t.py::test_c[1h']);
      expect(graded.statuses.get('tests/t.py::test_ü[✓')).toBe('PASSED');
    });
  });

  describe('when a log holds CRs, escapes, odd bytes or no test output', () => {
    const wrap = (tests: string) => Buffer.from(`${start}\n${filler(800)}${tests}\n${end}\n`);
    it.each([
      ['CRLF line ends', wrap('PASSED tests/t.py::test_a\r\nFAILED tests/t.py::test_b[/tmp/x/f.txt]\r')],
      ['a lone CR inside a line', wrap('FAILED tests/t.py::test_a\rPASSED tests/t.py::test_ü[✓ 日本]')],
      ['a C1 CSI', wrap('PASSED tests/t.py::test_a\u009b32m')],
      ['ANSI colour', wrap('\x1b[32mPASSED\x1b[0m tests/t.py::test_a\n\x1b]8;;x\n\x1b\\')],
      ['invalid UTF-8', Buffer.concat([wrap('PASSED tests/t.py::test_a'), Buffer.from([0xe2, 0x0a, 0xff])])],
      ['a byte order mark', Buffer.concat([Buffer.from('\ufeff'), wrap('PASSED tests/t.py::test_a')])],
      ['no start marker', Buffer.from(`${filler(900)}PASSED tests/t.py::test_a\n`)],
      [
        'a bad code',
        Buffer.concat([wrap('PASSED tests/t.py::test_a'), Buffer.from('>>>>> Tests Timed Out\n')]),
      ],
      [
        'no test line between the markers',
        Buffer.from(`PASSED tests/t.py::test_a\n${start}\n${filler(900)}${end}\n`),
      ],
      [
        'a failed test patch',
        Buffer.from(`+ git apply -v -\nerror: t.py: already exists\n${wrap('PASSED t.py::x')}`),
      ],
    ])('grades a log with %s as gradeLog grades its text', (_, bytes) => {
      for (const officialParser of ['parse_log_pytest_options', null])
        expect(comparable(gradeLogBytes(bytes, input(officialParser)))).toEqual(
          asText(bytes, input(officialParser)),
        );
    });

    it('grades a jest log with its summary ids as gradeLog grades its text', () => {
      const bytes = Buffer.from(
        `${start}\nPASS src/a.test.js (5.2 s)\n  ✓ adds (3 ms)\nFAIL src/b.test.js\n${end}\n`,
      );
      const jest = input('parse_log_react_pdf', 'jest');
      expect(comparable(gradeLogBytes(bytes, jest))).toEqual(asText(bytes, jest));
    });
  });

  it('grades any log as gradeLog grades its text (lines at any offset from the piece cuts)', () => {
    const fragment = fc.oneof(
      fc.constantFrom(
        start,
        end,
        '+ git apply -v -',
        'error: tests/t.py: patch does not apply',
        '>>>>> Reset Failed',
        '=== 3 passed in 0.1s ===',
        '____ test_a ____',
        'E   assert 1 == 2',
        ...ids.flatMap((id) => [`PASSED ${id}`, `FAILED ${id} - boom`, `${id} PASSED [ 50%]`]),
      ),
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.from(b).toString('latin1')),
    );
    const log = fc.record({
      head: fc.integer({ min: 0, max: 1500 }),
      lines: fc.array(fragment, { maxLength: 30 }),
      long: fc.boolean(),
      tail: fc.integer({ min: 0, max: 1500 }),
    });
    const parsers = fc.constantFrom<Array<[string | null, string]>>(
      ['parse_log_pytest', 'pytest'],
      ['parse_log_pytest_options', 'pytest'],
      [null, 'pytest'],
      ['parse_log_karma', 'karma'],
    );
    fc.assert(
      fc.property(log, parsers, ({ head, lines, long, tail }, [officialParser, parser]) => {
        const bytes = Buffer.concat([
          Buffer.from(`${start}\n${filler(head)}`),
          ...lines.map((line) => Buffer.from(`${line}\n`, line.length <= 12 ? 'latin1' : 'utf8')),
          Buffer.from(`${long ? 'z'.repeat(40_000) : ''}\n${filler(tail)}${end}\n`),
        ]);
        const of = input(officialParser, parser);
        expect(comparable(gradeLogBytes(bytes, of))).toEqual(asText(bytes, of));
      }),
      { numRuns: 150 },
    );
  });
});
