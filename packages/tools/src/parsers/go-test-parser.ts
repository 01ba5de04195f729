/**
 * `go test` output: plain (only failures are listed), `-v` (`=== RUN` / `--- PASS: Name (0.00s)`,
 * subtests as `Parent/sub_name`) and `-json` (test2json events, one JSON object a line). go prints
 * no count summary: counts are given only for `-v` and `-json`, where every test's result is
 * printed, and are then the number of those results; plain output, which lists every failure and
 * no pass, gets `failed` only.
 *
 * Failures outside any test count too. A package that does not build or set up (`FAIL pkg [build
 * failed]`, `[setup failed]`, test2json's `FailedBuild`) is an `error` named by its import path,
 * with the first compiler line of its `# pkg` block as the message. A package that fails with no
 * failed test (a panic in plain output, a TestMain that exits 1) is `failed` under its import
 * path, with the panic line or its last output line as the message. A test that was running when
 * its binary died (a panic in another goroutine) is `failed` with the panic line as its message;
 * a test whose own goroutine panicked keeps the panic line as its message too.
 *
 * Tests of one name in two packages (`--- PASS: TestX` before `ok example.com/m/a` and again
 * before `ok example.com/m/b`) stay two tests, each named `example.com/m/a.TestX`; a name only one
 * package has keeps its bare name (SWE-bench's lists name go tests bare). A package pattern go
 * cannot resolve (`pattern ./x/...: lstat ./x/: no such file or directory`) is an `error` named by
 * the pattern.
 * @module
 */
import { nameByOwner, ownerKey } from './owner-names.js';
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput, TestStatus } from './test-output-types.js';

