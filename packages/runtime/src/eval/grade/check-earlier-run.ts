/**
 * `checkEarlierRun`: whether `sandkit grade`'s `--out` already holds an earlier grade or eval run,
 * which grading into it would silently mix with this one (its `instances/<id>/` directories next to
 * a `results.jsonl` of this run only). Such an `--out` is refused unless `overwrite` is given; then
 * only what `grade` and `eval` write there is removed, never other files.
 * @module
 */
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/** What `sandkit grade` and `sandkit eval` write in `--out`, and all that `--overwrite` removes. */
export const runOutputNames = ['instances', 'results.jsonl', 'run_report.json', 'summary.md'] as const;

/**
 * Checks `out` (an absolute path) for an earlier run's outputs ({@link runOutputNames}).
 * @param logDirs the directories of the logs to grade: none may be inside what `overwrite` removes
 * @returns the absolute paths `overwrite` removes before grading (empty when `out` holds none of them)
 * @throws SandkitError `invalid_option` when `out` holds any of them and `overwrite` is `false`
 *   (the message says: a new `--out`, or `--overwrite`), or when `overwrite` would remove a log
 *   being graded (a new `--out`)
 */
export function checkEarlierRun(out: string, logDirs: readonly string[], overwrite: boolean): string[] {
  const found = runOutputNames.map((name) => join(out, name)).filter((path) => existsSync(path));
  if (found.length === 0) return [];
  const names = found.map((path) => (path.endsWith('instances') ? 'instances/' : relative(out, path)));
  if (!overwrite)
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `--out ${out} already holds an earlier run's outputs (${names.join(', ')}); grading into it would mix the two runs: give a new --out, or pass --overwrite to remove instances/, results.jsonl, run_report.json and summary.md there first`,
      details: { out, found },
    });
  const doomed = logDirs.find((dir) => found.some((path) => dir === path || dir.startsWith(path + sep)));
  if (doomed !== undefined)
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `--overwrite would remove ${names.join(', ')} from --out ${out}, and the logs being graded are there (${doomed}): give a new --out`,
      details: { out, found },
    });
  return found;
}
