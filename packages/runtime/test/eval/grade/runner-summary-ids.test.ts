import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runnerSummaryStatuses } from '../../../src/eval/grade/runner-summary-ids.js';
import { repoRoot } from '../eval-test-helpers.js';

const runner = (name: string) =>
  readFileSync(join(repoRoot, 'packages/tools/test/fixtures/runners', name), 'utf8');

describe('runnerSummaryStatuses', () => {
  describe('when the official parser is parse_log_react_pdf', () => {
    it("returns one status per test file from jest's PASS/FAIL lines, durations dropped", () => {
      expect(
        Object.fromEntries(runnerSummaryStatuses(runner('jest-verbose.txt'), 'parse_log_react_pdf')),
      ).toEqual({
        './math.test.js': 'FAILED',
        './ok.test.js': 'PASSED',
      });
    });

    it('keeps FAILED when one file is reported twice, once failing', () => {
      const log = 'FAIL ./a.test.js (1.2 s)\nPASS ./a.test.js\nPASS ./b.test.js (80 ms)\n';
      expect(Object.fromEntries(runnerSummaryStatuses(log, 'parse_log_react_pdf'))).toEqual({
        './a.test.js': 'FAILED',
        './b.test.js': 'PASSED',
      });
    });

    it('reads a line holding a long run of spaces (a backtracking pattern hung on it for minutes)', () => {
      const spaces = ' '.repeat(200_000);
      const log = `PASS ./a${spaces}b.test.js${spaces}\nFAIL ./c.test.js${spaces}(3 ms)${spaces}\nPASS${spaces}\n`;
      expect(Object.fromEntries(runnerSummaryStatuses(log, 'parse_log_react_pdf'))).toEqual({
        [`./a${spaces}b.test.js`]: 'PASSED',
        './c.test.js': 'FAILED',
      });
    }, 20_000);
  });

  describe('when the official parser is parse_log_karma', () => {
    it("names tests by karma-mocha-reporter's suites as the official stack does, from the real preact-style run", () => {
      expect(Object.fromEntries(runnerSummaryStatuses(runner('karma-mocha.txt'), 'parse_log_karma'))).toEqual(
        {
          'Components > should render a component': 'PASSED',
          'Components > should keep refs when re-rendering': 'FAILED',
          'Components > should be skipped (skipped)': 'FAILED',
          'Components > nested > should unmount children': 'PASSED',
          // `Events` is shallower than `nested`: it closes one suite and opens none.
          'Components > should add event listeners': 'PASSED',
          'Components > should throw': 'FAILED',
        },
      );
    });

    it('keeps the open suite for a sibling suite at the same indent, reads nothing before the browser starts or after SUMMARY:', () => {
      const log = [
        '    ✔ too early',
        'INFO [launcher]: Starting browser ChromeHeadless',
        '  First',
        '    ✔ one',
        '  Second',
        '    ✖ two\r',
        'SUMMARY:',
        '    ✖ two',
      ].join('\n');
      expect(Object.fromEntries(runnerSummaryStatuses(log, 'parse_log_karma'))).toEqual({
        'First > one': 'PASSED',
        'First > two\r': 'FAILED',
      });
    });
  });

  describe('when the official parser is parse_log_p5js', () => {
    it("joins the title lines of every entry of mocha's failure list with `:`, the first included", () => {
      expect(Object.fromEntries(runnerSummaryStatuses(runner('mocha-spec.txt'), 'parse_log_p5js'))).toEqual({
        'math:subtracts - badly': 'FAILED',
        'math:nested group:add(2, 2) = 5 [table]': 'FAILED',
      });
    });

    it('reads a hook failure the official parser loses (its listing line `1) …` swallows the entry)', () => {
      expect(Object.fromEntries(runnerSummaryStatuses(runner('mocha-hook.txt'), 'parse_log_p5js'))).toEqual({
        'db:"before all" hook for "reads a row"': 'FAILED',
      });
    });
  });

  describe('when the official parser is parse_log_marked', () => {
    it("marks every numbered line FAILED, jasmine's pending list included", () => {
      expect(
        Object.fromEntries(runnerSummaryStatuses(runner('jasmine-default.txt'), 'parse_log_marked')),
      ).toMatchObject({
        'math subtracts badly': 'FAILED',
        'math is skipped': 'FAILED',
      });
    });
  });

  describe('when the official parser reads per-test lines', () => {
    it('returns nothing', () => {
      expect(runnerSummaryStatuses(runner('jest-verbose.txt'), 'parse_log_jest').size).toBe(0);
      expect(runnerSummaryStatuses(runner('mocha-spec.txt'), null).size).toBe(0);
    });
  });
});