const resultLine = /^\s*--- (PASS|FAIL|SKIP): (\S+) \(/;
const messageLine = /^\s+\S+\.go:\d+: (.*)$/;
const runLine = /^=== (?:RUN|CONT|PAUSE|NAME)\s+(\S+)/;
/** `ok  \tpkg\t0.01s`, `FAIL\tpkg\t0.01s`, `FAIL\tpkg [build failed]`, `ok  \tpkg\t(cached)`. */
const packageLine =
  /^(ok|FAIL)\s+(\S+)(?:\s+\[(build failed|setup failed)\]|\s+(?:[\d.]+s|\(cached\))|\s+\[no test files\])/;
/** `# pkg` or `# pkg [pkg.test]`: the header of a package's compiler output. */
const buildHeader = /^# ([\w.\-~]+(?:\/[\w.\-~]+)*)(?: \[[^\]]+\])?$/;
const compilerLine = /^\S+\.go:\d+(?::\d+)?: .+/;
const status: Record<string, TestStatus> = {
  PASS: 'passed',
  FAIL: 'failed',
  SKIP: 'skipped',
  pass: 'passed',
  fail: 'failed',
  skip: 'skipped',
};

/** What one package's binary printed so far. */
interface PackageState {
  /** Which package's binary: its import path (-json) or `#N`, its order in plain output. */
  key: string;
  /** Tests started (`=== RUN`, `run` events) and not yet given a result, in start order. */
  running: string[];
  /** The last test that got a result. */
  lastResult: string | undefined;
  /** The first `panic: ` line, and the test whose output it was. */
  panic: string | undefined;
  panicOwner: string | undefined;
  /** Tests of this package that failed. */
  failedTests: number;
  /** The last non-empty output line that is not the verdict. */
  lastOutput: string | undefined;
}

/** go's refusal of a package pattern it cannot resolve (`pattern ./x/...: lstat ./x/: no such file or directory`). */
const patternError = /^pattern (\S+): (.+)$/;
const newState = (key: string): PackageState => ({
  key,
  running: [],
  lastResult: undefined,
  panic: undefined,
  panicOwner: undefined,
  failedTests: 0,
  lastOutput: undefined,
});

/** Parses go test output (plain, -v or -json). Pure; never throws. */
export function parseGoTest(lines: readonly string[]): ParsedTestOutput {
  const parser = new GoParser();
  for (const line of lines) parser.line(line);
  return parser.finish();
}

class GoParser {
  private readonly collector = new TestCollector();
  private readonly messages = new Map<string, string>();
  /** Failures whose message must win over a `t.Error` line (panics, package failures). */
  private readonly forced = new Map<string, string>();
  /** First compiler line of each package's `# pkg` block. */
  private readonly buildErrors = new Map<string, string>();
  /** Packages that did not build or set up, each with go's reason. */
  private readonly broken = new Map<string, string>();
  /** test2json (go 1.24+): the import path whose build failed, for each package (`FailedBuild`). */
  private readonly failedBuilds = new Map<string, string>();
  private buildPackage: string | undefined;
  private complete = false;
  /** Plain and -v output: one binary's output is printed whole, so one rolling state. */
  private plain = newState('#0');
  /** Plain output: the import path of each `#N` package, from its verdict line. */
  private readonly plainPackages = new Map<string, string>();
  /** -json: per package. */
  private readonly states = new Map<string, PackageState>();

  line(line: string): void {
    if (line.startsWith('{')) {
      if (this.jsonEvent(line)) this.complete = true;
      return;
    }
    const header = buildHeader.exec(line);
    if (header) {
      this.buildPackage = header[1];
      return;
    }
    if (this.buildPackage !== undefined) {
      if (compilerLine.test(line)) {
        if (!this.buildErrors.has(this.buildPackage)) this.buildErrors.set(this.buildPackage, line.trim());
        return;
      }
      if (line.startsWith('\t') || line.startsWith(' ')) return;
      this.buildPackage = undefined;
    }
    const missing = patternError.exec(line);
    if (missing) {
      // go matched no package (`go test ./missing/...`): nothing was built or run.
      this.collector.add(missing[1] as string, 'error');
      this.collector.fail(missing[1] as string, line);
      return;
    }
    const state = this.plain;
    const run = runLine.exec(line);
    if (run) {
      this.complete = true;
      const name = run[1] as string;
      if (!state.running.includes(name)) state.running.push(name);
      return;
    }
    const result = resultLine.exec(line);
    if (result) {
      this.result(state, result[2] as string, status[result[1] as string] ?? 'failed');
      return;
    }
    const verdict = packageLine.exec(line);
    if (verdict) {
      this.packageDone(state, verdict[2] as string, verdict[1] === 'FAIL', verdict[3]);
      this.plainPackages.set(state.key, verdict[2] as string);
      this.plain = newState(`#${this.plainPackages.size}`);
      return;
    }
    this.output(state, line, state.running.at(-1) ?? state.lastResult);
  }

  /** A test got its result. */
  private result(state: PackageState, name: string, result: TestStatus): void {
    this.collector.add(keyOf(state, name), result);
    state.running = state.running.filter((running) => running !== name);
    state.lastResult = name;
    if (result === 'failed') state.failedTests++;
  }

  /** A line of output; `owner` is the test it belongs to, when known. */
  private output(state: PackageState, line: string, owner: string | undefined): void {
    if (line.startsWith('panic: ') && state.panic === undefined) {
      state.panic = line.trim();
      state.panicOwner = owner === undefined ? undefined : keyOf(state, owner);
      return;
    }
    const message = messageLine.exec(line);
    if (message && owner !== undefined && !this.messages.has(keyOf(state, owner)))
      this.messages.set(keyOf(state, owner), message[1] as string);
    const text = line.trim();
    if (
      text !== '' &&
      text !== 'FAIL' &&
      text !== 'PASS' &&
      state.panic === undefined &&
      !/^exit status \d+$/.test(text)
    )
      state.lastOutput = text;
  }

  /** The package's verdict: a failed package with no failed test still counts. */
  private packageDone(state: PackageState, pkg: string, failed: boolean, reason: string | undefined): void {
    if (!failed) return;
    if (reason !== undefined) {
      this.broken.set(pkg, reason);
      return;
    }
    if (state.running.length > 0) {
      // The binary died while these tests ran (a panic in another goroutine, a crash, os.Exit).
      const message = state.panic ?? state.lastOutput ?? 'the test binary exited while this test was running';
      for (const name of state.running) {
        this.collector.add(keyOf(state, name), 'failed');
        this.forced.set(keyOf(state, name), message);
      }
      return;
    }
    if (
      state.panic !== undefined &&
      state.panicOwner !== undefined &&
      this.collector.statusOf(state.panicOwner) === 'failed'
    ) {
      this.forced.set(state.panicOwner, state.panic);
      return;
    }
    if (state.failedTests > 0) return;
    this.collector.add(pkg, 'failed');
    this.forced.set(pkg, state.panic ?? state.lastOutput ?? 'FAIL');
  }

  /** Reads one test2json event; `true` when it was one. */
  private jsonEvent(line: string): boolean {
    let event: {
      Action?: unknown;
      Test?: unknown;
      Output?: unknown;
      Package?: unknown;
      ImportPath?: unknown;
      FailedBuild?: unknown;
    };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      return false; // not test2json: a line of program output that starts with "{"
    }
    if (typeof event !== 'object' || event === null || typeof event.Action !== 'string') return false;
    const action = event.Action;
    // go 1.24+: compiler output as events, and the package's fail event names the failed build.
    if (
      action === 'build-output' &&
      typeof event.ImportPath === 'string' &&
      typeof event.Output === 'string'
    ) {
      const text = event.Output.replace(/\n$/, '');
      const pkg = event.ImportPath.replace(/ \[.*\]$/, '');
      if (compilerLine.test(text) && !this.buildErrors.has(pkg)) this.buildErrors.set(pkg, text.trim());
      return true;
    }
    if (typeof event.Package !== 'string') return false;
    const pkg = event.Package;
    let state = this.states.get(pkg);
    if (state === undefined) {
      state = newState(pkg);
      this.states.set(pkg, state);
    }
    const test = typeof event.Test === 'string' ? event.Test : undefined;
    if (test === undefined) {
      if (action === 'output' && typeof event.Output === 'string') {
        const text = event.Output.replace(/\n$/, '');
        if (!packageLine.test(text)) this.output(state, text, undefined);
      } else if (action === 'fail') {
        const failedBuild =
          typeof event.FailedBuild === 'string' ? event.FailedBuild.replace(/ \[.*\]$/, '') : undefined;
        if (failedBuild !== undefined) this.failedBuilds.set(pkg, failedBuild);
        this.packageDone(state, pkg, true, failedBuild === undefined ? undefined : 'build failed');
        this.states.delete(pkg);
      } else if (action === 'pass' || action === 'skip') {
        this.states.delete(pkg);
      }
      return true;
    }
    if (action === 'run') {
      if (!state.running.includes(test)) state.running.push(test);
    } else if (status[action] !== undefined) {
      this.result(state, test, status[action] as TestStatus);
    } else if (action === 'output' && typeof event.Output === 'string') {
      this.output(state, event.Output.replace(/\n$/, ''), test);
    }
    return true;
  }

  finish(): ParsedTestOutput {
    const collector = this.collector;
    for (const [pkg, reason] of this.broken) {
      collector.add(pkg, 'error');
      const built = this.failedBuilds.get(pkg);
      collector.fail(
        pkg,
        (built === undefined ? undefined : this.buildErrors.get(built)) ??
          this.buildErrors.get(pkg) ??
          reason,
      );
    }
    for (const [name, message] of this.forced) collector.fail(name, message);
    for (const [name, message] of this.messages) {
      const result = collector.statusOf(name);
      if (result === 'failed' || result === 'error') collector.fail(name, message);
    }
    const plainPackages = this.plainPackages;
    const parsed = nameByOwner(
      collector.finish('go'),
      (owner) => (owner.startsWith('#') ? plainPackages.get(owner) : owner),
      (pkg, name) => `${pkg}.${name}`,
    );
    const count = (wanted: TestStatus): number =>
      parsed.tests.filter((test) => test.status === wanted).length;
    if (this.complete) {
      parsed.passed = count('passed');
      parsed.failed = count('failed') + count('error');
      parsed.skipped = count('skipped');
      parsed.total = parsed.tests.length;
    } else if (count('failed') + count('error') > 0) {
      // Plain output lists every failure (tests and packages) but no pass: only `failed` is known.
      parsed.failed = count('failed') + count('error');
    }
    return parsed;
  }
}

/** A test's key in the collector: its package's key and its name. */
function keyOf(state: PackageState, name: string): string {
  return ownerKey(state.key, name);
}
