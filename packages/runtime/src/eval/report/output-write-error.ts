/**
 * The one error a run stops with when it cannot write under `--out` (a full disk, a quota, an I/O
 * error): one line that names the file, the cause and the free space, and says how to go on.
 * @module
 */
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/** Errno codes that mean the file system under `--out` has no room (or the user's quota is used up). */
const fullCodes = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/** `true` when `error` is a write failure {@link outputWriteError} describes (a full disk, a quota, EIO). */
export function isOutputWriteFailure(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && (fullCodes.has(code) || code === 'EIO');
}

/**
 * `cannot write <file>: no space left on device (N bytes free); free space and rerun with --resume`.
 * The free space is what `statfs` reports available to this user on `file`'s file system (omitted
 * when it cannot be read). Already such an error: returned as is.
 * @param file the file (or directory) whose write failed.
 * @returns a SandkitError `output_not_written` with `details.file`, `details.freeBytes`.
 */
export async function outputWriteError(file: string, error: unknown): Promise<SandkitError> {
  if (SandkitError.isInstance(error) && error.code === SandkitErrorCode.outputNotWritten) return error;
  const errno = error as NodeJS.ErrnoException;
  const cause = fullCodes.has(errno.code ?? '')
    ? errno.code === 'EDQUOT'
      ? 'disk quota exceeded'
      : errno.code === 'EFBIG'
        ? 'file too large'
        : 'no space left on device'
    : errno.message;
  const free = await statfs(file)
    .catch(() => statfs(dirname(file)))
    .then((s) => s.bavail * s.bsize)
    .catch(() => undefined);
  return new SandkitError({
    code: SandkitErrorCode.outputNotWritten,
    message: `cannot write ${file}: ${cause}${free === undefined ? '' : ` (${free} bytes free)`}; free space and rerun with --resume`,
    cause: error,
    details: { file, freeBytes: free },
  });
}
