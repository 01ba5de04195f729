/**
 * The end of `sandkit eval`, `grade` and `run`: writes the `sandkit view` report of the output
 * directory (or directories) and prints its path under the summary. `--no-view` skips it. A report
 * that cannot be written is said on stderr and leaves the command's exit code alone: the run's
 * results are written and whole.
 * @module
 */
import { displayPath, writeViewReport } from '../view/write-view-report.js';

/** One report: its directories (two: a comparison) and what to call it. */
export interface ReportRequest {
  dirs: string[];
  label?: string;
}

/**
 * Writes each report and prints `Report: <path>` (or a list for several) to `stdout`.
 * @param command the command's name for the stderr line (`sandkit eval`)
 */
export async function printReports(
  requests: readonly ReportRequest[],
  command: string,
  stdout: (text: string) => void,
): Promise<void> {
  const lines: string[] = [];
  for (const request of requests) {
    try {
      const report = await writeViewReport({ dirs: request.dirs });
      lines.push(`${displayPath(report.file)}${request.label === undefined ? '' : ` (${request.label})`}`);
    } catch (error) {
      process.stderr.write(
        `${command}: the HTML report of ${request.dirs.join(' and ')} was not written: ${(error as Error).message}\n`,
      );
    }
  }
  if (lines.length === 1) stdout(`\nReport: ${lines[0]}\n`);
  else if (lines.length > 1)
    stdout(`\nReports (open in a browser):\n${lines.map((line) => `  ${line}\n`).join('')}`);
}
