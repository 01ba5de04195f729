/**
 * `GradeOutputs`: `sandkit grade`'s run files (`results.jsonl`, `run_report.json`, `summary.md`),
 * written as the instances are graded instead of from every result held to the end, so that a
 * run's memory does not grow with the submission. Each result, as it comes (in any order), becomes
 * its `results.jsonl` line and its `summary.md` rows at once; these wait only until the results
 * before them have come (a few, those still being graded), then go to temp files in `--out`. What
 * stays per instance is its id, status and error kind (for the run report) and, with
 * `keepResults`, the result itself. `finish` writes the run report, the summary (its head, which
 * needs the counts, then the rows from their temp file) and renames the results into place.
 *
 * The rows are written twice, with and without the official report's column, because whether
 * the summary has that column is known only when every log is graded (a log has an official
 * report.json beside it); a row without it is short, so the copy costs little.
 * @module
 */
import { closeSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { InstanceResult } from '../instance/eval-result.js';
import type { RecordError } from '../load/read-records.js';
import {
  addToTally,
  buildRunReport,
  type OfficialTally,
  type ReportedResult,
  type RunReport,
  summaryHead,
  summaryRow,
  summaryTail,
} from '../report/run-report.js';

/** What {@link GradeOutputs.finish} needs besides the results. */
export interface GradeRunShape {
  /** Every instance id of the run, in the summary's order (graded ones, then the others). */
  instanceIds: readonly string[];
  submittedIds: readonly string[];
}

/** A result once it is text: what waits until the results before it have come. */
interface Placed {
  line: string;
  rowWith: string;
  rowWithout: string;
  reported: ReportedResult;
  problems: readonly RecordError[];
  result?: InstanceResult;
  official: InstanceResult['official'];
}

/** Streams the run files of one `sandkit grade` run into `out` (see the module doc). */
export class GradeOutputs {
  /** Results by id, as the run report reads them, in the order they were placed. */
  readonly reported = new Map<string, ReportedResult>();
  /** The results themselves, when kept (see the constructor). */
  readonly results = new Map<string, InstanceResult>();
  /** Ids whose official report.json disagrees with sandkit, in order. */
  readonly disagreements: string[] = [];
  /** The first error writing a file, thrown by {@link finish}. */
  private error: { error: unknown } | undefined;
  private readonly pending = new Map<number, Placed>();
  private next = 0;
  private tally: OfficialTally | null = null;
  private readonly files: Record<'results' | 'rowsWith' | 'rowsWithout', TempFile>;

  /**
   * @param out the run's `--out` directory (created at the first write)
   * @param invalidRecords where each result's problems go, in the results' order
   * @param keepResults keep every result in {@link results} (memory grows with the run)
   */
  constructor(
    private readonly out: string,
    private readonly invalidRecords: RecordError[],
    private readonly keepResults: boolean,
  ) {
    const temp = (name: string) => new TempFile(join(out, `${name}.tmp-${process.pid}`));
    this.files = {
      results: temp('results.jsonl'),
      rowsWith: temp('summary.md.rows'),
      rowsWithout: temp('summary.md.rows-plain'),
    };
  }

  /** The result of the run's `index`-th instance (0-based, each index once, in any order), with the problems found grading it. */
  place(index: number, result: InstanceResult, problems: readonly RecordError[]): void {
    this.pending.set(index, {
      line: `${JSON.stringify(result)}\n`,
      rowWith: summaryRow(result.instance_id, result, true, true),
      rowWithout: summaryRow(result.instance_id, result, true, false),
      reported: { instance_id: result.instance_id, status: result.status, error_kind: result.error_kind },
      problems,
      official: result.official,
      ...(this.keepResults ? { result } : {}),
    });
    for (let one = this.pending.get(this.next); one !== undefined; one = this.pending.get(this.next)) {
      this.pending.delete(this.next++);
      this.write(one);
    }
  }

  /** The next instance has no result (`not finished` when `submitted`, else `no prediction`); after every {@link place}d one before it. */
  placeMissing(id: string, submitted: boolean): void {
    this.next++;
    this.append('rowsWith', `${summaryRow(id, undefined, submitted, true)}\n`);
    this.append('rowsWithout', `${summaryRow(id, undefined, submitted, false)}\n`);
  }

  /** Whether `id` has a result. */
  has(id: string): boolean {
    return this.reported.has(id);
  }

  /**
   * Writes `run_report.json` and `summary.md` and moves `results.jsonl` into place; the temp files
   * are gone afterwards, whatever happens.
   * @throws the first error writing any of the run's files (a report.json passed to {@link fail} included)
   */
  finish(shape: GradeRunShape, title: string): RunReport {
    try {
      if (this.pending.size > 0)
        throw new Error(`GradeOutputs: ${this.pending.size} result(s) never placed in order`);
      if (this.error !== undefined) throw this.error.error;
      const report = buildRunReport({
        instanceIds: shape.instanceIds,
        submittedIds: shape.submittedIds,
        results: this.reported,
        invalidRecords: this.invalidRecords,
        interrupted: false,
      });
      this.ensureOut();
      const summary = new TempFile(join(this.out, `summary.md.tmp-${process.pid}`));
      try {
        summary.append(`${summaryHead(report, {}, title, this.tally).join('\n')}\n`);
        summary.copy(this.files[this.tally === null ? 'rowsWithout' : 'rowsWith']);
        const tail = summaryTail(report);
        if (tail.length > 0) summary.append(`${tail.join('\n')}\n`);
        this.files.results.close();
        renameSync(this.files.results.path, join(this.out, 'results.jsonl'));
        const reportTemp = new TempFile(join(this.out, `run_report.json.tmp-${process.pid}`));
        try {
          reportTemp.append(`${JSON.stringify(report, null, 4)}\n`);
          reportTemp.close();
          renameSync(reportTemp.path, join(this.out, 'run_report.json'));
        } finally {
          reportTemp.remove();
        }
        summary.close();
        renameSync(summary.path, join(this.out, 'summary.md'));
      } finally {
        summary.remove();
      }
      return report;
    } finally {
      this.discard();
    }
  }

  /** Records a failed write of another of the run's files (an instance's report.json): {@link finish} throws the first. */
  fail(error: unknown): void {
    this.error ??= { error };
  }

  /** Removes the temp files (idempotent). */
  discard(): void {
    for (const file of Object.values(this.files)) file.remove();
  }

  private write(one: Placed): void {
    this.reported.set(one.reported.instance_id, one.reported);
    if (one.result !== undefined) this.results.set(one.reported.instance_id, one.result);
    this.invalidRecords.push(...one.problems);
    if (one.official !== undefined) {
      this.tally = addToTally(this.tally, one);
      if (!one.official.agrees) this.disagreements.push(one.reported.instance_id);
    }
    this.append('results', one.line);
    this.append('rowsWith', `${one.rowWith}\n`);
    this.append('rowsWithout', `${one.rowWithout}\n`);
  }

  private append(file: keyof GradeOutputs['files'], text: string): void {
    if (this.error !== undefined) return;
    try {
      this.ensureOut();
      this.files[file].append(text);
    } catch (error) {
      this.fail(error);
    }
  }

  private outMade = false;
  private ensureOut(): void {
    if (this.outMade) return;
    mkdirSync(this.out, { recursive: true });
    this.outMade = true;
  }
}

/** Bytes gathered before one write: a write per line would be a system call per line. */
const chunkBytes = 64 * 1024;

/** A file written in order through a small buffer, created at its first byte (or when closed). */
class TempFile {
  private fd: number | undefined;
  private closed = false;
  private buffered: string[] = [];
  private bufferedLength = 0;

  constructor(readonly path: string) {}

  append(text: string): void {
    this.buffered.push(text);
    this.bufferedLength += text.length;
    if (this.bufferedLength >= chunkBytes) this.flush();
  }

  /** Appends the whole of `other`, which is closed first, read back in chunks. */
  copy(other: TempFile): void {
    other.close();
    this.flush();
    const from = openSync(other.path, 'r');
    try {
      const chunk = Buffer.allocUnsafe(chunkBytes);
      for (let read = readSync(from, chunk); read > 0; read = readSync(from, chunk))
        writeSync(this.descriptor(), chunk, 0, read);
    } finally {
      closeSync(from);
    }
  }

  /** Writes what is buffered and closes the file; nothing can be appended afterwards. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.flush();
    closeSync(this.descriptor());
    this.fd = undefined;
    this.closed = true;
  }

  /** Closes and removes the file, if it is still there. */
  remove(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.closed = true;
    rmSync(this.path, { force: true });
  }

  private flush(): void {
    if (this.bufferedLength === 0) return;
    const text = this.buffered.join('');
    this.buffered = [];
    this.bufferedLength = 0;
    writeSync(this.descriptor(), text);
  }

  private descriptor(): number {
    if (this.closed) throw new Error(`${this.path} is written and closed`);
    this.fd ??= openSync(this.path, 'w');
    return this.fd;
  }
}
