/**
 * pytest output: the verbose form (`path::test[params] PASSED  [ 50%]`, `[1/3]` in the count
 * style, nothing in the classic one), the `-rA` short test summary (`FAILED path::test[params] -
 * message`), xdist lines in every console style (`[gw0] [ 50%] PASSED id`, `[gw0] [1/3] PASSED
 * id`, `[gw0] PASSED id`) and the final `=== 2 failed, 6 passed in 0.1s ===` line (pytest < 5:
 * `=== 242 passed, 1 warnings in 6.79 seconds ===`). pytest-rerunfailures' `id RERUN` lines are
 * tries, not results: the test keeps the status of its last run, outcome `flaky` when that passed,
 * and `N rerun` in the summary is not counted.
 *
 * Failures outside any test count: a module that fails to collect (`ERROR collecting path`) is an
 * error named by its path; an `ERROR at setup/teardown of x` or FAILURES section whose test no
 * result line named is an error or failure under the section's name; an xdist worker that died
 * (`worker 'gw1' crashed while running 'id'`) fails the test it was running, with that line as
 * the message. Before any test: a conftest that does not import (`ImportError while loading conftest
 * 'path'.`, exit 4 and no summary) is an error named by its path, and each command-line path or
 * node id that pytest did not find (`ERROR: file or directory not found: x`, `ERROR: not found:
 * x::t`) an error named by it. Every such entry takes the first `E ` line of its section as its message. A session started inside a test (pytester's
 * `runpytest`, printed in captured output) is nested: its lines and summary are ignored, and the
 * outermost session's last summary wins.
 * @module
 */
import { nodeIdEnd, readNodeId } from './pytest-node-id.js';
import { forEachLine, stripAnsiCodes } from './output-lines.js';
import { readCountWords, TestCollector } from './test-collector.js';
import type { ParsedTest, ParsedTestOutput, TestStatus } from './test-output-types.js';

type Word = 'PASSED' | 'FAILED' | 'ERROR' | 'SKIPPED' | 'XFAIL' | 'XPASS';
const sessionStart = /^=+ test session starts =+$/;
const finalSummary =
  /^=+ (?!tests finished: )(.*\b(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|no tests ran)\b.*) in [\d.]+(?:s| seconds)(?: \([^)]*\))? =+$/;
/**
 * `-q` prints the final summary without its `=` border: `1 failed, 2 passed, 1 warning in 0.12s`
 * (`no tests ran in 0.01s`). Only pytest's own count words, so another runner's line is not taken.
 */
const quietSummary =
  /^((?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)(?:, |(?= in )))+|no tests ran) in [\d.]+(?:s| seconds)(?: \([^)]*\))?$/;
const sectionHeader = /^_{3,} (.+?) _{3,}$/;
const xdist = /^\[gw\d+\] (?:\[\s*\d+%\] |\[\s*\d+\/\d+\] )?(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (.*)$/;
const workerCrash = /^(?:\[gw\d+\] )?worker '[^']*' crashed while running '(.+)'$/;
const areaHeader = /^=+ (FAILURES|ERRORS) =+$/;

/** Parses pytest output (ANSI-free text, see outputLines). Pure; never throws. */
export function parsePytestText(text: string): ParsedTestOutput {
  const parser = new PytestLineParser();
  forEachLine(text, (line) => parser.line(line));
  return parser.finish();
}

/**
 * Parses pytest output given as consecutive pieces of one text: the same result as
 * `parseTestOutput(pieces.join(''), { framework: 'pytest' })` when every piece but the last ends
 * with `\n` (no line is split between two pieces) and no ANSI escape sequence spans two pieces.
 * For a caller holding a large log as bytes: decoded in pieces smaller than V8's large-object size
 * (128 KiB), its strings are young-generation objects instead of one large object per log, whose
 * memory V8 maps, faults in and unmaps each time. Pure; never throws.
 */
export function parsePytestPieces(pieces: Iterable<string>): ParsedTestOutput {
  const parser = new PytestLineParser();
  const visit = (line: string): void => parser.line(line);
  // A piece's trailing '' (after its final `\n`) is an empty line, which the parser skips.
  for (const piece of pieces) forEachLine(stripAnsiCodes(piece), visit);
  return parser.finish();
}

