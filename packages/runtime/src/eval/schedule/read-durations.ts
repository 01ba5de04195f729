/**
 * The instance times of an earlier run, read from its `results.jsonl`, for `--schedule
 * longest-first`: each line's `script_ms` (the evaluation script's run in the sandbox) when every
 * usable line has one, else `duration_ms` less `acquire_ms` (results.jsonl files written before
 * `script_ms` existed; with more workers than sandboxes, the wait for one says where the instance
 * was in the queue, not how long it runs). SWE-bench instances' times are mostly their test runs,
 * which do not change between runs of the same dataset, whichever model wrote the patches; the
 * script's own time leaves out what varies with the load (the create, the uploads, the host's
 * grading): in the scale simulation its spread around the instances' own test times was 0.3–0.4 s
 * against 1.2–1.8 s for `duration_ms − acquire_ms`.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/** What {@link readDurations} found. */
export interface PreviousDurations {
  /**
   * By instance id (the last usable line of an id wins), in ms: `script_ms` when every usable line
   * has it, else `duration_ms − acquire_ms` (or `duration_ms` where `acquire_ms` is absent).
   */
  durations: Map<string, number>;
  /** Which time `durations` holds. */
  measure: 'script_ms' | 'duration_ms - acquire_ms';
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
  const ignored: PreviousDurations['ignored'] = [];
  const usable: Array<{ id: string; durationMs: number; scriptMs: number | null }> = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const parsed = parseLine(line);
    if (typeof parsed === 'string') ignored.push({ line: index + 1, reason: parsed });
    else usable.push(parsed);
  });
  // one measure for every instance: mixing them would order some by a longer time than others
  const scripts = usable.length > 0 && usable.every((line) => line.scriptMs !== null);
  return {
    durations: new Map(
      usable.map((line) => [line.id, scripts ? (line.scriptMs as number) : line.durationMs]),
    ),
    measure: scripts ? 'script_ms' : 'duration_ms - acquire_ms',
    ignored,
  };
}

/** The id and times of one line, or why the line is not used. */
function parseLine(line: string): { id: string; durationMs: number; scriptMs: number | null } | string {
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
    script_ms?: unknown;
    infra_error?: unknown;
  };
  if (typeof record.instance_id !== 'string') return 'no instance_id';
  const durationMs = record.duration_ms;
  if (typeof durationMs !== 'number' || !Number.isFinite(durationMs) || durationMs < 0)
    return 'no duration_ms';
  if (record.infra_error === true) return 'an infrastructure error';
  const acquireMs = record.acquire_ms;
  const waited = typeof acquireMs === 'number' && Number.isFinite(acquireMs) ? Math.max(0, acquireMs) : 0;
  const script = record.script_ms;
  return {
    id: record.instance_id,
    durationMs: Math.max(0, durationMs - waited),
    scriptMs: typeof script === 'number' && Number.isFinite(script) && script >= 0 ? script : null,
  };
}
