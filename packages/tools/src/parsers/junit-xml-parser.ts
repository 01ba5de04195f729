/**
 * JUnit XML, the report every runner can write (framework `junit-xml`): Maven Surefire's
 * `target/surefire-reports/TEST-*.xml`, the JUnit 5 console launcher's `--reports-dir`, `phpunit
 * --log-junit`, `ctest --output-junit`, Catch2 `-r junit`, `node --test-reporter=junit`, pytest
 * `--junitxml`, `rspec --format RspecJunitFormatter` and `prove --formatter TAP::Formatter::JUnit`.
 * Each `<testsuites>` or `<testsuite>` document in the output is read (several concatenated, as `cat
 * TEST-*.xml` gives, and console text around them, are fine); `<testsuite>` nests.
 *
 * A `<testcase>` is `failed` with a `<failure>` child, `error` with `<error>`, `skipped` with
 * `<skipped>` or a `status="disabled"`/`"notrun"` and no child (ctest, googletest), else `passed`;
 * ctest's `status="notrun"` with a `<skipped>` that is no skip (`Unable to find executable`,
 * `Required Files Missing`; not `SKIP_RETURN_CODE=…`) is an `error`, as ctest's console counts it
 * failed, and the document's counts move it from skipped to failed; a testcase surefire reran
 * (`<rerunFailure>`/`<flakyFailure>` children) is one test with `tries` = those + 1, passed with
 * outcome `flaky` when it has no `<failure>`, and such a document's counts are its testcases' (the
 * suite's attributes count only surefire's last rerun pass); its message is the child's `message` attribute, else the first line
 * of its text. `<system-out>` is not a result. A `<testsuite>`'s own `<error>` (prove's "Dubious,
 * test returned 1") is an `error` named by the suite. Ids, per runner (the console parser's id where
 * sandkit parses that runner's console): `classname.name` (Surefire and JUnit 5: `com.a.CalcTest.adds()`
 * as the XML has it; pytest: `tests.test_calc.TestGroup.test_param[1]`, the XML has lost the
 * file/class boundary of the console's node id); `classname::name` when the testcase has a `class`
 * attribute (PHPUnit: `CalcTest::testParam with data set #1`); `name` alone when it already starts
 * with the classname (ctest), when the classname is Catch2's `<binary>.global` (the name is Catch2's
 * `case/section`), or when it has an RSpec `file="….rb"` (the full description); and with no
 * classname, or node's constant `classname="test"`, the enclosing suite names and the name joined
 * with ` > ` (node's console ids; prove: `calc_t > 2 - compares`).
 *
 * Counts are the runner's own: the root's `tests`/`failures`/`errors`/`skipped` (plus `disabled`)
 * attributes, else the sum of its outermost `<testsuite>`s' (a nested suite's are in its parent's),
 * else node's closing `<!-- tests N -->` comments; failed = failures + errors. Where the document
 * has no counts, none are given. When the counts and the testcases disagree (prove counts a suite's
 * `<error>` in `errors`), the counts are still the runner's and the testcases are listed as
 * written. A document cut before its root closes is never passing: its counts are dropped, the
 * testcases it closed are listed, and an `error` named `junit-xml` says where it was cut. Output
 * with no document at all is never a pass either: an `error` named `junit-xml` says so, after one
 * per source file that failed to compile when the output holds compiler errors (build-errors.ts).
 *
 * Hand-written, not an XML library: this subpath's only dependency is `strip-ansi`, and runner
 * output is not one well-formed document (console text around it, several roots, a cut end),
 * which a conforming parser (saxes, fast-xml-parser) rejects at the first fault, so the finding
 * and recovery would be needed anyway. The scanner reads elements, attributes, text, CDATA,
 * comments and processing instructions, and the five named and the numeric entities; no DTDs.
 * @module
 */
import { withBuildErrors } from './build-errors.js';
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput, TestStatus } from './test-output-types.js';

/** A document's own counts; failed = failures + errors. */
interface Counts {
  total: number;
  failed: number;
  skipped: number;
}

interface Element {
  name: string;
  attributes: Map<string, string>;
  children: Element[];
  text: string;
  closed: boolean;
  /** node's `<!-- key N -->` comments directly inside. */
  comments: Map<string, number>;
}

/** One `<…>` construct or text between them. */
const token =
  /<!\[CDATA\[([\s\S]*?)(?:\]\]>|$)|<!--([\s\S]*?)(?:-->|$)|<\?[\s\S]*?(?:\?>|$)|<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+|<)/g;
