/**
 * Loads SWE-bench task instances from a JSON array, JSONL, or Hugging Face Parquet file (detected
 * by its `PAR1` magic, whatever the extension).
 * @module
 */
import { readFileSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { isParquet, readParquetRecords } from './read-parquet.js';
import { readRecordBytes } from './read-record-bytes.js';
import type { ReadRecordsResult, RecordError } from './read-records.js';
import {
  type SweBenchInstance,
  sweBenchGradeInstanceSchema,
  sweBenchInstanceSchema,
} from './swe-bench-instance.js';
import { validateRecords } from './validate-records.js';

/** What {@link loadInstances} found. */
export interface LoadedInstances {
  /**
   * Valid instances in file order. A row repeated whole counts once; an `instance_id` on rows that
   * differ drops all of them, each repeat reported in `errors`.
   */
  instances: SweBenchInstance[];
  /** Every record that could not be used, each naming its position, instance id and field. */
  errors: RecordError[];
}

/** What the loaded instances are for. */
export interface LoadInstancesOptions {
  /**
   * `'eval'` (the default) needs every field a run needs; `'grade'` accepts rows without `patch`
   * and `test_patch` ({@link sweBenchGradeInstanceSchema}), as re-grading reads neither.
   * @default 'eval'
   */
  purpose?: 'eval' | 'grade';
}

/**
 * Reads and validates instances. One bad record never stops the others.
 * @throws SandkitError `invalid_option` when the file cannot be read.
 */
export async function loadInstances(
  file: string,
  options: LoadInstancesOptions = {},
): Promise<LoadedInstances> {
  const schema = options.purpose === 'grade' ? sweBenchGradeInstanceSchema : sweBenchInstanceSchema;
  const read: ReadRecordsResult = (await startsWithParquetMagic(file))
    ? await readParquetRecords(file)
    : readRecordBytes(readBytes(file, 'dataset'), file);
  const { valid, errors } = validateRecords(read.records, schema, file);
  const first = new Map<string, { position: string; value: SweBenchInstance; text: string }>();
  const repeated = new Set<string>();
  for (const { position, value } of valid) {
    const text = JSON.stringify(value);
    const earlier = first.get(value.instance_id);
    if (earlier === undefined) {
      first.set(value.instance_id, { position, value, text });
      continue;
    }
    if (earlier.text === text) continue; // the same row twice: one row
    repeated.add(value.instance_id);
    errors.push({
      file,
      position,
      instanceId: value.instance_id,
      field: 'instance_id',
      message: `${file} ${position}: instance_id ${value.instance_id} appears more than once, with other fields than at ${earlier.position}; both rows are ignored: keep one of them`,
    });
  }
  const instances = [...first.values()].flatMap((row) =>
    repeated.has(row.value.instance_id) ? [] : [row.value],
  );
  return { instances, errors: [...read.errors, ...errors] };
}

async function startsWithParquetMagic(file: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(file, 'r');
    const head = new Uint8Array(4);
    await handle.read(head, 0, 4, 0);
    return isParquet(head);
  } catch {
    return false; // readBytes reports the unreadable file
  } finally {
    await handle?.close();
  }
}

/**
 * Reads a whole UTF-8 file without its byte order mark (U+FEFF, which Windows editors and
 * PowerShell write first and `JSON.parse` rejects), turning a missing file into a usage error.
 */
export async function readText(file: string, what: string): Promise<string> {
  try {
    const text = await readFile(file, 'utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (cause) {
    throw unreadableFile(file, what, cause);
  }
}

/**
 * Reads a whole file as bytes, synchronously (one read of a file the caller needs before anything
 * else), turning a missing or unreadable file into a usage error worded as {@link readText}'s.
 * @throws SandkitError `invalid_option` when the file cannot be read
 */
export function readBytes(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (cause) {
    throw unreadableFile(file, what, cause);
  }
}

/** The usage error for a dataset or predictions file that cannot be read. */
function unreadableFile(file: string, what: string, cause: unknown): SandkitError {
  return new SandkitError({
    code: SandkitErrorCode.invalidOption,
    message: `cannot read the ${what} file ${file}: ${(cause as Error).message}`,
    cause,
    details: { file },
  });
}
