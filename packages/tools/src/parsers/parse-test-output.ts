/**
 * `parseTestOutput`: one entry point for every runner's output, with ANSI codes stripped first and
 * the runner detected when not given.
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { parseAntJunit } from './ant-junit-parser.js';
import { parseAutomake } from './automake-parser.js';
import { parseCargo } from './cargo-parser.js';
import { parseCatch2 } from './catch2-parser.js';
import { parseCtest } from './ctest-parser.js';
import { parseCucumber } from './cucumber-parser.js';
import { detectTestFramework } from './detect-test-framework.js';
import { parseDoctestXml } from './doctest-xml-parser.js';
import { parseGoTest } from './go-test-parser.js';
import { parseGradle } from './gradle-parser.js';
import { parseJasmine } from './jasmine-parser.js';
import { parseJestJson } from './jest-json-parser.js';
import { parseJest } from './jest-parser.js';
import { parseJunit5Console } from './junit5-console-parser.js';
import { parseJunitXml } from './junit-xml-parser.js';
import { parseKarma } from './karma-parser.js';
import { parseMaven } from './maven-parser.js';
import { parseMicropython } from './micropython-parser.js';
import { parseMinitest } from './minitest-parser.js';
import { parseMocha } from './mocha-parser.js';
import { parseNodeTest } from './node-test-parser.js';
import { outputLines, stripAnsiCodes } from './output-lines.js';
import { parsePhpunit } from './phpunit-parser.js';
import { parsePytest, parsePytestText } from './pytest-parser.js';
import { parseRedisTcl } from './redis-tcl-parser.js';
import { parseRspecJson } from './rspec-json-parser.js';
import { parseRspec } from './rspec-parser.js';
import { parseSympy } from './sympy-parser.js';
import { parseTap } from './tap-parser.js';
import { type ParsedTestOutput, type TestFramework, testFrameworks } from './test-output-types.js';
import { parseTestUnit } from './test-unit-parser.js';
import { parseUnittest } from './unittest-parser.js';
import { parseVitest } from './vitest-parser.js';

/** Options of {@link parseTestOutput}. */
export interface ParseTestOutputOptions {
  /** The runner that printed the text. @default detected from the text's signatures */
  framework?: TestFramework;
}

const parsers: Record<TestFramework, (lines: readonly string[]) => ParsedTestOutput> = {
  jest: parseJest,
  vitest: parseVitest,
  pytest: parsePytest,
  cargo: parseCargo,
  go: parseGoTest,
  node: parseNodeTest,
  mocha: parseMocha,
  unittest: (lines) => parseUnittest(lines, 'unittest'),
  django: (lines) => parseUnittest(lines, 'django'),
  sympy: parseSympy,
  tap: parseTap,
  'jest-json': parseJestJson,
  karma: parseKarma,
  jasmine: parseJasmine,
  maven: parseMaven,
  gradle: parseGradle,
  'ant-junit': parseAntJunit,
  'junit-xml': (lines) => parseJunitXml(lines.join('\n')),
  junit5: parseJunit5Console,
  phpunit: parsePhpunit,
  rspec: parseRspec,
  'rspec-json': parseRspecJson,
  minitest: parseMinitest,
  'test-unit': parseTestUnit,
  cucumber: parseCucumber,
  ctest: parseCtest,
  catch2: parseCatch2,
  'doctest-xml': parseDoctestXml,
  'redis-tcl': parseRedisTcl,
  automake: parseAutomake,
  micropython: parseMicropython,
};

/**
 * Parses a test runner's output into counts, per-test statuses and failures.
 *
 * Counts (`passed`, `failed`, `skipped`, `total`) are present only when the runner's own summary
 * was matched (see {@link ParsedTestOutput}); they are never guessed. Names stay whole (pytest
 * parameters with spaces, brackets and ` - `; cargo doc-test names). ANSI escape sequences (CSI
 * colours, OSC hyperlinks) are removed first. When `framework` is absent and nothing is
 * recognised, the result is `{ framework: 'unknown', tests: [], failures: [] }`.
 *
 * Pure and linear in the size of `text`.
 *
 * @throws SandkitError `invalid_option` when `framework` is given and is not one of
 * {@link testFrameworks} (the message lists them); any text is parsed without throwing.
 */
export function parseTestOutput(text: string, options: ParseTestOutputOptions = {}): ParsedTestOutput {
  const clean = stripAnsiCodes(text);
  const given = options.framework;
  if (given !== undefined && !Object.hasOwn(parsers, given))
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `parseTestOutput: unknown framework ${JSON.stringify(given)}; use one of ${testFrameworks.join(', ')}, or leave it out to detect the runner from the text`,
    });
  const framework = given ?? detectTestFramework(clean);
  if (framework === undefined) return { framework: 'unknown', tests: [], failures: [] };
  // pytest logs are the big ones (SWE-bench runs): read line by line without holding them all.
  if (framework === 'pytest') return parsePytestText(clean);
  return parsers[framework](outputLines(clean));
}
