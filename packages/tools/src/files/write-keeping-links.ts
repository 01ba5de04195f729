/**
 * Writes a whole file so that its hard links stay joined. The contract's `writeFile` is atomic
 * (temp file + rename), and a rename gives the path a new inode: a file with more than one link
 * would be split, the other names keeping the old bytes. For such a file (`nlink > 1`) the bytes
 * go first to a temp file beside it (the contract's `writeFile`) and are then copied over the file
 * in place (`cat TEMP > FILE`, one exec), as editors do for hard links: every name sees the new
 * content and the mode and owner stay, but a reader may see a half-written file meanwhile. Works
 * on every adapter, since it uses only `writeFile` and `exec`.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { formatCommand, type SandboxClient, SandboxError, SandkitErrorCode } from '@sandkit/core';

/** How {@link writeKeepingLinks} wrote: `atomic` (rename) or `in-place` (a file with hard links). */
export type WriteMode = 'atomic' | 'in-place';

/**
 * Writes `bytes` to `absolute`, in place when `links` (the file's link count) is over 1.
 * @throws SandboxError from `writeFile`; SandboxError `command_failed` with the shell's message
 *   when the in-place copy fails (the temp file is removed either way).
 */
export async function writeKeepingLinks(
  client: SandboxClient,
  absolute: string,
  bytes: Uint8Array,
  links: number,
  signal: AbortSignal | undefined,
): Promise<WriteMode> {
  const options = signal ? { signal } : {};
  if (links <= 1) {
    await client.writeFile(absolute, bytes, options);
    return 'atomic';
  }
  const temp = posix.join(
    posix.dirname(absolute),
    `.${posix.basename(absolute).slice(0, 40)}.${randomBytes(6).toString('hex')}.sandkit-tmp`,
  );
  await client.writeFile(temp, bytes, options);
  const [file, copy] = [formatCommand([absolute]), formatCommand([temp])];
  const result = await client.exec(`cat -- ${copy} > ${file}; s=$?; rm -f -- ${copy}; exit $s`, options);
  if (result.exitCode !== 0) {
    throw new SandboxError({
      code: SandkitErrorCode.commandFailed,
      message: `writing ${absolute} in place (it has ${links} hard links) failed: ${result.stderr.trim() || `exit ${result.exitCode}`}`,
      details: { path: absolute },
    });
  }
  return 'in-place';
}

/** The notice a result carries after an in-place write. */
export function inPlaceNotice(links: number): string {
  return `the file has ${links} hard links; it was written in place so every link sees the new content`;
}