/** Parses pytest output lines. Pure; never throws. */
export function parsePytest(lines: readonly string[]): ParsedTestOutput {
  const parser = new PytestLineParser();
  for (const line of lines) parser.line(line);
  return parser.finish();
}

/** What one pytest session (the outer run, or one nested in captured output) printed. */
class Session {
  readonly collector = new TestCollector();
  readonly sectionMessages = new Map<string, string>();
  section: string | undefined;
  /** The `=== FAILURES ===` or `=== ERRORS ===` area the current section is in. */
  area: 'FAILURES' | 'ERRORS' | undefined;
  /** Each section's name (the test or path it is about) and what it reports. */
  readonly sections = new Map<string, 'failed' | 'error'>();
  /** Sections that only report a worker crash (their test is named by the crash line). */
  readonly crashSections = new Set<string>();
  /** `true` once a result, section or summary was read. */
  used = false;
}

/**
 * Sessions are kept apart by nesting depth. The outer run is the shallowest session that printed
 * anything: a repeated `test session starts` line (a damaged log) then only moves the whole run one
 * level down instead of hiding it.
 */
class PytestLineParser {
  private readonly sessions = new Map<number, Session>();
  private depth = 0;

  /** The session of the last {@link session} call and its level (the depth rarely changes). */
  private current: { level: number; session: Session } | undefined;

  private session(): Session {
    const level = Math.max(1, this.depth);
    if (this.current?.level === level) return this.current.session;
    let session = this.sessions.get(level);
    if (session === undefined) {
      session = new Session();
      this.sessions.set(level, session);
    }
    this.current = { level, session };
    return session;
  }

  line(line: string): void {
    if (line.length === 0) return;
    const first = line.charCodeAt(0);
    if (first === 61 /* = */) {
      if (sessionStart.test(line)) {
        this.depth++;
        return;
      }
      const session = this.session();
      const summary = finalSummary.exec(line);
      if (summary) {
        session.collector.counts = summaryCounts(summary[1] as string);
        session.used = true;
        if (this.depth > 0) this.depth--;
      }
      session.section = undefined;
      session.area = areaHeader.exec(line)?.[1] as Session['area'];
      return;
    }
    const session = this.session();
    const collector = session.collector;
    if (first === 95 /* _ */) {
      const header = sectionHeader.exec(line)?.[1];
      session.section = header?.replace(/^ERROR (?:at \w+ of|collecting) /, '');
      if (
        header !== undefined &&
        session.section !== undefined &&
        session.area !== undefined &&
        !session.sections.has(session.section)
      ) {
        session.sections.set(
          session.section,
          header.startsWith('ERROR ') || session.area === 'ERRORS' ? 'error' : 'failed',
        );
        session.used = true;
      }
      return;
    }
    const section = session.section;
    if (
      first === 69 /* E */ &&
      section !== undefined &&
      line.startsWith('E ') &&
      !session.sectionMessages.has(section)
    ) {
      session.sectionMessages.set(section, line.slice(1).trim());
      return;
    }
    // The crash line starts with `[gw` or `worker`: skip the regex for every other line.
    const crash = first === 91 /* [ */ || first === 119 /* w */ ? workerCrash.exec(line) : null;
    if (crash) {
      const read = readNodeId(crash[1] as string);
      if (read && read.rest === '') {
        record(collector, 'FAILED', read.id, line.replace(/^\[gw\d+\] /, ''));
        session.used = true;
        if (section !== undefined) session.crashSections.add(section);
      }
      return;
    }
    if ((first >= 48 && first <= 57) /* 0-9 */ || first === 110 /* n */) {
      const quiet = quietSummary.exec(line);
      if (quiet) {
        // No session header in -q: the depth stays; a bordered summary after it still wins.
        collector.counts = summaryCounts(quiet[1] as string);
        session.used = true;
        return;
      }
    }
    if (first === 69 /* E */ || first === 73 /* I */) {
      const broken = sessionError(line);
      if (broken !== undefined) {
        // Before any test: a conftest that does not import (pytest exits 4 with no summary), a
        // path or node id given on the command line that is not there ("no tests ran").
        collector.add(broken.name, 'error');
        collector.fail(broken.name, broken.message);
        session.section = broken.name;
        session.used = true;
        return;
      }
    }
    if (readResultLine(line, collector)) session.used = true;
  }

