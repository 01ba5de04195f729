/**
 * grade-throughput: `runGrade` (what `sandkit grade` runs) over N synthetic evaluation logs of
 * realistic size in the official layout, against reading the same files alone, in the same run.
 * First part: no official report beside the logs.
 * Each log is a psf/requests-style pytest `-rA` run (official parser pytest_options): about
 * 1,200 status lines plus as many lines of captured output, ~200 KB, wrapped in the official trace and markers;
 * every row lists 20 FAIL_TO_PASS and 200 PASS_TO_PASS ids. Goal: grade ≤ 2× the reads and ≤ 30 s.
 *
 * What is measured is the built package, as `sandkit grade` runs for a user: this script writes
 * the logs, brings `dist/` up to date (`tsc -b`, a no-op when it is), then runs
 * `grade-throughput-rounds.mjs` under plain node (from the sources, each worker thread would load
 * tsx first, which the built package never does). Per round, in that one process: the reads alone
 * (readFile, utf8, one log after another), what grade writes alone (a directory and a report.json
 * per log: context, as creating files costs what the file system makes it cost; on this machine's
 * /tmp it varied from 0.03 to 0.6 ms a file), then runGrade with `--jobs` (default: the CPU count:
 * this thread and jobs − 1 workers), then with jobs 1 (this thread only). Wall and CPU (user +
 * system of the process, worker threads included) are printed for each, so a run on a shared
 * machine still gives same-run CPU ratios when wall times wait for a core.
 *
 * Second part, a submission as a leaderboard's looks (`synthetic-submission.ts` of the runtime's
 * tests): the same number of logs, django and pytest, 30–400 KB (about 130 KB on average), each
 * with its official `report.json` beside it, FAIL_TO_PASS + PASS_TO_PASS lists with a long tail
 * (most 10–60 tests, one in twenty over 300, up to 2,500), one instance in ten whose official lists
 * differ from sandkit's on a fifth of the tests and one in fifty on all of them, so that the
 * comparison with the official report (the "N test(s) in other lists" column and each test's
 * reason) is measured. Per round the same as above, plus a second baseline: reading every log and
 * the report.json beside it (all the submission's files). The slowest instance is read from
 * results.jsonl (`duration_ms`). Then the peak RSS of one `--jobs` run, in a fresh process
 * (`grade-throughput-rss.mjs`), of this submission and of a larger one
 * (`rssScale` instances of the same mix), to show that memory does not grow with the submission.
 * Goals (issue 29): ≤ 2× the reads, no instance over 0.5 s, 500 instances ≤ 15 s, peak RSS ≤ 300 MB.
 *
 * Run: `pnpm tsx bench/grade-throughput.ts [logs=500] [kilobytes=200] [jobs=CPU count] [rssScale=2000]`
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSubmission } from '../packages/runtime/test/eval/grade/synthetic-submission.js';

const count = Number(process.argv[2] ?? 500);
const kilobytes = Number(process.argv[3] ?? 200);
const jobs = Number(process.argv[4] ?? availableParallelism());
const rssScale = Number(process.argv[5] ?? 2000);
const rounds = 3;
const repo = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'bench-grade-'));
const logs = join(work, 'logs/run_evaluation/bench/model');

function log(seed: number): { text: string; f2p: string[]; p2p: string[] } {
  const lines = [
    '+ source /opt/miniconda3/bin/activate',
    '+ conda activate testbed',
    '+ cd /testbed',
    '+ git apply -v -',
    'Checking patch tests/test_requests.py...',
    'Applied patch tests/test_requests.py cleanly.',
    "+ : '>>>>> Start Test Output'",
    '+ pytest -rA tests/test_requests.py',
    '============================= test session starts ==============================',
  ];
  const ids: string[] = [];
  let size = lines.join('\n').length;
  const noise = `captured stdout line ${'x'.repeat(60)} seed ${seed}`;
  let i = 0;
  while (size < kilobytes * 1024 - 200) {
    const id = `tests/test_requests.py::TestRequests::test_case_${i}[/tmp/data/file-${i}.txt]`;
    ids.push(id);
    const line = i % 97 === 5 ? `FAILED ${id} - AssertionError: boom` : `PASSED ${id}`;
    lines.push(noise, line);
    size += line.length + noise.length + 2;
    i++;
  }
  lines.push(`=== ${i} passed in 12.34s ===`, "+ : '>>>>> End Test Output'");
  const official = (id: string) => id.replace(/\[\/tmp\/data\/(file-\d+\.txt)\]$/, '[/$1]');
  const passing = ids.filter((_, n) => n % 97 !== 5);
  return {
    text: `${lines.join('\n')}\n`,
    f2p: passing.slice(0, 20).map(official),
    p2p: passing.slice(20, 220).map(official),
  };
}

interface Timed {
  wallMs: number;
  cpuMs: number;
}
interface Graded extends Timed {
  threads: number;
  total: number;
  resolved: number;
  disagree: number;
  slowest: { id: string; ms: number };
}
interface Round {
  round: number;
  read: Timed & { bytes: number };
  readAll: Timed & { bytes: number };
  write: Timed;
  many: Graded;
  one: Graded;
}

const seconds = (ms: number): string => (ms / 1000).toFixed(2);
const ratio = (a: number, b: number): string => `${(a / b).toFixed(1)}×`;

try {
  const rows: string[] = [];
  for (let n = 0; n < count; n++) {
    const id = `psf__requests-${10_000 + n}`;
    const { text, f2p, p2p } = log(n);
    mkdirSync(join(logs, id), { recursive: true });
    writeFileSync(join(logs, id, 'test_output.txt'), text);
    writeFileSync(join(logs, id, 'patch.diff'), 'diff --git a/x b/x\n');
    rows.push(
      JSON.stringify({
        instance_id: id,
        repo: 'psf/requests',
        version: '2.0',
        base_commit: 'a'.repeat(40),
        patch: 'diff --git a/x b/x\n',
        test_patch: 'diff --git a/tests/test_requests.py b/tests/test_requests.py\n',
        FAIL_TO_PASS: JSON.stringify(f2p),
        PASS_TO_PASS: JSON.stringify(p2p),
      }),
    );
  }
  const dataset = join(work, 'dataset.jsonl');
  writeFileSync(dataset, `${rows.join('\n')}\n`);
  const tsc = join(repo, 'node_modules/.bin/tsc');
  execFileSync(tsc, ['-b', join(repo, 'packages/runtime/tsconfig.build.json')], { stdio: 'inherit' });
  const loadBefore = loadavg()[0] as number;
  const output = execFileSync(
    process.execPath,
    [
      join(repo, 'bench/grade-throughput-rounds.mjs'),
      work,
      String(rounds),
      String(jobs),
      'logs/run_evaluation/bench/model',
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const results = output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Round);
  const table: string[] = [];
  for (const { round, read, write, many, one } of results) {
    for (const graded of [many, one])
      if (graded.total !== count) throw new Error(`graded ${graded.total} of ${count}`);
    const row = (label: string, graded: Graded) =>
      `| ${round} | ${label} | ${graded.threads} (${graded.threads - 1}) | ${seconds(read.wallMs)} | ${seconds(graded.wallMs)} | ${ratio(graded.wallMs, read.wallMs)} | ${seconds(read.cpuMs)} | ${seconds(graded.cpuMs)} | ${ratio(graded.cpuMs, read.cpuMs)} | ${seconds(write.wallMs)} (CPU ${seconds(write.cpuMs)}) | ${graded.resolved} resolved |`;
    table.push(row(`jobs ${jobs}`, many), row('jobs 1', one));
  }
  process.stdout.write(
    [
      `grade-throughput, logs alone: runGrade (built package, plain node) vs reading the same logs (readFile, utf8); ${count} logs × ${(
        (results[0]?.read.bytes ?? 0) / count / 1024
      ).toFixed(0)} KB, ${rounds} rounds, ${availableParallelism()} CPUs`,
      '| round | sandkit grade | threads (workers) | read alone (s) | grade (s) | ratio | read CPU (s) | grade CPU (s) | CPU ratio | write alone (s) | verdicts |',
      '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
      ...table,
      `goal: ≤ 2× the reads and ≤ 30 s; 1-min load average ${loadBefore.toFixed(1)} before the rounds, ${loadavg()[0]?.toFixed(1)} after`,
      '',
    ].join('\n'),
  );
  officialReports();
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** The second part (see the module doc): a leaderboard-like submission with official reports beside the logs. */
function officialReports(): void {
  const dir = join(work, 'submission');
  const submission = writeSubmission(dir, count);
  const loadBefore = loadavg()[0] as number;
  const output = execFileSync(
    process.execPath,
    [
      join(repo, 'bench/grade-throughput-rounds.mjs'),
      dir,
      String(rounds),
      String(jobs),
      'logs/run_evaluation/synthetic/model',
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const results = output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Round);
  const table: string[] = [];
  for (const { round, read, readAll, many, one } of results) {
    for (const graded of [many, one])
      if (graded.total !== count) throw new Error(`graded ${graded.total} of ${count}`);
    const row = (label: string, graded: Graded) =>
      `| ${round} | ${label} | ${graded.threads} | ${seconds(read.wallMs)} / ${seconds(readAll.wallMs)} | ${seconds(graded.wallMs)} | ${ratio(graded.wallMs, read.wallMs)} / ${ratio(graded.wallMs, readAll.wallMs)} | ${seconds(read.cpuMs)} / ${seconds(readAll.cpuMs)} | ${seconds(graded.cpuMs)} | ${ratio(graded.cpuMs, read.cpuMs)} / ${ratio(graded.cpuMs, readAll.cpuMs)} | ${graded.slowest.ms} ms (${graded.slowest.id}) | ${graded.resolved} resolved, ${graded.disagree} differ |`;
    table.push(row(`jobs ${jobs}`, many), row('jobs 1', one));
  }
  const memory = (instances: number): { maxRssMiB: number; wallMs: number; total: number } => {
    const at = instances === count ? dir : join(work, `submission-${instances}`);
    if (at !== dir) writeSubmission(at, instances);
    const line = execFileSync(
      process.execPath,
      [join(repo, 'bench/grade-throughput-rss.mjs'), at, String(jobs), join(at, 'rss-out')],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (at !== dir) rmSync(at, { recursive: true, force: true });
    return JSON.parse(line) as { maxRssMiB: number; wallMs: number; total: number };
  };
  const rss = [count, ...(rssScale > count ? [rssScale] : [])].map((instances) => ({
    instances,
    ...memory(instances),
  }));
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  process.stdout.write(
    [
      `grade-throughput, official report.json beside each log: ${count} logs (${mb(submission.logBytes)} MB) + ${count} report.json (${mb(submission.reportBytes)} MB), ${rounds} rounds, ${availableParallelism()} CPUs; baselines: the logs read alone / the logs and their report.json read`,
      '| round | sandkit grade | threads | read (s) | grade (s) | ratio | read CPU (s) | grade CPU (s) | CPU ratio | slowest instance | verdicts |',
      '|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
      ...table,
      ...rss.map(
        (one) =>
          `peak RSS of one jobs ${jobs} run (fresh process): ${one.instances} instances, ${one.maxRssMiB.toFixed(0)} MiB (${seconds(one.wallMs)} s)`,
      ),
      `goals: ≤ 2× the reads, no instance over 0.5 s, ${count} instances ≤ 15 s, peak RSS ≤ 300 MB; 1-min load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]?.toFixed(1)} after`,
      '',
    ].join('\n'),
  );
}
