/**
 * `sandkit grade`: re-grades evaluation logs that already exist (an official SWE-bench run's
 * `logs/run_evaluation/<run_id>/<model>/<instance_id>/test_output.txt`, or a `sandkit eval --out`),
 * as `sandkit eval` grades, and compares with the official `report.json` beside each log.
 *
 * Exit codes: 0 graded (whatever the verdicts and agreements), 1 failure, 2 usage error.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { Command } from 'commander';
import { runGrade } from '../eval/grade/run-grade.js';
import { positiveInteger } from './positive-integer.js';
import { printReports } from './print-reports.js';

/** Exit codes of `sandkit grade`. */
export const gradeExitCode = { completed: 0, failed: 1, usage: 2 } as const;

interface GradeCliOptions {
  dataset: string;
  logs: string;
  predictions?: string;
  out: string;
  overwrite?: boolean;
  jobs?: number;
  json?: boolean;
  view: boolean;
}

const help = `
Examples:
  # audit an official run: sandkit's verdict next to the official report.json of each instance
  sandkit grade --dataset verified.jsonl --logs logs/run_evaluation/my_run --out out/regrade

  # re-grade a sandkit eval output
  sandkit grade --dataset instances.jsonl --logs out/run1/instances --out out/run1-regraded

  # grade in this thread only (no worker threads)
  sandkit grade --dataset verified.jsonl --logs logs/run_evaluation/my_run --out out/regrade --jobs 1

Files written to --out: results.jsonl, run_report.json, summary.md (with an "official report"
column when report.json files were found), instances/<id>/report.json, and report.html (the HTML
report, see sandkit view; its path is printed at the end; --no-view: none).
An --out that already holds a run's outputs (instances/, results.jsonl, run_report.json, summary.md,
from grade or eval) is refused (exit 2, nothing written): give a new --out, or --overwrite, which
removes those four there (nothing else) before grading.
The "patch applied with" column is filled only from sandkit eval's own report.json beside a log
(patch_applied_with); official logs do not record it, so it is blank there.
When --logs holds several logs of one instance (e.g. gold/ and wrong/ of an --example run), the
first by path is graded (gold/ before wrong/); the others are listed in invalid_records.
What grade notices beside a log is in that row's note (grade_notes in results.jsonl), and a file it
cannot use also in run_report.json's invalid_records: an official report.json that is not JSON or
has no entry for the instance, a test_output.txt that is a directory, a file or directory it
cannot read (permissions; a log over 512 MiB), a prediction with no dataset row, a repository
outside the spec table graded with the fallback parser. sandkit eval's own report.json files are recognised
(eval.log beside them) and never called official.
--jobs N grades N logs at once: this thread and N - 1 worker threads, each reading, parsing and
grading whole logs (default: the CPU count; a run starts at most one thread per 8 logs). The files
written are the same for every N.
Exit codes: 0 graded (whatever the verdicts), 1 failure, 2 usage error.
`;

/**
 * Adds the `grade` command to `program` (commander 14).
 * @returns the `grade` command.
 */
export function registerGradeCommand(program: Command): Command {
  return program
    .command('grade')
    .summary('re-grade existing evaluation logs (official layout) without sandboxes')
    .description(
      "Grade existing test logs (<instance_id>/test_output.txt at any depth under --logs) against the dataset, with each repository's parser and the official test-id form; where an official report.json sits beside a log, say whether sandkit agrees and why not.",
    )
    .requiredOption('--dataset <file>', 'instances: SWE-bench JSON array, JSONL, or Hugging Face parquet')
    .requiredOption('--logs <dir>', 'directory of logs, e.g. logs/run_evaluation/<run_id>')
    .option(
      '--predictions <file>',
      'predictions (for patch_is_None / empty patches); default: patch.diff beside each log',
    )
    .option(
      '--out <dir>',
      'output directory (one holding an earlier run is refused; see --overwrite)',
      'sandkit-grade',
    )
    .option(
      '--overwrite',
      "remove an earlier run's instances/, results.jsonl, run_report.json and summary.md from --out before grading",
    )
    .option(
      '--jobs <n>',
      'logs graded at once, on this thread and n - 1 worker threads (default: CPU count)',
      positiveInteger,
    )
    .option('--json', 'print the run report as JSON instead of the summary')
    .option('--no-view', 'do not write the HTML report (OUT/report.html, see sandkit view)')
    .addHelpText('after', help)
    .exitOverride((error) => {
      process.exit(error.exitCode === 0 ? 0 : gradeExitCode.usage);
    })
    .action(async (options: GradeCliOptions) => {
      process.exitCode = await gradeAction(options);
    });
}

async function gradeAction(options: GradeCliOptions): Promise<number> {
  try {
    const run = await runGrade({
      dataset: options.dataset,
      logs: options.logs,
      out: options.out,
      overwrite: options.overwrite ?? false,
      // The summary and report are read from the files: no result is held, whatever the submission's size.
      keepResults: false,
      ...(options.predictions === undefined ? {} : { predictions: options.predictions }),
      ...(options.jobs === undefined ? {} : { jobs: options.jobs }),
    });
    if (options.json) process.stdout.write(`${JSON.stringify(run.report, null, 2)}\n`);
    else process.stdout.write(await readFile(join(run.out, 'summary.md'), 'utf8'));
    if (options.view)
      await printReports([{ dirs: [run.out] }], 'sandkit grade', (text) =>
        (options.json ? process.stderr : process.stdout).write(text),
      );
    return gradeExitCode.completed;
  } catch (error) {
    const usage = SandkitError.isInstance(error) && error.code === SandkitErrorCode.invalidOption;
    process.stderr.write(`sandkit grade: ${(error as Error).message}\n`);
    return usage ? gradeExitCode.usage : gradeExitCode.failed;
  }
}
