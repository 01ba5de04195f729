/**
 * `sandkit view DIR [DIR_B] [--out report.html]`: one self-contained HTML file for the output
 * directory of `sandkit eval`, `sandkit grade` or `sandkit run`, or for two compared.
 *
 * Exit codes: 0 written, 1 failure (cannot write), 2 usage error (not such a directory).
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { Command } from 'commander';
import { displayPath, writeViewReport } from '../view/write-view-report.js';

/** Exit codes of `sandkit view`. */
export const viewExitCode = { completed: 0, failed: 1, usage: 2 } as const;

const help = `
Examples:
  # the report of an eval (also printed by sandkit eval at its end): opens from disk, no server
  sandkit view sandkit-eval/wrong

  # one instance: a stable link per instance
  #   sandkit-eval/wrong/report.html#sandkit-mini__ledger-1

  # two runs side by side: which instances changed verdict, both ways
  sandkit view sandkit-eval/gold sandkit-eval/wrong --out compare.html

What it shows: totals by status, the resolved rate with and without infrastructure errors, by
repository and by exit status; agent runs' cost, tokens and steps as charts; a table of the
instances with a filter box and sorting; per instance its verdict and why, FAIL_TO_PASS and
PASS_TO_PASS with each test's status (missing: named in the dataset, absent from the log), the
patch as a diff with the step of the patch chain that applied it, the test output with the lines
that decided each test highlighted, the official report.json's agreement (sandkit grade), and the
trajectory (sandkit run). Logs are cut to windows around those lines; the whole log is linked when
it sits in the report's directory.
Exit codes: 0 written, 1 failure, 2 usage error.
`;

/**
 * Adds the `view` command to `program` (commander 14).
 * @returns the `view` command.
 */
export function registerViewCommand(program: Command): Command {
  return program
    .command('view')
    .summary('write one self-contained HTML report of an eval, grade or run directory')
    .description(
      'Write one HTML file (no server, no network) showing an output directory of sandkit eval, sandkit grade or sandkit run; with two directories, compare them.',
    )
    .argument('<dir>', 'output directory of sandkit eval, grade or run')
    .argument('[dir_b]', 'a second output directory to compare with the first')
    .option('--out <file>', 'the HTML file (default DIR/report.html; compare.html beside both runs for two)')
    .addHelpText('after', help)
    .exitOverride((error) => {
      process.exit(error.exitCode === 0 ? 0 : viewExitCode.usage);
    })
    .action(async (dir: string, dirB: string | undefined, options: { out?: string }) => {
      try {
        const report = await writeViewReport({
          dirs: dirB === undefined ? [dir] : [dir, dirB],
          ...(options.out === undefined ? {} : { out: options.out }),
        });
        process.stdout.write(`${displayPath(report.file)}\n`);
        process.exitCode = viewExitCode.completed;
      } catch (error) {
        const usage = SandkitError.isInstance(error) && error.code === SandkitErrorCode.invalidOption;
        process.stderr.write(`sandkit view: ${(error as Error).message}\n`);
        process.exitCode = usage ? viewExitCode.usage : viewExitCode.failed;
      }
    });
}
