/**
 * Which of the parser names the spec table uses ({@link SpecParser}) exist in `@sandkit/tools`
 * today, which are being added (issue 9 item 5), and which have no parser yet. The official parser
 * of each row (`RepoSpec.officialParser`) stays the reference for how ids must come out.
 * @module
 */
import type { SpecParser } from './repo-spec.js';

/** Names `parseTestOutput` accepts today (a subset of its `testFrameworks`). */
export const parsersInTools = [
  'pytest',
  'django',
  'sympy',
  'jest',
  'vitest',
  'mocha',
  'go',
  'cargo',
] as const satisfies readonly SpecParser[];

/** Names chosen for the parsers another engineer is adding now. */
export const parsersBeingAdded = [
  'tap',
  'jest-json',
  'karma',
  'maven',
  'gradle',
  'phpunit',
  'rspec',
  'minitest',
  'ctest',
  'catch2',
] as const satisfies readonly SpecParser[];

/** Names the table needs that nobody is writing yet (their repositories cannot be graded by sandkit). */
export const parsersMissing = [
  'jasmine',
  'ant-junit',
  'test-unit',
  'cucumber',
  'redis-tcl',
  'automake',
  'doctest-xml',
  'micropython',
] as const satisfies readonly SpecParser[];