  finish(): ParsedTestOutput {
    const levels = [...this.sessions.keys()].sort((a, b) => a - b);
    const outer = levels.map((level) => this.sessions.get(level) as Session).find((session) => session.used);
    if (outer === undefined) return new TestCollector().finish('pytest');
    // A section whose test no result line named (no -v, no short summary) still counts.
    if (outer.sections.size > 0) {
      const named = sectionsNamingTests(outer.sections.keys(), outer.collector.finish('pytest').tests);
      for (const [name, status] of outer.sections) {
        if (named.has(name) || outer.crashSections.has(name)) continue;
        outer.collector.add(name, status);
      }
    }
    const parsed = outer.collector.finish('pytest');
    if (outer.sectionMessages.size === 0) return parsed;
    for (const failure of parsed.failures) {
      if (failure.message !== '') continue;
      failure.message = outer.sectionMessages.get(headerName(failure.name)) ?? '';
    }
    return parsed;
  }
}

const conftestError = /^ImportError while loading conftest '(.+)'\.$/;
const usageError = /^ERROR: (?:file or directory not found|not found): (.+?)(?: \(no name .*)?$/;

/**
 * pytest's own errors before any test, as `_pytest/config` and `main.py` print them: the conftest
 * that failed to import (its `E ` line, read as a section's, is the message) and each argument that
 * names no file or test. The entry is named by the path or node id as printed.
 */
function sessionError(line: string): { name: string; message: string } | undefined {
  const conftest = conftestError.exec(line);
  if (conftest) return { name: conftest[1] as string, message: '' };
  const usage = usageError.exec(line);
  if (usage) return { name: usage[1] as string, message: line.slice('ERROR: '.length) };
  return undefined;
}

const summaryWords: readonly Word[] = ['PASSED', 'FAILED', 'ERROR', 'XFAIL', 'XPASS'];

/** Reads one result line into `collector`; `true` when it was one. */
function readResultLine(line: string, collector: TestCollector): boolean {
  const first = line.charCodeAt(0);
  // -rA short summary: WORD id[ - message]; SKIPPED lines carry a location, not an id.
  if (first === 80 /* P */ || first === 70 /* F */ || first === 69 /* E */ || first === 88 /* X */) {
    for (const word of summaryWords) {
      if (line.startsWith(word) && line.charCodeAt(word.length) === 32) {
        return readSummaryLine(line, word, word.length + 1, collector);
      }
    }
  }
  if (first === 91 /* [ */ && line.startsWith('[gw')) {
    const parallel = xdist.exec(line);
    const read = parallel ? readNodeId(parallel[2] as string) : undefined;
    if (parallel && read) record(collector, parallel[1] as Word, read.id, '');
    return parallel !== null && read !== undefined;
  }
  if (!line.includes('::')) return false;
  const end = nodeIdEnd(line);
  if (end > 0 && line.charCodeAt(end) === 32) {
    // pytest-rerunfailures: `id RERUN` is a failed try before a retry, not the test's result.
    if (line.startsWith('RERUN', end + 1) && !isWordChar(line.charCodeAt(end + 6))) {
      collector.retried(line.slice(0, end));
      return true;
    }
    for (const word of verboseWords) {
      if (line.startsWith(word, end + 1) && !isWordChar(line.charCodeAt(end + 1 + word.length))) {
        record(collector, word, line.slice(0, end), '');
        return true;
      }
    }
  }
  // Unbalanced brackets in the parameters: the status is the last word before the progress column.
  const verbose = verboseFallback.exec(line);
  if (verbose) record(collector, verbose[2] as Word, verbose[1] as string, '');
  return verbose !== null;
}

const verboseWords: readonly Word[] = ['PASSED', 'FAILED', 'ERROR', 'SKIPPED', 'XFAIL', 'XPASS'];
const isWordChar = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

function readSummaryLine(line: string, word: Word, start: number, collector: TestCollector): boolean {
  const end = nodeIdEnd(line, start);
  const clean = end > 0 && (end === line.length || line.startsWith(' - ', end));
  const id = end > 0 ? line.slice(start, end) : '';
  // A "]" after the id may mean the balanced scan stopped early inside the parameters.
  if (!clean || (line.indexOf(']', end) >= 0 && collector.statusOf(id) === undefined)) {
    // An id whose parameters hold an unbalanced "]" and " - ": trust a verbose line that named it.
    const rest = line.slice(start);
    const known = knownId(rest, collector);
    if (known !== undefined) {
      record(collector, word, known, rest.slice(known.length + 3));
      return true;
    }
  }
  if (end < 0 || !(id.includes('::') || word === 'ERROR')) return false;
  record(collector, word, id, line.startsWith(' - ', end) ? line.slice(end + 3) : line.slice(end).trim());
  return true;
}

const verboseFallback = /^(\S.*::.*\S) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?: \(.*\))?\s+\[\s*\d+%\]$/;

