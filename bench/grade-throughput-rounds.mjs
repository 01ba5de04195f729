// The measuring half of bench/grade-throughput.ts, run by it under plain node (no tsx, no
// @sandkit/source condition), so that runGrade and its worker threads run from the built package
// as `sandkit grade` does. Arguments: the work dir (dataset.jsonl, logs/), rounds, jobs, and the
// directory of the instance directories below the work dir. Each round reads every log alone
// (readFile, utf8, one after another), then every log and the report.json beside it (the
// submission's files; a log without one reads the log alone), writes alone what grade writes per
// log (a directory and a report.json of the bench's size, as runGrade does: all at once through
// fs/promises; context: creating files costs what the file system makes it cost), then runs
// runGrade with `jobs` and with jobs 1, as `sandkit grade` does (keepResults false). Prints one
// JSON line per round: wall ms and CPU ms (user + system of the whole process, worker threads
// included) of each, the threads runGrade used, its verdict counts and its slowest instance (from
// results.jsonl).
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runGrade } from '../packages/runtime/dist/index.js';

const [work, rounds, jobs, below] = [
  process.argv[2],
  Number(process.argv[3]),
  Number(process.argv[4]),
  process.argv[5],
];
const logs = join(work, below);
const dirs = readdirSync(logs);

/** `fn`'s wall and CPU milliseconds, and what it returned. */
async function measure(fn) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000, value };
}

/** The longest `duration_ms` in a run's results.jsonl, with its instance. */
function slowest(out) {
  let worst = { id: '', ms: 0 };
  for (const line of readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n')) {
    if (line === '') continue;
    const { instance_id, duration_ms } = JSON.parse(line);
    if (duration_ms >= worst.ms) worst = { id: instance_id, ms: duration_ms };
  }
  return worst;
}

for (let round = 0; round < rounds; round++) {
  const read = await measure(async () => {
    let bytes = 0;
    for (const id of dirs) bytes += (await readFile(join(logs, id, 'test_output.txt'), 'utf8')).length;
    return bytes;
  });
  const readAll = await measure(async () => {
    let bytes = 0;
    for (const id of dirs) {
      bytes += (await readFile(join(logs, id, 'test_output.txt'), 'utf8')).length;
      bytes += (await readFile(join(logs, id, 'report.json'), 'utf8').catch(() => '')).length;
    }
    return bytes;
  });
  const report = 'x'.repeat(25_000);
  const write = await measure(() =>
    Promise.all(
      dirs.map(async (id) => {
        await mkdir(join(work, `written-${round}`, id), { recursive: true });
        await writeFile(join(work, `written-${round}`, id, 'report.json'), report);
      }),
    ),
  );
  const grade = (n) => () =>
    runGrade({
      dataset: join(work, 'dataset.jsonl'),
      logs: join(work, 'logs'),
      out: join(work, `out-${round}-${n}`),
      jobs: n,
      keepResults: false,
    });
  const many = await measure(grade(jobs));
  const one = await measure(grade(1));
  const summary = ({ wallMs, cpuMs, value }, n) => ({
    wallMs,
    cpuMs,
    threads: value.threads,
    total: value.report.total_instances,
    resolved: value.report.resolved_instances,
    disagree: value.disagreements.length,
    slowest: slowest(join(work, `out-${round}-${n}`)),
  });
  process.stdout.write(
    `${JSON.stringify({
      round: round + 1,
      read: { wallMs: read.wallMs, cpuMs: read.cpuMs, bytes: read.value },
      readAll: { wallMs: readAll.wallMs, cpuMs: readAll.cpuMs, bytes: readAll.value },
      write: { wallMs: write.wallMs, cpuMs: write.cpuMs },
      many: summary(many, jobs),
      one: summary(one, 1),
    })}\n`,
  );
}
