/**
 * Parser for what GNU patch 2.7 prints (stdout, with `--quoting-style=literal`): a
 * `checking file NAME` (dry run) or `patching file NAME` line per file, then one line per hunk
 * that did not apply exactly: `Hunk #N succeeded at L [with fuzz F] [(offset O lines)].`,
 * `Hunk #N FAILED at L [(different line endings)].`, `Hunk #N ignored at L.`, plus whole-file
 * notices (`Reversed (or previously applied) patch detected!  Skipping patch.`,
 * `can't find file to patch`, `… which already exists!`). Hunks not mentioned applied exactly.
 * @module
 */

/** What patch said about one hunk that did not apply exactly where the header said. */
export interface PatchHunkReport {
  /** 1-based hunk number within the file. */
  hunk: number;
  /** `succeeded` with fuzz or offset, `failed`, or `ignored` (skipped with the file). */
  outcome: 'succeeded' | 'failed' | 'ignored';
  /** 1-based line where patch applied or tried the hunk. */
  line: number;
  /** Context lines patch ignored at each end (0 when exact). */
  fuzz: number;
  /** Lines between where the header said and where the hunk applied. */
  offset: number;
  /** Extra note patch printed, such as `different line endings`. */
  note?: string;
}

/** One file section of patch's output. */
export interface PatchFileReport {
  /** The name patch printed (after `-p` stripping), or `undefined` when patch found no file. */
  path: string | undefined;
  /** Hunks patch reported on (the others applied exactly). */
  hunks: PatchHunkReport[];
  /** Whole-file notices (reversed patch, missing file, existing file, not a regular file). */
  notices: string[];
}

const fileLine = /^(?:checking|patching) file (.*?)(?: \(renamed from .*\)| \(copied from .*\))?$/;
const hunkLine =
  /^Hunk #(\d+) (succeeded|FAILED|ignored) at (\d+)(?: with fuzz (\d+))?(?: \(offset (-?\d+) lines?\))?(?: \(([^)]*)\))?\.$/;
const fileNotice =
  /^(can't find file to patch|Reversed \(or previously applied\) patch detected|The next patch would|File .* is not a regular file|patch: \*\*\*\*)/;

/** Parses patch's stdout (and stderr appended after it). Unknown lines are ignored. Never throws. */
export function parsePatchOutput(text: string): PatchFileReport[] {
  const files: PatchFileReport[] = [];
  let current: PatchFileReport | undefined;
  for (const line of text.split('\n')) {
    const file = fileLine.exec(line);
    if (file) {
      // a notice printed before the file line (missing file) belongs to a section without a name
      if (current && current.path === undefined && current.hunks.length === 0) current.path = file[1];
      else {
        current = { path: file[1], hunks: [], notices: [] };
        files.push(current);
      }
      continue;
    }
    const hunk = hunkLine.exec(line);
    if (hunk) {
      current ??= pushSection(files);
      current.hunks.push({
        hunk: Number(hunk[1]),
        outcome: hunk[2] === 'FAILED' ? 'failed' : hunk[2] === 'ignored' ? 'ignored' : 'succeeded',
        line: Number(hunk[3]),
        fuzz: hunk[4] === undefined ? 0 : Number(hunk[4]),
        offset: hunk[5] === undefined ? 0 : Number(hunk[5]),
        ...(hunk[6] === undefined ? {} : { note: hunk[6] }),
      });
      continue;
    }
    if (fileNotice.test(line)) {
      if (line.startsWith("can't find file") || !current) current = pushSection(files);
      current.notices.push(line.trim());
    }
  }
  return files;
}

function pushSection(files: PatchFileReport[]): PatchFileReport {
  const section: PatchFileReport = { path: undefined, hunks: [], notices: [] };
  files.push(section);
  return section;
}
