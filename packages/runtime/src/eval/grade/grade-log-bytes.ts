/**
 * `gradeLogBytes`: {@link gradeLog} of a log's UTF-8 bytes (as read from `test_output.txt`),
 * without ever making the whole log one string. V8 puts a string over 128 KiB in its large-object
 * space, whose memory it maps, faults in and unmaps for each one: for a pytest log of 200 KB that
 * cost more CPU than reading the file. So a pytest log (by far the most common, and the largest) is
 * searched as bytes for its markers and bad codes, and decoded and parsed in pieces of at most
 * {@link pieceBytes}, each ending at a line end. Other logs, and logs holding a `\r` or an ESC
 * (which the string path rewrites or strips across line ends), are decoded whole and graded by
 * {@link gradeLog}. Either way the result is that of `gradeLog(decodeUtf8(bytes), input)`.
 * @module
 */
import { startTestOutput } from '../instance/eval-markers.js';
import type { TestStatus } from '../instance/grade.js';
import { parsePytestStatusesOfPieces } from '../instance/parse-test-statuses.js';
import { decodeUtf8 } from '../load/decode-utf8.js';
import { type GradeLogInput, gradeLog, type LogGrade, locateTestOutput, logGrade } from './grade-log.js';
import { readsRunnerSummary } from './runner-summary-ids.js';

/**
 * Bytes decoded at once: a piece of non-ASCII text becomes a two-byte string of up to twice its
 * size, which must stay under V8's 128 KiB large-object size.
 */
const pieceBytes = 32 * 1024;

/** Grades the log whose bytes are `bytes` (see the module doc). Pure; never throws. */
export function gradeLogBytes(bytes: Buffer, input: GradeLogInput): LogGrade {
  if (!readsInPieces(bytes, input)) return gradeLog(decodeUtf8(bytes), input);
  const where = locateTestOutput(bytes);
  let full = new Map<string, TestStatus>();
  if (where.notEvaluatedReason === null) {
    full = parsePytestStatusesOfPieces(pieces(bytes, where.start + startTestOutput.length, where.end));
    if (full.size === 0) full = parsePytestStatusesOfPieces(pieces(bytes, 0, bytes.length));
  }
  const before = decodeUtf8(bytes.subarray(0, where.start < 0 ? bytes.length : where.start));
  return logGrade(where, { before, hadAnsi: false, parserMissing: false, full, summary: new Map() }, input);
}

/** Whether `bytes` can be graded in pieces: read by the pytest parser alone, and nothing to rewrite. */
function readsInPieces(bytes: Buffer, input: GradeLogInput): boolean {
  return (
    input.parser === 'pytest' &&
    !readsRunnerSummary(input.officialParser) &&
    bytes.indexOf(0x0d) < 0 &&
    bytes.indexOf(0x1b) < 0
  );
}

/**
 * The text of `bytes[start, end)` in consecutive pieces of at most {@link pieceBytes} (a longer
 * line makes one longer piece), each but the last ending with `\n`. A cut after a `\n` byte never
 * splits a UTF-8 sequence, so the pieces joined are the decoding of the whole range.
 */
function* pieces(bytes: Buffer, start: number, end: number): Generator<string> {
  let at = start;
  while (at < end) {
    let cut = end;
    if (end - at > pieceBytes) {
      const last = bytes.lastIndexOf(0x0a, at + pieceBytes - 1);
      const next = last >= at ? last : bytes.indexOf(0x0a, at + pieceBytes);
      if (next >= 0 && next < end) cut = next + 1;
    }
    yield decodeUtf8(bytes.subarray(at, cut));
    at = cut;
  }
}
