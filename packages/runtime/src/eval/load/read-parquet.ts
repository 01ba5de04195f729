/**
 * Reads a dataset as Hugging Face publishes it: a Parquet file (`data/test-00000-of-00001.parquet`
 * of `princeton-nlp/SWE-bench_Verified` and the like), one record per row, through hyparquet
 * (pure JavaScript, no native code; snappy built in). Values become plain JSON-like data: 64-bit
 * integers become numbers (or strings past 2^53), timestamps ISO strings.
 * @module
 */
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import type { RawRecord, ReadRecordsResult } from './read-records.js';

/** `true` when `bytes` start with Parquet's magic `PAR1`. */
export function isParquet(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x41 && bytes[2] === 0x52 && bytes[3] === 0x31;
}

/**
 * Every row of `file` as a raw record (`position` is `row N`, 0-based). A file that is not valid
 * Parquet is one error for the whole file, with how to fix it.
 */
export async function readParquetRecords(file: string): Promise<ReadRecordsResult> {
  let rows: Record<string, unknown>[];
  try {
    rows = await parquetReadObjects({ file: await asyncBufferFromFile(file) });
  } catch (error) {
    return {
      records: [],
      errors: [
        {
          file,
          position: 'the whole file',
          instanceId: null,
          field: null,
          message: `${file} is not a readable Parquet file (${(error as Error).message}); export the split as JSONL instead (datasets: .to_json("x.jsonl"))`,
        },
      ],
    };
  }
  const records: RawRecord[] = rows.map((row, index) => ({ position: `row ${index}`, value: plain(row) }));
  return { records, errors: [] };
}

function plain(value: unknown): unknown {
  if (typeof value === 'bigint')
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array))
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, plain(inner)]));
  return value;
}
