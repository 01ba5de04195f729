/**
 * Writes a file under `--out` whole or not at all: the text goes to `<file>.tmp-<pid>-<n>`, which
 * is renamed over `file`. A failed write removes its temp file and becomes the one-line
 * `output_not_written` error of {@link outputWriteError} (a full disk names the free space). Shared
 * by `sandkit eval` (run_report.json, summary.md) and `sandkit run` (run.json, summary.md,
 * trajectories, preds.json), so a killed run never leaves a half-written report.
 * @module
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import { outputWriteError } from './output-write-error.js';

let tempCounter = 0;

/**
 * Replaces `file` with `text` atomically (same directory, so the rename never crosses file systems).
 * @throws SandkitError `output_not_written` when the temp file cannot be written or renamed; the
 *   temp file is removed and `file` keeps its earlier content.
 */
export async function writeAtomic(file: string, text: string): Promise<void> {
  const temp = `${file}.tmp-${process.pid}-${tempCounter++}`;
  try {
    await writeFile(temp, text);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw await outputWriteError(file, error);
  }
}