/** Elements that belong inside a `<testsuite>`; seen outside any, the output was interleaved or damaged. */
const innerNames = new Set([
  'testcase',
  'failure',
  'error',
  'skipped',
  'system-out',
  'system-err',
  'properties',
]);
/** A line of only a count attribute (ctest writes each on its own line), outside any element. */
const strayAttributeLine = /^\s*(?:tests|failures|errors|skipped|disabled)="\d+"\s*$/m;
const attribute = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Parses the JUnit XML documents in `text`. Pure; never throws. */
export function parseJunitXml(text: string): ParsedTestOutput {
  const collector = new TestCollector();
  const sum = { total: 0, failed: 0, skipped: 0 };
  let everyCounted = true;
  const problems: string[] = [];
  const { roots, stray, cutTag } = readDocuments(text);
  if (cutTag) problems.push('the output was cut (or broken) inside a <testsuite> start tag');
  if (stray !== undefined)
    problems.push(
      `JUnit XML markup outside any document (\`${stray}\`): the output is interleaved or damaged`,
    );
  for (const root of roots) {
    const listed: Listed = { passed: 0, failed: 0, skipped: 0, notRun: 0, reruns: false, results: [] };
    readSuite(root, [], listed);
    // Surefire with reruns writes the counts of its last rerun pass (tests="1" for a class of 3,
    // surefire 3.2.5): its testcases, each test once, are the document's counts then.
    const counted = !root.closed
      ? undefined
      : listed.reruns
        ? {
            total: listed.passed + listed.failed + listed.skipped,
            failed: listed.failed,
            skipped: listed.skipped,
          }
        : documentCounts(root);
    const own =
      counted === undefined || listed.notRun === 0
        ? counted
        : { ...counted, failed: counted.failed + listed.notRun, skipped: counted.skipped - listed.notRun };
    let problem: string | undefined;
    if (stray !== undefined) problem = 'stray markup';
    else if (!root.closed)
      problem = `the JUnit XML document <${root.name}> ends inside ${openPath(root)}: the output was cut`;
    else if (
      own !== undefined &&
      (own.total - own.failed - own.skipped !== listed.passed || own.failed !== listed.failed)
    )
      problem = `the JUnit XML document <${root.name}>'s counts (${own.total} tests, ${own.failed} failures and errors, ${own.skipped} skipped) disagree with its testcases (${listed.passed} passed, ${listed.failed} failed or errors, ${listed.skipped} skipped)`;
    // Passes are listed only where the runner's counts vouch for them: in a cut or damaged
    // document, or one without counts, a lost or misplaced failure would read as a pass.
    for (const [name, status, message, extra] of listed.results) {
      if (status === 'passed' && (problem !== undefined || own === undefined)) continue;
      collector.add(name, status, extra);
      if (message !== undefined) collector.fail(name, message);
    }
    if (problem !== undefined) problems.push(problem);
    else if (own === undefined) everyCounted = false;
    else {
      sum.total += own.total;
      sum.failed += own.failed;
      sum.skipped += own.skipped;
    }
  }
  if (roots.length === 0 && problems.length === 0) {
    // No report at all: the runner failed before writing one (a test binary that did not compile,
    // a suite that did not load), or the command did not print it.
    for (const failure of withBuildErrors(
      { framework: 'junit-xml', tests: [], failures: [] },
      text.split('\n'),
    ).failures) {
      collector.add(failure.name, 'error');
      collector.fail(failure.name, failure.message);
    }
    problems.push(
      'no JUnit XML document in the output: the runner wrote no report (it failed before any test?) or the command did not print it (print it after the run: `…; s=$?; cat report.xml; exit $s`)',
    );
    collector.add('junit-xml', 'error');
    collector.fail('junit-xml', problems.join('; '));
    return collector.finish('junit-xml');
  }
  if (problems.length > 0) {
    collector.add('junit-xml', 'error');
    collector.fail('junit-xml', `${problems.join('; ')}; so no counts and none of its passes are given`);
  } else if (everyCounted && sum.total > 0) {
    collector.counts = { ...sum, passed: sum.total - sum.failed - sum.skipped };
  }
  return collector.finish('junit-xml');
}

/** JUnit XML's shape for detection: a line opening `<testsuites>`/`<testsuite>`, a `<testcase>` after it. */
export const junitXmlSignature = /^\s*(?:<\?xml[^>]*\?>\s*)?<testsuites?[\s>/][\s\S]*?<testcase[\s>/]/m;

interface Documents {
  roots: Element[];
  /** The first piece of JUnit XML markup found outside any document (interleaved or damaged output). */
  stray: string | undefined;
  /** Whether a `<testsuite>` start tag was left unfinished. */
  cutTag: boolean;
}

