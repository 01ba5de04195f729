/**
 * The instance times of an earlier run, read from its `results.jsonl` (each line's `duration_ms`
 * less its `acquire_ms`: with more workers than sandboxes, the wait for one says where the
 * instance was in the queue, not how long it runs), for `--schedule longest-first`. SWE-bench instances' times are mostly their test runs, which do
 * not change between runs of the same dataset, whichever model wrote the patches.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/** What {@link readDurations} found. */
export interface PreviousDurations {
  /** `duration_ms − acquire_ms` (or `duration_ms` where `acquire_ms` is absent) by instance id (the last usable line of an id wins), in ms. */
  durations: Map<string, number>;
  /**
   * Lines not used (1-based line numbers with the reason): not a complete JSON record, no
   * `instance_id` or `duration_ms`, or an infrastructure error (`infra_error: true`), whose time
   * says how long the sandbox took to fail, not how long the instance runs.
   */
  ignored: Array<{ line: number; reason: string }>;
}

/**
 * Reads `file`, a `results.jsonl` written by `sandkit eval` (or any JSONL with `instance_id` and
 * `duration_ms` per line).
 * @throws SandkitError `invalid_option` when the file cannot be read.
 */
export async function readDurations(file: string): Promise<PreviousDurations> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `--durations ${file}: cannot read it (${(error as Error).message}); give a results.jsonl of an earlier run`,
      cause: error,
    });
  }
  const found: PreviousDurations = { durations: new Map(), ignored: [] };
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const parsed = parseLine(line);
    if (typeof parsed === 'string') found.ignored.push({ line: index + 1, reason: parsed });
    else found.durations.set(parsed.id, parsed.durationMs);
  });
  return found;
}

/** The id and duration of one line, or why the line is not used. */
function parseLine(line: string): { id: string; durationMs: number } | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not complete JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const record = value as {
    instance_id?: unknown;
    duration_ms?: unknown;
    acquire_ms?: unknown;
    infra_error?: unknown;
  };
  if (typeof record.instance_id !== 'string') return 'no instance_id';
  const durationMs = record.duration_ms;
  if (typeof durationMs !== 'number' || !Number.isFinite(durationMs) || durationMs < 0)
    return 'no duration_ms';
  if (record.infra_error === true) return 'an infrastructure error';
  const acquireMs = record.acquire_ms;
  const waited = typeof acquireMs === 'number' && Number.isFinite(acquireMs) ? Math.max(0, acquireMs) : 0;
  return { id: record.instance_id, durationMs: Math.max(0, durationMs - waited) };
}
