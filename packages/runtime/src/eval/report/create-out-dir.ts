/**
 * Creates a run's output directory (`--out`), turning every reason it cannot be one into a usage
 * error that says what is wrong with the path.
 * @module
 */
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/**
 * Creates `out` (and its parents) unless it is a directory already.
 * @param out absolute path
 * @throws SandkitError `invalid_option` when `out` or one of its parents is a file, or when it
 *   cannot be created or written (a read-only file system, no permission), naming the path and
 *   the cause.
 */
export async function createOutDir(out: string): Promise<void> {
  try {
    await mkdir(out, { recursive: true });
    await access(out, constants.W_OK);
    return;
  } catch (error) {
    throw await outDirError(out, error as NodeJS.ErrnoException);
  }
}

async function outDirError(out: string, error: NodeJS.ErrnoException): Promise<SandkitError> {
  // the nearest part of the path that exists says why (mkdir reports ENOENT on a read-only mount)
  let existing = out;
  let info: Awaited<ReturnType<typeof stat>> | null = null;
  for (;;) {
    info = await stat(existing).catch(() => null);
    if (info !== null || dirname(existing) === existing) break;
    existing = dirname(existing);
  }
  let reason: string;
  if (info !== null && !info.isDirectory())
    reason =
      existing === out
        ? 'is a file; give a directory'
        : `cannot be created: ${existing} is a file, not a directory`;
  else {
    const code =
      info === null
        ? error.code
        : await access(existing, constants.W_OK).then(
            () => error.code,
            (e: NodeJS.ErrnoException) => e.code,
          );
    reason =
      code === 'EROFS'
        ? `cannot be created: read-only file system${existing === out ? '' : ` (at ${existing})`}; give a directory on a writable one`
        : code === 'EACCES' || code === 'EPERM'
          ? `cannot be created: no permission to write ${existing}; give a directory you can write`
          : `cannot be created: ${error.message}; give a directory you can write`;
  }
  return new SandkitError({
    code: SandkitErrorCode.invalidOption,
    message: `--out ${out} ${reason}`,
    cause: error,
    details: { out },
  });
}
