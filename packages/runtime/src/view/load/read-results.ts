/**
 * Reads `results.jsonl` (`sandkit eval` and `sandkit grade`): one `InstanceResult` per line; a
 * resumed run may hold an instance twice, the last line wins (as `--resume` reads it).
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { InstanceResult } from '../../eval/instance/eval-result.js';
import { readTextFile } from './read-text-file.js';

/**
 * @throws SandkitError `invalid_option` when the file is missing or a line is not a result,
 *   naming the file and line.
 */
export async function readResults(file: string): Promise<InstanceResult[]> {
  const text = await readTextFile(file);
  if (text === null)
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `${file} does not exist: give a directory written by sandkit eval --out, sandkit grade --out or sandkit run --out`,
    });
  const byId = new Map<string, InstanceResult>();
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let parsed: Partial<InstanceResult>;
    try {
      parsed = JSON.parse(line) as Partial<InstanceResult>;
    } catch (error) {
      throw new SandkitError({
        code: SandkitErrorCode.invalidOption,
        message: `${file}:${i + 1} is not JSON (${(error as Error).message}): a results.jsonl line cut by a killed run; rerun with --resume to rewrite it`,
      });
    }
    if (typeof parsed.instance_id !== 'string' || typeof parsed.status !== 'string')
      throw new SandkitError({
        code: SandkitErrorCode.invalidOption,
        message: `${file}:${i + 1} has no instance_id or status: not a sandkit results.jsonl line`,
      });
    byId.delete(parsed.instance_id);
    byId.set(parsed.instance_id, parsed as InstanceResult);
  });
  return [...byId.values()];
}
