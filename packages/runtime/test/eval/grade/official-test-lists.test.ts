import { describe, expect, it } from 'vitest';
import { compareTestLists, readOfficialTestLists } from '../../../src/eval/grade/official-test-lists.js';

const lists = (f2p: [string[], string[]], p2p: [string[], string[]] = [[], []]) => ({
  FAIL_TO_PASS: { success: f2p[0], failure: f2p[1] },
  PASS_TO_PASS: { success: p2p[0], failure: p2p[1] },
});

describe('compareTestLists', () => {
  describe('when both put every test in the same list, in another order', () => {
    it('returns agrees with no differences', () => {
      const ours = lists([['a', 'b'], []], [[], ['c']]);
      expect(compareTestLists(ours, lists([['b', 'a'], []], [[], ['c']]), '', [])).toEqual({
        agrees: true,
        differences: [],
      });
    });
  });

  describe('when a passed django test printed on the line of an unfinished one', () => {
    it('names the line and parse_log_django as the cause', () => {
      const log = 'test_x (m.T) ... test_y (m.T) ... ok\nERROR: test_x (m.T) (qs=1)\n';
      const result = compareTestLists(
        lists([['test_y (m.T)'], ['test_x (m.T)']]),
        lists([[], ['test_x (m.T)', 'test_y (m.T)']]),
        log,
        [],
      );
      expect(result.agrees).toBe(false);
      expect(result.differences).toEqual([
        {
          list: 'FAIL_TO_PASS',
          id: 'test_y (m.T)',
          official: 'failure',
          sandkit: 'success',
          why: expect.stringMatching(
            /^the log line "test_x \(m\.T\) \.\.\. test_y \(m\.T\) \.\.\. ok" holds two tests: .*parse_log_django/,
          ),
        },
      ]);
    });
  });

  describe('when no known cause is in the log', () => {
    it('gives the verdict reasons, or says unexplained', () => {
      const ours = lists([['a'], []]);
      const theirs = lists([[], ['a']]);
      expect(compareTestLists(ours, theirs, 'a ... ok', ['ANSI colour'])).toMatchObject({
        differences: [{ id: 'a', why: 'ANSI colour' }],
      });
      expect(compareTestLists(ours, theirs, 'PASSED a', [])).toMatchObject({
        differences: [{ id: 'a', why: 'unexplained: no known cause found in the log' }],
      });
    });
  });
  describe('when a verdict reason names the tests it is about', () => {
    it('gives each named test the reason without its list, and the others only the whole-log reasons', () => {
      const ours = lists([['a', 'b'], []]);
      const theirs = lists([[], ['a', 'b']]);
      const spaced = {
        text: 'listed ids with spaces not in the log: a',
        ids: new Set(['a']),
        one: 'a listed id with spaces not in the log',
      };
      expect(
        compareTestLists(ours, theirs, '', [spaced, 'ANSI colour']).differences.map((d) => d.why),
      ).toEqual(['a listed id with spaces not in the log; ANSI colour', 'ANSI colour']);
      expect(compareTestLists(ours, theirs, '', [spaced]).differences[1]?.why).toBe(
        'unexplained: the verdicts differ for reasons that name other tests (a listed id with spaces not in the log)',
      );
    });
  });
});

describe('readOfficialTestLists', () => {
  it.each([
    ['no tests_status', {}],
    ['a list that is not of strings', { tests_status: { FAIL_TO_PASS: { success: [1], failure: [] } } }],
    ['PASS_TO_PASS missing', { tests_status: { FAIL_TO_PASS: { success: [], failure: [] } } }],
  ])('returns undefined for %s', (_name, entry) => {
    expect(readOfficialTestLists(entry)).toBeUndefined();
  });

  it('returns FAIL_TO_PASS and PASS_TO_PASS of a full tests_status', () => {
    const status = { ...lists([['a'], ['b']], [['c'], []]), FAIL_TO_FAIL: { success: [], failure: [] } };
    expect(readOfficialTestLists({ tests_status: status })).toEqual(lists([['a'], ['b']], [['c'], []]));
  });
});