function readDocuments(text: string): Documents {
  const roots: Element[] = [];
  const stack: Element[] = [];
  let stray: string | undefined;
  let cutTag = false;
  for (const match of text.matchAll(token)) {
    const top = stack[stack.length - 1];
    if (match[1] !== undefined || match[7] !== undefined) {
      if (top !== undefined) top.text += match[1] ?? decode(match[7] as string);
      else if (match[7] === '<' && /^<testsuites?\b/.test(text.slice(match.index, match.index + 12)))
        cutTag = true;
      else stray ??= strayAttributeLine.exec(match[7] ?? '')?.[0].trim();
      continue;
    }
    if (match[2] !== undefined) {
      const comment = /^\s*(\w+) (\d+(?:\.\d+)?)\s*$/.exec(match[2]);
      if (top !== undefined && comment) top.comments.set(comment[1] as string, Number(comment[2]));
      continue;
    }
    const name = match[4];
    if (name === undefined) continue; // processing instruction
    if (match[3] === '/') {
      const at = stack.map((element) => element.name).lastIndexOf(name);
      if (at < 0 && innerNames.has(name)) stray ??= match[0];
      if (at < 0) continue;
      // Elements left open inside the one closed stay unclosed (a mis-nested testcase is no pass).
      const [closing] = stack.splice(at);
      (closing as Element).closed = true;
      continue;
    }
    if (top === undefined && name !== 'testsuites' && name !== 'testsuite') {
      if (innerNames.has(name)) stray ??= match[0].slice(0, 80);
      continue;
    }
    const element: Element = {
      name,
      attributes: new Map(),
      children: [],
      text: '',
      closed: match[6] === '/',
      comments: new Map(),
    };
    for (const pair of (match[5] as string).matchAll(attribute))
      element.attributes.set(pair[1] as string, decode(pair[2] ?? pair[3] ?? ''));
    if (top === undefined) roots.push(element);
    else top.children.push(element);
    if (!element.closed) stack.push(element);
  }
  return { roots, stray, cutTag };
}

/** Testcases of one document by status (a suite's own error among the failed), in order. */
interface Listed {
  passed: number;
  failed: number;
  skipped: number;
  /** ctest testcases its counts call skipped and its console calls failed (`status="notrun"`, not a skip). */
  notRun: number;
  /** Whether a testcase holds surefire's rerun elements (the suite's count attributes are then its last pass's). */
  reruns: boolean;
  results: Array<[name: string, status: TestStatus, message?: string, extra?: RunExtra]>;
}

function readSuite(suite: Element, path: string[], listed: Listed): void {
  const suitePath = suite.name === 'testsuite' ? [...path, suite.attributes.get('name') ?? ''] : path;
  for (const child of suite.children) {
    if (child.name === 'testsuite') readSuite(child, suitePath, listed);
    else if (child.name === 'testcase') readCase(child, suitePath, listed);
    else if (child.name === 'error' || child.name === 'failure') {
      const name = suitePath.filter((part) => part !== '').join(' > ') || 'junit-xml';
      listed.results.push([name, child.name === 'error' ? 'error' : 'failed', messageOf(child)]);
      listed.failed++;
    }
  }
}

/** A testcase's tries, when surefire reran it. */
type RunExtra = { tries: number; outcome?: 'flaky' };
const rerunNames = new Set(['rerunFailure', 'rerunError', 'flakyFailure', 'flakyError']);

function readCase(testcase: Element, path: string[], listed: Listed): void {
  const name = caseId(testcase, path);
  const outcome = testcase.children.find((child) => ['failure', 'error', 'skipped'].includes(child.name));
  // Surefire's reruns: a <rerunFailure> per failed rerun after the <failure>, a <flakyFailure> per
  // failed try of a test that then passed (no <failure>); the test stays one testcase.
  const reran = testcase.children.filter((child) => rerunNames.has(child.name));
  if (reran.length > 0) listed.reruns = true;
  const extra: RunExtra | undefined = reran.length > 0 ? { tries: reran.length + 1 } : undefined;
  if (outcome?.name === 'failure' || outcome?.name === 'error') {
    // ctest's <failure message=""/> has the test's output beside it, in <system-out>.
    const output = testcase.children.find((child) => child.name === 'system-out');
    const message = messageOf(outcome) || (output === undefined ? '' : messageOf(output));
    listed.results.push([name, outcome.name === 'error' ? 'error' : 'failed', message, extra]);
    listed.failed++;
  } else if (outcome?.name === 'skipped') {
    const reason = outcome.attributes.get('message') ?? '';
    if (testcase.attributes.get('status') === 'notrun' && !ctestSkip.test(reason)) {
      // ctest: a test that could not start (its executable was never built, a required file or a
      // fixture is missing) is `notrun` with a <skipped>, and a failure in ctest's own console.
      const output = testcase.children.find((child) => child.name === 'system-out');
      const detail = output === undefined ? '' : messageOf(output);
      listed.results.push([name, 'error', detail === '' ? reason : detail]);
      listed.failed++;
      listed.notRun++;
    } else {
      listed.results.push([name, 'skipped']);
      listed.skipped++;
    }
  } else if (testcase.closed && notRunStatus.has(testcase.attributes.get('status') ?? '')) {
    listed.results.push([name, 'skipped']); // ctest `disabled`, googletest `notrun` (DISABLED_)
    listed.skipped++;
  } else if (testcase.closed) {
    // a cut testcase is no pass
    listed.results.push([name, 'passed', undefined, extra && { ...extra, outcome: 'flaky' }]);
    listed.passed++;
  }
}

