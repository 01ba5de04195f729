/**
 * TAP 13/14 (`mocha -R tap`, node-tap, `node --test --test-reporter=tap`, any producer): `ok N -
 * name`, `not ok N - name`, `# SKIP`/`# TODO` directives, indented subtests announced by
 * `# Subtest: name` (names joined with ` > `), and `Bail out!` (an `error` named `Bail out!`).
 * A suite whose own result only repeats its children's failures is not listed; a suite that
 * failed by itself (a hook, a file that failed to load) is. A `# Subtest:` that never got a
 * result line is the test running when the producer died: an `error`. Counts come from the
 * producer's own `# tests`/`# pass`/`# fail`/`# skip`/`# todo`/`# cancelled` comment lines.
 * perl's `prove -v` (TAP::Harness): each file's points follow its `t/name.t .. ` line and are
 * named `t/name.t > title` (two files may hold tests of one name); a point without a title is
 * named by its number; counts are prove's own `Files=2, Tests=7, …` (top-level points only, never
 * a subtest's inner ones) and the `Failed: N` of its summary report (a `not ok … # TODO` is not a
 * failure); prove prints no pass or skip count, so none is given. A file its summary report lists
 * with `Failed: 0` and a reason of its own (`Parse errors: No plan found in TAP output`, `Bad plan`,
 * `Non-zero exit status: 2`: a script that died before or between its points, a missing module) is
 * an `error` named by the file, with those reasons, and counts in `failed` (TAP::Formatter::JUnit
 * counts it as the suite's `<error>` alike); a run whose only file died is never `failed: 0`.
 * Official SWE-bench v4.1.0 `parse_log_tap` reads the same result lines (names without the dash).
 * @module
 */
import { isCutCopy } from './cut-copy.js';
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

// `(.*)\s*$` and a trimEnd, not `(.*?)\s*$`: the lazy form is quadratic on a long run of spaces.
const result = /^(\s*)(ok|not ok)\b(?:\s+\d+)?(?:\s+-)?\s*(.*)\s*$/;
const subtest = /^(\s*)# Subtest: (.*)$/;
const countLine = /^\s*# (tests|pass|fail|skip|todo|cancelled) (\d+)$/;
const bailOut = /^\s*Bail out!\s*(.*)$/;
// `(?<!\s)`: tried from the first space of a run only (linear on a long run of spaces).
const directive = /(?:^|(?<!\s)\s+)# (SKIP|TODO)\b.*$/i;
// prove pads the names of a run's files to one width with dots: `t/ok.t ...... `.
const proveFile = /^(\S+\.t) \.{2,}\s*$/;
const proveTotals = /^Files=\d+, Tests=(\d+), /;
const proveFileSummary = /^(\S+) \(Wstat: .*\bTests: \d+ Failed: (\d+)\)$/;
/** The reasons TAP::Harness gives under a file of its summary report for a file that failed by itself. */
const proveFileFault = /^ {2}(Non-zero exit status: \d+|Non-zero wait status: \d+|Parse errors: .*)$/;

