/**
 * Reads SWE-bench-style record files: a JSON array (`[{…}, {…}]`) or JSON Lines (one object per
 * line). A JSONL line that is not valid JSON becomes an error for that line; the other lines are
 * still returned. Every error message names the file and the line (and column, for a JSON array).
 * @module
 */

/** One raw record and where it came from. */
export interface RawRecord {
  /** Where the record is: `line 3` (JSONL, 1-based) or `index 2` (JSON array, 0-based). */
  position: string;
  value: unknown;
}

/** A record that could not be read or did not validate. */
export interface RecordError {
  /** The file it came from. */
  file: string;
  /** `line N` or `index N`, see {@link RawRecord.position}. */
  position: string;
  /** The record's `instance_id` when it could be read, else `null`. */
  instanceId: string | null;
  /** The offending field (dotted path), or `null` for the record as a whole. */
  field: string | null;
  message: string;
}

/** Both halves of a read. */
export interface ReadRecordsResult {
  records: RawRecord[];
  errors: RecordError[];
}

/**
 * Splits `text` into raw records. A text whose first non-blank character is `[` is parsed as one
 * JSON array (a syntax error there is one error for the whole file); otherwise each non-blank line
 * is one JSON value.
 */
export function readRecords(text: string, file: string): ReadRecordsResult {
  const records: RawRecord[] = [];
  const errors: RecordError[] = [];
  const fail = (position: string, message: string): void => {
    errors.push({ file, position, instanceId: null, field: null, message });
  };
  if (text.trimStart().startsWith('[')) {
    try {
      const values = JSON.parse(text) as unknown[];
      values.forEach((value, index) => {
        records.push({ position: `index ${index}`, value });
      });
    } catch (error) {
      const where = lineAndColumn(text, (error as Error).message);
      fail(
        where === null ? 'the whole file' : `line ${where.line}`,
        `${file}${where === null ? '' : ` line ${where.line} column ${where.column}`}: not a valid JSON array (${(error as Error).message}); fix the JSON there, or write one object per line (JSON Lines)`,
      );
    }
    return { records, errors };
  }
  return readJsonLines(text.split('\n'), file);
}

/**
 * The records of JSON Lines given line by line (`lines`: the text split at `\n`): each non-blank
 * line is one JSON value; a line that is not valid JSON becomes an error naming its number.
 */
export function readJsonLines(lines: Iterable<string>, file: string): ReadRecordsResult {
  const records: RawRecord[] = [];
  const errors: RecordError[] = [];
  let index = -1;
  for (const line of lines) {
    index++;
    if (line.trim() === '') continue;
    try {
      records.push({ position: `line ${index + 1}`, value: JSON.parse(line) });
    } catch (error) {
      errors.push({
        file,
        position: `line ${index + 1}`,
        instanceId: instanceIdInText(line),
        field: null,
        message: `${file} line ${index + 1}: not valid JSON (${(error as Error).message}); in JSON Lines each line is one whole JSON object: fix that line (is it cut short, or one object spread over several lines?) or remove it`,
      });
    }
  }
  return { records, errors };
}

/**
 * The 1-based line and column of a `JSON.parse` error: its `at position N` (a UTF-16 offset), or
 * the end of the text for "Unexpected end of JSON input"; `null` otherwise.
 */
function lineAndColumn(text: string, message: string): { line: number; column: number } | null {
  const match = /at position (\d+)/.exec(message);
  const offset =
    match === null ? (/end of JSON input/.test(message) ? text.trimEnd().length : null) : Number(match[1]);
  if (offset === null) return null;
  const before = text.slice(0, offset);
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1) ?? '').length + 1 };
}

/** The `instance_id` of a raw value, when it has a string one. */
export function peekInstanceId(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as Record<string, unknown>).instance_id;
  return typeof id === 'string' ? id : null;
}

/**
 * The `instance_id` written in a line that is not valid JSON (cut short, say), when its text holds
 * one whole `"instance_id": "…"` pair with a valid id; else `null`. The row exists, so a run can
 * still count it.
 */
export function instanceIdInText(text: string): string | null {
  const match = /"instance_id"\s*:\s*"([A-Za-z0-9][A-Za-z0-9._+@-]{0,199})"/.exec(text);
  return match?.[1] ?? null;
}
