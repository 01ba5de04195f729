/**
 * grade-throughput: `runGrade` (what `sandkit grade` runs) over N synthetic evaluation logs of
 * realistic size in the official layout, against reading the same files alone, in the same run.
 * Each log is a psf/requests-style pytest `-rA` run (official parser pytest_options): about
 * 1,200 status lines plus as many lines of captured output, ~200 KB, wrapped in the official trace and markers;
 * every row lists 20 FAIL_TO_PASS and 200 PASS_TO_PASS ids. Goal: grade ≤ 2× the reads and ≤ 30 s.
 * Wall and CPU (user + system of this process, libuv's threads included) are printed for both, so
 * a run on a shared machine still gives a same-run CPU ratio when wall times wait for a core.
 *
 * Run: `pnpm tsx bench/grade-throughput.ts [logs=500] [kilobytes=200]`
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGrade } from '../packages/runtime/src/eval/grade/run-grade.js';

const count = Number(process.argv[2] ?? 500);
const kilobytes = Number(process.argv[3] ?? 200);
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

/** User + system CPU seconds of a `process.cpuUsage()` difference (all threads of this process). */
const cpuSeconds = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1e6;

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
  const dirs = readdirSync(logs);
  const results: string[] = [];
  for (let round = 0; round < 3; round++) {
    let started = performance.now();
    let cpu = process.cpuUsage();
    let bytes = 0;
    for (const id of dirs) bytes += (await readFile(join(logs, id, 'test_output.txt'), 'utf8')).length;
    const read = performance.now() - started;
    const readCpu = cpuSeconds(process.cpuUsage(cpu));
    started = performance.now();
    cpu = process.cpuUsage();
    const run = await runGrade({ dataset, logs: join(work, 'logs'), out: join(work, `out-${round}`) });
    const grade = performance.now() - started;
    const gradeCpu = cpuSeconds(process.cpuUsage(cpu));
    if (run.report.total_instances !== count)
      throw new Error(`graded ${run.report.total_instances} of ${count}`);
    results.push(
      `| ${round + 1} | ${count} × ${(bytes / count / 1024).toFixed(0)} KB | ${(read / 1000).toFixed(2)} | ${(grade / 1000).toFixed(2)} | ${(grade / read).toFixed(1)}× | ${readCpu.toFixed(2)} | ${gradeCpu.toFixed(2)} | ${(gradeCpu / readCpu).toFixed(1)}× | ${run.report.resolved_instances} resolved |`,
    );
  }
  process.stdout.write(
    [
      'grade-throughput: runGrade vs reading the same logs (readFile, utf8), 3 rounds',
      '| round | logs | read alone (s) | sandkit grade (s) | ratio | read CPU (s) | grade CPU (s) | CPU ratio | verdicts |',
      '|---:|---|---:|---:|---:|---:|---:|---:|---|',
      ...results,
      `goal: ≤ 2× the reads and ≤ 30 s; 1-min load average at the end ${loadavg()[0]?.toFixed(1)}`,
      '',
    ].join('\n'),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
