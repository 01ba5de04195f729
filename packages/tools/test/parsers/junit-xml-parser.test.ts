import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJunitXml } from '../../src/parsers/junit-xml-parser.js';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';
import type { ParsedTestOutput, TestStatus } from '../../src/parsers/test-output-types.js';

// Issue 26 section 4: JUnit XML as each runner writes it. Fixtures are real (generate-junit-xml.sh).
const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../fixtures/runners', name), 'utf8');
const statuses = (parsed: ParsedTestOutput): Record<string, TestStatus> =>
  Object.fromEntries(parsed.tests.map((test) => [test.name, test.status]));
const counts = (parsed: ParsedTestOutput) => ({
  passed: parsed.passed,
  failed: parsed.failed,
  skipped: parsed.skipped,
  total: parsed.total,
});
const message = (parsed: ParsedTestOutput, name: string): string | undefined =>
  parsed.failures.find((failure) => failure.name === name)?.message;

interface RunnerCase {
  runner: string;
  counts: ReturnType<typeof counts>;
  tests: Record<string, TestStatus>;
  messages: Record<string, string>;
}

const runners: RunnerCase[] = [
  {
    runner: 'pytest',
    counts: { passed: 2, failed: 3, skipped: 1, total: 6 },
    tests: {
      'tests.test_calc.test_adds': 'passed',
      'tests.test_calc.test_compares': 'failed',
      'tests.test_calc.test_errors': 'failed', // pytest writes an exception in a test as <failure>
      'tests.test_calc.test_skipped': 'skipped',
      'tests.test_calc.TestGroup.test_param[1]': 'passed',
      'tests.test_calc.TestGroup.test_param[2]': 'failed',
    },
    // &#10; and the five named entities, decoded once
    messages: { 'tests.test_calc.test_compares': `assert '<a&b>' == '"c"'\n  - "c"\n  + <a&b>` },
  },
  {
    runner: 'phpunit',
    // the data provider's nested <testsuite> is inside its parent's counts: 6, not 8
    counts: { passed: 2, failed: 3, skipped: 1, total: 6 },
    tests: {
      'CalcTest::testAdds': 'passed',
      'CalcTest::testCompares': 'failed',
      'CalcTest::testErrors': 'error',
      'CalcTest::testSkipped': 'skipped',
      'CalcTest::testParam with data set #0': 'passed',
      'CalcTest::testParam with data set #1': 'failed',
    },
    messages: { 'CalcTest::testErrors': 'CalcTest::testErrors' },
  },
  {
    runner: 'catch2',
    counts: { passed: 2, failed: 3, skipped: 0, total: 5 },
    tests: {
      adds: 'passed',
      'compares <a&b>': 'failed',
      errors: 'error',
      'group/first': 'passed',
      'group/second': 'failed',
    },
    messages: { 'compares <a&b>': 'std::string("<a&b>") == "\\"c\\""', errors: 'boom' },
  },
  {
    runner: 'ctest',
    // ctest's counts call a test whose executable does not exist skipped (status="notrun"), its
    // console calls it failed (***Not Run): it is an error, moved to failed in the counts.
    counts: { passed: 1, failed: 2, skipped: 1, total: 4 },
    // <system-out> is no result; the failure's empty message gives way to the test's output
    tests: { adds: 'passed', compares: 'failed', skipped: 'skipped', missing: 'error' },
    messages: { compares: 'printed <out> & more', missing: 'Unable to find executable: /nonexistent/binary' },
  },
  {
    runner: 'node',
    // node's own closing comments (<!-- tests 5 --> …): its root has no count attributes
    counts: { passed: 2, failed: 2, skipped: 1, total: 5 },
    tests: {
      adds: 'passed',
      compares: 'failed',
      skipped: 'skipped',
      'group > first': 'passed',
      'group > second': 'failed',
    },
    messages: { 'group > second': 'boom' },
  },
  {
    runner: 'junit5',
    counts: { passed: 2, failed: 3, skipped: 1, total: 6 },
    tests: {
      'com.example.CalcTest.adds()': 'passed',
      'com.example.CalcTest.compares()': 'failed',
      'com.example.CalcTest.errors()': 'error',
      'com.example.CalcTest.skipped()': 'skipped',
      'com.example.CalcTest$Group.first()': 'passed',
      'com.example.CalcTest$Group.second()': 'failed',
    },
    messages: { 'com.example.CalcTest.compares()': 'expected: <<a&b>> but was: <"c">' },
  },
  {
    runner: 'surefire',
    // the ids of the maven console parser: com.a.CalcTest.method
    counts: { passed: 2, failed: 3, skipped: 1, total: 6 },
    tests: {
      'com.example.CalcTest.adds': 'passed',
      'com.example.CalcTest.compares': 'failed',
      'com.example.CalcTest.errors': 'error',
      'com.example.CalcTest.skipped': 'skipped',
      'com.example.CalcTest$Group.first': 'passed',
      'com.example.CalcTest$Group.second': 'failed',
    },
    messages: { 'com.example.CalcTest.errors': 'boom' },
  },
  {
    runner: 'rspec',
    counts: { passed: 2, failed: 2, skipped: 1, total: 5 },
    tests: {
      'Calc adds': 'passed',
      'Calc compares': 'failed',
      'Calc errors': 'failed',
      'Calc is pending': 'skipped',
      'Calc group first': 'passed',
    },
    messages: { 'Calc errors': 'boom' },
  },
];

