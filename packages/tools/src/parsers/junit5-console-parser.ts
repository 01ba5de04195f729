/**
 * The JUnit 5 console launcher (framework `junit5`; `java -jar junit-platform-console-standalone.jar`,
 * Debian's junit5 1.9): the `--details=tree` lines (`│  ├─ adds() ✔`, `✘ message` failed, `↷
 * reason` skipped, `■` aborted, read as skipped), a test being a node without children; and, in
 * every details mode (tree, flat, verbose, summary), the `Failures (N):` list (`  JUnit
 * Jupiter:CalcTest:errors()`, then `=> java.lang.IllegalStateException: boom`). Tests are named as
 * that list names them: the tree's path from the engine joined with `:` (`JUnit Jupiter:CalcTest:
 * Group:second()`, `JUnit Jupiter:CalcTest:param(int):[2] 2`); `--details=flat` (`Started:` /
 * `Finished:` / `Skipped:` lines with the unique id, `=> Exception: …` under a failed one) is named
 * alike, from the display names of the id's parts. Counts from the closing block
 * `[ N tests found ]`, `[ N tests successful ]`, `[ N tests failed ]`, `[ N tests skipped ]`,
 * `[ N tests aborted ]` (skipped = skipped + aborted; total = found), and `[ N containers failed
 * ]` in failed: a class whose `@BeforeAll` threw is a failed container, listed by its name in the
 * Failures list, whose tests never started. Passes are listed only from the tree when the closing
 * block is there (a cut tree is no pass). When discovery fails (`--select-class` of a class that
 * does not exist) the launcher prints its usage and an `org.junit.platform…Exception`: an `error`
 * named `junit5` with that line and its innermost `Caused by:`.
 * @module
 */
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

/** The console launcher's closing block, or a tree line, for detection. */
export const junit5ConsoleSignature =
  /^\[\s+\d+ tests (?:successful|found)\s+\]$|^[│ ]*[├└]─ .+ [✔✘↷■](?: .*)?$/mu;

/** The tree's indent is whole `│  ` / `   ` units (a line cut or shifted off them is not a tree line). */
const treeLine = /^((?:[│ ] {2})*)[├└]─ (.+?) ([✔✘↷■])(?: (.*))?$/u;
const flatLine = /^(Started|Finished|Skipped|Registered): +(.+?) \((\[engine:.*\])\)$/;
const countLine = /^\[\s+(\d+) (tests|containers) (found|successful|failed|skipped|aborted)\s+\]$/;
/** The launcher's own exception when discovery fails (a class or method that does not exist). */
const launcherError = /^(org\.junit\.platform\.\S+(?:Exception|Error)): (.*)$/;
const causedBy = /^Caused by: (\S+(?:Exception|Error)(?:: .*)?)$/;

/** Parses JUnit 5 console launcher output. Pure; never throws. */
export function parseJunit5Console(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  const counts = new Map<string, number>();
  const nodes: Array<{ depth: number; name: string; mark: string; message: string }> = [];
  let inFailures = false;
  let failure: string | undefined;
  /** --details=flat: display name per unique id, and each finished or skipped id's outcome. */
  const displayNames = new Map<string, string>();
  const flat = new Map<string, { status: 'passed' | 'failed' | 'skipped'; message: string }>();
  let lastFlat: string | undefined;
  /** The launcher's exception when it could not discover the tests, and its innermost cause. */
  let discovery: { first: string; cause: string } | undefined;
  for (const raw of lines) {
    const line = raw.trimEnd();
    const event = flatLine.exec(line);
    if (event) {
      const [, kind, display, uid] = event as unknown as [string, string, string, string];
      displayNames.set(uid, display);
      if (kind === 'Finished' || kind === 'Skipped') {
        flat.set(uid, { status: kind === 'Skipped' ? 'skipped' : 'passed', message: '' });
        lastFlat = uid;
      } else lastFlat = undefined;
      continue;
    }
    const outcome = /^ {13}=> (Exception|Reason): (.*)$/.exec(line);
    if (outcome && lastFlat !== undefined) {
      const entry = flat.get(lastFlat);
      if (entry !== undefined && outcome[1] === 'Exception')
        flat.set(lastFlat, { status: 'failed', message: outcome[2] as string });
      continue;
    }
    const tree = treeLine.exec(line);
    if (tree) {
      const depth = (tree[1] as string).length / 3;
      nodes.push({ depth, name: tree[2] as string, mark: tree[3] as string, message: tree[4] ?? '' });
      continue;
    }
    const count = countLine.exec(line);
    if (count) {
      counts.set(count[2] === 'tests' ? (count[3] as string) : `containers ${count[3]}`, Number(count[1]));
      continue;
    }
    const thrown = launcherError.exec(line);
    if (thrown && discovery === undefined) {
      discovery = { first: `${thrown[1]}: ${thrown[2]}`, cause: '' };
      continue;
    }
    const cause = discovery === undefined ? null : causedBy.exec(line);
    if (cause && discovery !== undefined) {
      discovery.cause = cause[1] as string;
      continue;
    }
    if (/^Failures \(\d+\):$/.test(line)) {
      inFailures = true;
      continue;
    }
    if (inFailures) {
      const entry = /^ {2}(\S.*)$/.exec(line);
      if (entry) {
        failure = entry[1] as string;
        collector.add(failure, 'failed');
        continue;
      }
      const cause = /^ {4}=> (.*)$/.exec(line);
      if (cause && failure !== undefined) collector.fail(failure, cause[1] as string);
      if (/^Test run finished/.test(line)) inFailures = false;
    }
  }
  const complete = counts.has('successful') && counts.has('failed');
  const uids = [...displayNames.keys()];
  for (const [uid, entry] of flat) {
    if (!uid.includes('/') || uids.some((other) => other.startsWith(`${uid}/`))) continue; // engine or container
    const parts = uid.split('/');
    const name = parts
      .map((_, at) => displayNames.get(parts.slice(0, at + 1).join('/')) ?? parts[at])
      .join(':');
    if (entry.status === 'passed' && !complete) continue;
    collector.add(name, entry.status);
    if (entry.status === 'failed') collector.fail(name, entry.message);
  }
  const path: string[] = [];
  nodes.forEach((node, index) => {
    path.length = node.depth;
    path.push(node.name);
    const next = nodes[index + 1];
    // a container, or an engine (depth 0) that ran nothing
    if ((next !== undefined && next.depth > node.depth) || node.depth === 0) return;
    const name = path.join(':');
    if (node.mark === '✘') {
      collector.add(name, 'failed');
      collector.fail(name, node.message);
    } else if (node.mark === '↷' || node.mark === '■') collector.add(name, 'skipped');
    else if (complete) collector.add(name, 'passed');
  });
  if (discovery !== undefined) {
    // Discovery failed: the launcher printed its usage and this exception, and ran nothing.
    collector.add('junit5', 'error');
    collector.fail(
      'junit5',
      discovery.cause === '' ? discovery.first : `${discovery.first} (caused by ${discovery.cause})`,
    );
  }
  if (complete) {
    const passed = counts.get('successful') as number;
    // A container that failed (a @BeforeAll that threw, its tests never started) is in the
    // launcher's `containers failed`, not `tests failed`: both count, so such a run is never failed 0.
    const failed = (counts.get('failed') as number) + (counts.get('containers failed') ?? 0);
    const skipped = (counts.get('skipped') ?? 0) + (counts.get('aborted') ?? 0);
    collector.counts = { passed, failed, skipped, total: counts.get('found') ?? passed + failed + skipped };
  }
  return collector.finish('junit5');
}
