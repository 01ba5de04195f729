/**
 * Moving bytes into the container with the Engine API's `putArchive` (a tar built in memory).
 * @module
 */
import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import { engineError } from './docker-errors.js';
import type { DockerSandboxState } from './docker-sandbox-state.js';
import { tarOneFile } from './tar-archive.js';

/** Owner and mode of a file put into the container. */
export interface PutFileOptions {
  mode: number;
  uid: number;
  gid: number;
}

/**
 * Extracts one file `name` with `data` into the existing directory `dir` of the container.
 * @throws SandboxError `not_directory` / `file_not_found` when `dir` is not a directory or is
 *   missing, `sandbox_gone` / `sandbox_unavailable` for engine failures.
 */
export async function putFile(
  state: DockerSandboxState,
  dir: string,
  name: string,
  data: Uint8Array,
  options: PutFileOptions,
): Promise<void> {
  const archive = tarOneFile({ name, data, mode: options.mode, uid: options.uid, gid: options.gid });
  try {
    await state.container.putArchive(archive, { path: dir, noOverwriteDirNonDir: 'true' });
  } catch (error) {
    const text = (error as Error).message ?? '';
    if (/not a directory/i.test(text)) {
      throw new SandboxError({
        code: SandkitErrorCode.notDirectory,
        message: `${dir} (or a parent of it) is not a directory`,
        cause: error,
        details: { path: dir },
      });
    }
    throw engineError(error, `cannot copy a file into ${dir}`);
  }
}