/** Parses TAP output. Pure; never throws. */
export function parseTap(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  const counts = new Map<string, number>();
  /** Announced subtests by depth (index = indent / 4). */
  const announced: Array<{ name: string; done: boolean } | undefined> = [];
  /** Per depth: whether a result at a deeper level failed since this level's last result. */
  const childFailed: boolean[] = [];
  const childSeen: boolean[] = [];
  /** prove: the file whose points follow, its total, and the failed points of its summary report. */
  let file = '';
  let proveTotal: number | undefined;
  let proveFailed = 0;
  /** prove's summary report: each file's failed points, and why the file itself failed. */
  const proveReport = new Map<string, { failed: number; faults: string[] }>();
  let reportFile: { failed: number; faults: string[] } | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const bail = bailOut.exec(line);
    if (bail) {
      collector.add('Bail out!', 'error');
      collector.fail('Bail out!', bail[1] || 'the producer bailed out');
      continue;
    }
    const fileLine = proveFile.exec(line);
    if (fileLine) {
      file = fileLine[1] as string;
      announced.length = 0;
      continue;
    }
    const totals = proveTotals.exec(line);
    if (totals) {
      proveTotal = Number(totals[1]);
      continue;
    }
    const fileSummary = proveFileSummary.exec(line);
    if (fileSummary) {
      proveFailed += Number(fileSummary[2]);
      reportFile = { failed: Number(fileSummary[2]), faults: [] };
      proveReport.set(fileSummary[1] as string, reportFile);
      continue;
    }
    const fault = reportFile === undefined ? null : proveFileFault.exec(line);
    if (fault) {
      reportFile?.faults.push(fault[1] as string);
      continue;
    }
    if (!line.startsWith('  ')) reportFile = undefined;
    const count = countLine.exec(line);
    if (count) {
      counts.set(count[1] as string, Number(count[2]));
      continue;
    }
    const sub = subtest.exec(line);
    if (sub) {
      const depth = Math.floor((sub[1] as string).length / 4);
      announced[depth] = { name: (sub[2] as string).trim(), done: false };
      announced.length = depth + 1;
      continue;
    }
    const match = result.exec(line);
    if (!match || isCutCopy(lines, index)) continue;
    const depth = Math.floor((match[1] as string).length / 4);
    let title = (match[3] as string).trimEnd();
    const directiveMatch = directive.exec(title);
    if (directiveMatch) title = title.slice(0, directiveMatch.index).trimEnd();
    if (title === '' && file !== '') title = /\d+/.exec(line)?.[0] ?? '';
    const own = announced[depth];
    if (own !== undefined && own.name === title) own.done = true;
    const path = announced.slice(0, depth).map((entry) => entry?.name ?? '');
    const name = [file, ...path.filter((part) => part !== ''), title]
      .filter((part) => part !== '')
      .join(' > ');
    const hadChildren = childSeen[depth + 1] === true;
    const childrenFailed = childFailed[depth + 1] === true;
    childSeen.length = depth + 1;
    childFailed.length = depth + 1;
    const failed = match[2] === 'not ok';
    const kind = directiveMatch?.[1]?.toUpperCase();
    childSeen[depth] = true;
    if (failed && kind !== 'TODO') childFailed[depth] = true;
    if (hadChildren && (!failed || childrenFailed)) continue; // a suite: its tests are listed
    if (kind === 'SKIP') collector.add(name, 'skipped');
    else if (kind === 'TODO') collector.add(name, 'skipped', { outcome: 'todo' });
    else if (failed) {
      collector.add(name, 'failed');
      collector.fail(name, firstDetail(lines, index + 1, (match[1] as string).length));
    } else collector.add(name, 'passed');
  }
  // The innermost subtest announced without a result was running (its unfinished parents are suites).
  for (const [depth, entry] of announced.entries()) {
    if (entry === undefined || entry.done) continue;
    if (announced.slice(depth + 1).some((inner) => inner !== undefined && !inner.done)) continue;
    const name = [file, ...announced.slice(0, depth + 1).map((part) => part?.name ?? '')]
      .filter((part) => part !== '')
      .join(' > ');
    if (collector.statusOf(name) !== undefined) continue;
    collector.add(name, 'error');
    collector.fail(name, 'no result: the producer ended while this test was running');
  }
  const pass = counts.get('pass');
  const fail = counts.get('fail');
  if (pass !== undefined || fail !== undefined) {
    const skipped = (counts.get('skip') ?? 0) + (counts.get('todo') ?? 0);
    collector.counts = {
      ...(pass !== undefined ? { passed: pass } : {}),
      failed: (fail ?? 0) + (counts.get('cancelled') ?? 0),
      ...(pass !== undefined ? { skipped } : {}),
      ...(counts.has('tests') ? { total: counts.get('tests') } : {}),
    };
  }
  // A file that failed with none of its points failing (it died before or after them, or broke its
  // plan): an error named by the file, counted as prove's JUnit formatter counts its <error>.
  let filesFailed = 0;
  for (const [name, entry] of proveReport) {
    if (entry.failed > 0 || entry.faults.length === 0) continue;
    filesFailed++;
    collector.add(name, 'error');
    collector.fail(name, entry.faults.join('; '));
  }
  if (proveTotal !== undefined) collector.counts = { total: proveTotal, failed: proveFailed + filesFailed };
  return collector.finish('tap');
}

/** The first meaningful line of a failure's diagnostics (YAML `error:` or mocha's indented text). */
function firstDetail(lines: readonly string[], start: number, indent: number): string {
  for (let index = start; index < Math.min(lines.length, start + 30); index++) {
    const line = lines[index] as string;
    const lead = /^\s*/.exec(line)?.[0].length ?? 0;
    if (line.trim() !== '' && lead <= indent) break;
    const text = line.trim();
    const yamlError = /^error:\s*(.*)$/.exec(text);
    if (yamlError) {
      const value = (yamlError[1] as string).replace(/^'|'$/g, '');
      if (value !== '|-' && value !== '|' && value !== '') return value;
      const next = (lines[index + 1] as string | undefined)?.trim();
      if (next) return next;
      continue;
    }
    if (text === '' || text === '---' || text === '...' || /^\w+:/.test(text)) continue;
    return text;
  }
  return '';
}
