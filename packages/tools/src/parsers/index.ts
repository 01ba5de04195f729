/**
 * `@sandkit/tools/parsers`: the test-output parsers alone, for programs that grade logs and want
 * none of the tools (no zod, no `@sandkit/core`): the same functions as the package root's
 * `parseTestOutput`, `getTestStatuses` and `getTestStatusMap`, and `parsePytestPieces` (pytest output
 * given in pieces). Its only dependency is `strip-ansi`.
 * @module
 */
export { type ParseTestOutputOptions, parseTestOutput } from './parse-test-output.js';
export { parsePytestPieces } from './pytest-parser.js';
export { getTestStatuses, getTestStatusMap } from './test-status-map.js';
export {
  type ParsedFailure,
  type ParsedTest,
  type ParsedTestOutput,
  type TestFramework,
  type TestStatus,
  testFrameworks,
} from './test-output-types.js';