/**
 * A summary line's id when a verbose line already named it: the whole rest, or the part before
 * one of its ` - ` separators. Resolves ids whose parameters hold an unbalanced `]` and ` - `.
 */
function knownId(rest: string, collector: TestCollector): string | undefined {
  let at = rest.indexOf(' - ');
  while (at >= 0) {
    const candidate = rest.slice(0, at);
    if (candidate.includes('[') && collector.statusOf(candidate) !== undefined) return candidate;
    at = rest.indexOf(' - ', at + 3);
  }
  return undefined;
}

function record(collector: TestCollector, word: Word, id: string, message: string): void {
  const status: TestStatus =
    word === 'PASSED' || word === 'XPASS'
      ? 'passed'
      : word === 'FAILED'
        ? 'failed'
        : word === 'ERROR'
          ? 'error'
          : 'skipped';
  const outcome = word === 'XFAIL' ? 'xfailed' : word === 'XPASS' ? 'xpassed' : undefined;
  collector.add(id, status, outcome ? { outcome } : undefined);
  if (status === 'failed' || status === 'error') collector.fail(id, message);
}

function summaryCounts(text: string): { passed: number; failed: number; skipped: number; total: number } {
  const counts = readCountWords(text);
  const get = (word: string): number => counts.get(word) ?? 0;
  const passed = get('passed') + get('xpassed');
  const failed = get('failed') + get('error') + get('errors');
  const skipped = get('skipped') + get('xfailed');
  return { passed, failed, skipped, total: passed + failed + skipped };
}

/**
 * The section names that name a test: its {@link headerName}, or `[doctest] ` and that (a doctest's
 * section: `[doctest] module.func`). Only a test whose header has the length of a wanted name is
 * spelled out, so a log of 200,000 tests and a few sections builds a few header strings, not all.
 */
function sectionsNamingTests(sections: Iterable<string>, tests: readonly ParsedTest[]): Set<string> {
  const names = [...sections];
  const wanted = new Set<string>();
  for (const name of names) {
    wanted.add(name);
    if (name.startsWith(doctestPrefix)) wanted.add(name.slice(doctestPrefix.length));
  }
  const lengths = new Set<number>();
  for (const name of wanted) lengths.add(name.length);
  const found = new Set<string>();
  for (const test of tests) {
    if (!lengths.has(headerLength(test.name))) continue;
    const header = headerName(test.name);
    if (wanted.has(header)) found.add(header);
  }
  const isDoctestOf = (name: string): boolean =>
    name.startsWith(doctestPrefix) && found.has(name.slice(doctestPrefix.length));
  return new Set(names.filter((name) => found.has(name) || isDoctestOf(name)));
}

const doctestPrefix = '[doctest] ';

/** `headerName(id).length`, without building the name. */
function headerLength(id: string): number {
  const first = id.indexOf('::');
  if (first < 0) return id.length;
  let length = id.length - first - 2;
  for (let at = id.indexOf('::', first + 2); at >= 0; at = id.indexOf('::', at + 2)) length--;
  return length;
}

/** The name pytest prints in a FAILURES section header for a node id (`Class.test[x]`). */
function headerName(id: string): string {
  const first = id.indexOf('::');
  if (first < 0) return id; // a module that failed to collect: its path
  return id.slice(first + 2).replaceAll('::', '.');
}