describe('parseJunitXml', () => {
  describe.each(runners)('when $runner wrote the document', (entry) => {
    const text = fixture(`junit-xml-${entry.runner}.txt`);

    it('is detected as junit-xml by its shape and gives the runner’s own counts', () => {
      const parsed = parseTestOutput(text);
      expect(parsed.framework).toBe('junit-xml');
      expect(counts(parsed)).toEqual(entry.counts);
    });

    it('names each testcase in the runner’s id form with failures, errors and skips apart', () => {
      const parsed = parseTestOutput(text);
      expect(statuses(parsed)).toEqual(entry.tests);
      for (const [name, text] of Object.entries(entry.messages)) expect(message(parsed, name)).toBe(text);
    });

    it('never reports a document cut anywhere as passing: an error named junit-xml and no counts', () => {
      const start = text.indexOf('<testsuite');
      const end = text.lastIndexOf('</testsuite');
      for (let step = 1; step < 10; step++) {
        const cut = text.slice(0, start + Math.floor(((end - start) * step) / 10));
        const parsed = parseJunitXml(cut);
        expect(parsed.total, `cut at ${step}/10`).toBeUndefined();
        expect(statuses(parsed)['junit-xml'], `cut at ${step}/10`).toBe('error');
        expect(message(parsed, 'junit-xml')).toMatch(/the output was cut/);
        expect(parsed.tests.filter((test) => test.status === 'passed')).toEqual([]);
      }
    });
  });

  describe('when several documents are concatenated with console text around them', () => {
    it('reads each document and adds their counts', () => {
      const text = [
        '[INFO] Running com.example.CalcTest',
        fixture('junit-xml-surefire.txt'),
        'some console line',
        fixture('junit-xml-phpunit.txt'),
      ].join('\n');
      const parsed = parseTestOutput(text);
      expect(parsed.framework).toBe('junit-xml');
      expect(counts(parsed)).toEqual({ passed: 4, failed: 6, skipped: 2, total: 12 });
      expect(statuses(parsed)).toMatchObject({
        'com.example.CalcTest.adds': 'passed',
        'CalcTest::testAdds': 'passed',
      });
    });

    it('gives no counts when one of them is cut, and says which', () => {
      const phpunit = fixture('junit-xml-phpunit.txt');
      const text = `${fixture('junit-xml-surefire.txt')}\n${phpunit.slice(0, phpunit.indexOf('testErrors'))}`;
      const parsed = parseJunitXml(text);
      expect(parsed.total).toBeUndefined();
      expect(message(parsed, 'junit-xml')).toMatch(/<testsuites> ends inside <testsuite name="CalcTest">/);
      expect(statuses(parsed)['com.example.CalcTest.adds']).toBe('passed'); // its own document closed
      expect(statuses(parsed)['CalcTest::testAdds']).toBeUndefined();
    });
  });

  describe('when the counts and the testcases disagree', () => {
    it('says so (prove: errors="1" is the suite’s own error, the skipped test a plain testcase)', () => {
      const parsed = parseTestOutput(fixture('junit-xml-prove.txt'));
      expect(parsed.framework).toBe('junit-xml');
      expect(parsed.total).toBeUndefined();
      expect(message(parsed, 'junit-xml')).toMatch(
        /counts \(4 tests, 2 failures and errors, 0 skipped\) disagree with its testcases \(3 passed, 2 failed or errors, 0 skipped\)/,
      );
      expect(statuses(parsed)).toEqual({
        'calc_t > 2 - compares': 'failed',
        calc_t: 'error',
        'junit-xml': 'error',
      });
      expect(message(parsed, 'calc_t')).toBe('Dubious, test returned 1 (wstat 256, 0x100)');
    });

    it('lists no passes when a <failure> was moved out of its testcase (interleaved output)', () => {
      const lines = fixture('junit-xml-catch2.txt').split('\n');
      const at = lines.findIndex((line) => line.includes('<failure message="false"'));
      const moved = [...lines.slice(0, at), ...lines.slice(at + 4), ...lines.slice(at, at + 4)];
      const parsed = parseJunitXml(moved.join('\n'));
      expect(parsed.total).toBeUndefined();
      expect(parsed.tests.filter((test) => test.status === 'passed')).toEqual([]);
      expect(message(parsed, 'junit-xml')).toMatch(/interleaved or damaged/);
    });
  });

  it('reads CDATA as text and keeps <system-out> out of the results (JUnit 5)', () => {
    const parsed = parseJunitXml(fixture('junit-xml-junit5.txt'));
    expect(message(parsed, 'com.example.CalcTest$Group.second()')).toBe('expected: <1> but was: <2>');
    const text =
      '<testsuite tests="1" failures="1"><testcase classname="A" name="b"><failure><![CDATA[x <&> y]]></failure><system-out>ok</system-out></testcase></testsuite>';
    expect(parseJunitXml(text)).toMatchObject({
      tests: [{ name: 'A.b', status: 'failed' }],
      failures: [{ name: 'A.b', message: 'x <&> y' }],
      passed: 0,
      failed: 1,
    });
  });
});
