// Peak memory of one `sandkit grade` run, for bench/grade-throughput.ts: runs runGrade from the
// built package under plain node, in this fresh process (so that nothing else has raised its
// peak), as the CLI does (keepResults false), and prints one JSON line: the peak RSS of the
// process (worker threads included: they share it), wall ms and the instances graded.
// Arguments: the work dir (dataset.jsonl, logs/), jobs, the output dir.
import { join } from 'node:path';
import { runGrade } from '../packages/runtime/dist/index.js';

const [work, jobs, out] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
const started = performance.now();
const run = await runGrade({
  dataset: join(work, 'dataset.jsonl'),
  logs: join(work, 'logs'),
  out,
  jobs,
  keepResults: false,
});
process.stdout.write(
  `${JSON.stringify({
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    wallMs: performance.now() - started,
    total: run.report.total_instances,
  })}\n`,
);
