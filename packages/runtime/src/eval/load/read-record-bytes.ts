/**
 * `readRecordBytes`: {@link readRecords} of a record file's bytes, without decoding a JSON Lines
 * file into one string first: each line is decoded on its own (a dataset of 500 SWE-bench rows is
 * ~8 MB, which as one string is a V8 large object, decoded chunk by chunk by `fs.readFile` and
 * then split), so only line-sized strings are made.
 * @module
 */
import { decodeUtf8 } from './decode-utf8.js';
import { type ReadRecordsResult, readJsonLines, readRecords } from './read-records.js';

/**
 * The records of a file whose bytes are `bytes`: the same as `readRecords(text, file)` where
 * `text` is the file read as UTF-8 without its byte order mark. A file whose first byte that is
 * not ASCII white space is `[` (a JSON array) or not ASCII at all is decoded whole and read by
 * {@link readRecords}; otherwise it is JSON Lines, decoded and read line by line (a cut after a
 * `\n` byte never splits a UTF-8 sequence).
 */
export function readRecordBytes(bytes: Buffer, file: string): ReadRecordsResult {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  let first = 0;
  while (first < body.length && isAsciiSpace(body[first] as number)) first++;
  if (first < body.length && (body[first] === 0x5b /* [ */ || (body[first] as number) >= 0x80))
    return readRecords(decodeUtf8(body), file);
  return readJsonLines(lines(body), file);
}

/** The white space `String.prototype.trimStart` removes that is ASCII: tab, LF, VT, FF, CR, space. */
function isAsciiSpace(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

/** The text of `bytes` split at `\n`, as `text.split('\n')` splits it, one line decoded at a time. */
function* lines(bytes: Buffer): Generator<string> {
  let at = 0;
  for (;;) {
    const end = bytes.indexOf(0x0a, at);
    if (end < 0) break;
    yield decodeUtf8(bytes.subarray(at, end));
    at = end + 1;
  }
  yield decodeUtf8(bytes.subarray(at));
}
