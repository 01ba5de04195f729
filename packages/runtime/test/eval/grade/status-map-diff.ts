/**
 * The difference between an official status map and sandkit's, for the parser parity test and
 * `scripts/official-grading/compare.ts`.
 * @module
 */
import type { TestStatus } from '../../../src/eval/instance/grade.js';

/** `official-parsers/statuses.json`, as `scripts/official-grading/official-statuses.py` writes it. */
export interface OfficialStatusesFile {
  source: string;
  cases: Array<{
    log: string;
    repo: string;
    version: string;
    instance_id: string;
    /** `get_logs_eval`'s second value: false when the log was not evaluated. */
    found?: boolean;
    /** Index into `maps`; absent when the official parser raised (`error`). */
    statuses?: number;
    error?: string;
  }>;
  maps: Array<Record<string, string>>;
}

/** How two status maps differ. */
export interface StatusMapDiff {
  /** Ids only the official parser reports, with its status. */
  officialOnly: Record<string, string>;
  /** Ids only sandkit reports, with its status. */
  sandkitOnly: Record<string, string>;
  /** Ids both report with different statuses: `[official, sandkit]`. */
  different: Record<string, [string, string]>;
}

/** `null` when they agree; `official` `null` (the parser raised) differs from everything. */
export function diffStatusMaps(
  official: Record<string, string> | null,
  sandkit: ReadonlyMap<string, TestStatus>,
): StatusMapDiff | null {
  const diff: StatusMapDiff = { officialOnly: {}, sandkitOnly: {}, different: {} };
  const theirs = official ?? {};
  for (const [id, status] of Object.entries(theirs)) {
    const ours = sandkit.get(id);
    if (ours === undefined) diff.officialOnly[id] = status;
    else if (ours !== status) diff.different[id] = [status, ours];
  }
  for (const [id, status] of sandkit) if (!(id in theirs)) diff.sandkitOnly[id] = status;
  const empty =
    Object.keys(diff.officialOnly).length +
      Object.keys(diff.sandkitOnly).length +
      Object.keys(diff.different).length ===
    0;
  return empty && official !== null ? null : diff;
}

/**
 * Where grading would tell the two maps apart, id by id over the official map (a dataset list can
 * only name ids the official parser produced). A status "blocks" resolution as in `grading.py`:
 * FAILED, ERROR or absent from the map; SKIPPED is in neither list, so it does not. Under
 * FAIL_ONLY only FAILED blocks. `laxer`: official blocks, sandkit does not (sandkit could resolve
 * what the official grader does not); `stricter`: the other way round (sandkit is conservative).
 */
export function gradingDifferences(
  official: Record<string, string>,
  sandkit: ReadonlyMap<string, TestStatus>,
  failOnly: boolean,
): { laxer: string[]; stricter: string[] } {
  const blocks = (status: string | undefined): boolean =>
    failOnly ? status === 'FAILED' : status !== 'PASSED' && status !== 'XFAIL' && status !== 'SKIPPED';
  const laxer: string[] = [];
  const stricter: string[] = [];
  for (const [id, status] of Object.entries(official)) {
    const theirs = blocks(status);
    const ours = blocks(sandkit.get(id));
    if (theirs && !ours) laxer.push(id);
    if (ours && !theirs) stricter.push(id);
  }
  return { laxer: laxer.sort(), stricter: stricter.sort() };
}
