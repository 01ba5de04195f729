import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';

// Issue 26 section 4: the JUnit 5 console launcher's own output (real fixtures, generate-junit-xml.sh).
const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../fixtures/runners', name), 'utf8');
const expected = {
  'JUnit Jupiter:CalcTest:errors()': 'failed',
  'JUnit Jupiter:CalcTest:compares()': 'failed',
  'JUnit Jupiter:CalcTest:adds()': 'passed',
  'JUnit Jupiter:CalcTest:skipped()': 'skipped',
  'JUnit Jupiter:CalcTest:Group:second()': 'failed',
  'JUnit Jupiter:CalcTest:Group:first()': 'passed',
};

describe('parseTestOutput on the JUnit 5 console launcher', () => {
  describe.each(['tree', 'flat'])('when --details=%s', (details) => {
    const text = fixture(`junit5-${details}.txt`);

    it('is detected and gives the closing block’s counts', () => {
      const parsed = parseTestOutput(text);
      expect(parsed.framework).toBe('junit5');
      expect(parsed).toMatchObject({ passed: 2, failed: 3, skipped: 1, total: 6 });
    });

    it('names tests as its Failures list does (engine:class:nested:method) with their messages', () => {
      const parsed = parseTestOutput(text);
      expect(Object.fromEntries(parsed.tests.map((test) => [test.name, test.status]))).toEqual(expected);
      expect(parsed.failures.find((f) => f.name === 'JUnit Jupiter:CalcTest:errors()')?.message).toMatch(
        /boom$/,
      );
    });

    it('lists no passes and no counts when the closing block was cut off', () => {
      const parsed = parseTestOutput(text.slice(0, text.indexOf('Test run finished')), {
        framework: 'junit5',
      });
      expect(parsed.total).toBeUndefined();
      expect(parsed.tests.filter((test) => test.status === 'passed')).toEqual([]);
      expect(parsed.tests.filter((test) => test.status === 'failed')).toHaveLength(3);
    });
  });
});
