/**
 * `results.jsonl`: one whole JSON line per finished instance, appended and flushed to disk
 * (`fsync`) as each instance finishes, so a run killed at any moment loses at most the line being
 * written. On resume the file is read back leniently (C18): a line that is not a complete record
 * (cut off by a kill) is reported and ignored, errored instances are dropped so they run again,
 * and the file is rewritten atomically (temp file + rename) with the records kept, once `runEval`
 * has checked they were made from this run's inputs (`resume-inputs.ts`).
 * @module
 */
import { open, readFile, rename, writeFile } from 'node:fs/promises';
import type { InstanceResult } from '../instance/eval-result.js';

/** What {@link readResultsForResume} kept and dropped. */
export interface ResumeState {
  /** Finished instances kept (resolved, unresolved, empty patch), by id; the last line for an id wins. */
  kept: Map<string, InstanceResult>;
  /** Ids whose last record was an error: they run again. */
  errored: string[];
  /** Lines that were not complete records (1-based line numbers with the reason). */
  partialLines: Array<{ line: number; reason: string }>;
}

/**
 * Reads `file` for `--resume`, changing nothing: the caller checks the kept records against this
 * run's inputs, then rewrites the file with those it keeps ({@link rewriteResults}). A missing
 * file is an empty state.
 */
export async function readResultsForResume(file: string): Promise<ResumeState> {
  const state: ResumeState = { kept: new Map(), errored: [], partialLines: [] };
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return state;
    throw error;
  }
  const last = new Map<string, InstanceResult>();
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const record = parseRecord(line);
    if (typeof record === 'string') state.partialLines.push({ line: index + 1, reason: record });
    else last.set(record.instance_id, record);
  });
  for (const [id, record] of last) {
    if (record.status === 'error') state.errored.push(id);
    else state.kept.set(id, record);
  }
  return state;
}

/** Replaces `file` atomically with `records`, one per line. */
export async function rewriteResults(file: string, records: readonly InstanceResult[]): Promise<void> {
  const temp = `${file}.tmp-${process.pid}`;
  await writeFile(temp, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  await rename(temp, file);
}

/** Appends one record as one whole line and flushes it to disk. */
export async function appendResult(file: string, record: InstanceResult): Promise<void> {
  const handle = await open(file, 'a');
  try {
    await handle.write(`${JSON.stringify(record)}\n`);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

const statuses = new Set(['resolved', 'unresolved', 'error', 'empty_patch']);

/** A record, or the reason the line is not one. */
function parseRecord(line: string): InstanceResult | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not complete JSON (cut off while writing?)';
  }
  const record = value as Partial<InstanceResult> | null;
  if (typeof record !== 'object' || record === null || typeof record.instance_id !== 'string') {
    return 'no instance_id';
  }
  if (typeof record.status !== 'string' || !statuses.has(record.status))
    return `unknown status ${String(record.status)}`;
  return record as InstanceResult;
}