/** ctest's `<skipped message>` of a test that really skipped (SKIP_RETURN_CODE, SKIP_REGULAR_EXPRESSION). */
const ctestSkip = /^SKIP_/;
/** `status` of a testcase that did not run and has no outcome child. */
const notRunStatus = new Set(['disabled', 'notrun']);

function caseId(testcase: Element, path: string[]): string {
  const name = testcase.attributes.get('name') ?? '';
  const classname = testcase.attributes.get('classname') ?? '';
  if (classname === '' || classname === 'test')
    return [...path.filter((part) => part !== ''), name].join(' > ');
  if (name.startsWith(classname) || classname.endsWith('.global')) return name;
  if (/\.rb$/.test(testcase.attributes.get('file') ?? '')) return name;
  return testcase.attributes.has('class') ? `${classname}::${name}` : `${classname}.${name}`;
}

function messageOf(outcome: Element): string {
  const message = outcome.attributes.get('message')?.trim();
  if (message !== undefined && message !== '') return message;
  return (
    outcome.text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '' && line !== 'FAILED:') ?? '' // Catch2 starts its text with `FAILED:`
  );
}

function documentCounts(root: Element): Counts | undefined {
  const own = suiteCounts(root);
  if (own !== undefined) return own;
  const suites = root.children.filter((child) => child.name === 'testsuite').map(suiteCounts);
  const looseCases = root.children.some((child) => child.name === 'testcase');
  if (suites.length > 0 && !looseCases && suites.every((counts) => counts !== undefined)) {
    const sum = { total: 0, failed: 0, skipped: 0 };
    for (const counts of suites as Counts[]) {
      sum.total += counts.total;
      sum.failed += counts.failed;
      sum.skipped += counts.skipped;
    }
    return sum;
  }
  // node's closing comments, read only when all are there and add up (a lost `fail` line is no pass).
  const [tests, pass, fail, cancelled, skipped, todo] = nodeCounts.map((key) => root.comments.get(key));
  if (tests === undefined || pass === undefined || fail === undefined || cancelled === undefined)
    return undefined;
  if (skipped === undefined || todo === undefined || pass + fail + cancelled + skipped + todo !== tests)
    return undefined;
  return { total: tests, failed: fail + cancelled, skipped: skipped + todo };
}

const nodeCounts = ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo'] as const;

function suiteCounts(suite: Element): Counts | undefined {
  const number = (key: string): number | undefined => {
    const value = suite.attributes.get(key);
    return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
  };
  const tests = number('tests');
  if (tests === undefined) return undefined;
  return {
    total: tests,
    failed: (number('failures') ?? 0) + (number('errors') ?? 0),
    // ctest and googletest count a disabled test in `disabled`, apart from `skipped`.
    skipped: (number('skipped') ?? 0) + (number('disabled') ?? 0),
  };
}

function openPath(root: Element): string {
  const names: string[] = [];
  let element: Element | undefined = root;
  while (element !== undefined) {
    const name = element.attributes.get('name');
    names.push(name === undefined ? `<${element.name}>` : `<${element.name} name="${name}">`);
    element = element.children.findLast((child) => !child.closed);
  }
  return names.slice(1).join(' › ') || `<${root.name}>`;
}

function decode(text: string): string {
  return text.replace(/&(?:#(\d+)|#x([\da-fA-F]+)|(lt|gt|amp|quot|apos));/g, (whole, dec, hex, named) => {
    if (named !== undefined) return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[named as 'lt'];
    const code = dec !== undefined ? Number(dec) : Number.parseInt(hex as string, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
