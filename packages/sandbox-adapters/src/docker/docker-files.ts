/**
 * `readFile` / `writeFile` for the Docker adapter, at the speed of the Engine API's archive
 * endpoints (the ones `docker cp` uses), streamed (container-files.ts).
 *
 * - writeFile: up to {@link channelWriteMaxBytes}, one request over the command channel
 *   (channel-write.ts); larger, the archive PUT under a temp name beside the target, renamed over
 *   it by a script sent over the channel while the bytes upload (archive-write.ts). Either way
 *   readers never see a half-written file, an existing file keeps its mode unless `mode` is given,
 *   and what the sandbox user may not write is refused.
 * - readFile: a script over the command channel tells a missing file from a directory and `cat`s
 *   a file up to {@link archiveReadMinBytes}; a larger one comes through the archive endpoint
 *   (at its canonical path, `readlink -f`), read from its own socket straight into one buffer of the file's size,
 *   allocated from the size the script printed and its pages touched while the engine prepares
 *   the archive (archive-request.ts).
 *   The engine reads as root, so only a file the sandbox user can read (`test -r`) goes that way;
 *   any other is left to `cat`, which refuses it as it refuses a small one.
 * @module
 */
import { constants } from 'node:buffer';
import { posix } from 'node:path';
import { SandboxError, type SandboxData, SandkitErrorCode, type WriteFileOptions } from '@sandkit/core';
import { channelWriteMaxBytes, writeOverChannel } from './channel-write.js';
import { writeThroughArchive } from './archive-write.js';
import { getFile } from './transport/container-files.js';
import { type InternalScriptResult, runInternalScript } from './docker-exec.js';
import { assertLive, type DockerSandboxState } from './docker-sandbox-state.js';
import { writeExit } from './write-exit.js';
import { checkedPath } from '../paths/checked-path.js';
import { linkLoopError, linkLoopStatPattern } from '../paths/follow-links-script.js';

const exitIsDirectory = writeExit.isDirectory;
const exitMissing = 22;
const exitLarge = 30;
const exitNotRegular = 31;
const exitNotDirectory = 32;

/**
 * Files larger than this many bytes are read through the archive endpoint; smaller ones through a
 * `cat` over the channel, because the engine's archive request has a fixed cost (it mounts the
 * container's file system, ~10× a channel command on Podman) that only pays off on big files.
 */
export const archiveReadMinBytes = 8 * 1024 * 1024;

// $1 the path, $2 archiveReadMinBytes. A path that does not exist for `-e` only because a parent
// may not be searched is left to `cat`, which says "Permission denied"; one under a regular file
// exits ${exitNotDirectory} (`not_directory`, as the local adapter says). A pipe, socket or device is
// refused (`cat` would block on a pipe, or never end on /dev/zero). A large readable file prints
// its size and its canonical path (`readlink -f`: the kernel's resolution, `..` after a symlinked
// directory included, which the engine's archive path does not do), then exits ${exitLarge}; the
// canonical path is printed last and whole (a trailing newline in a name survives the `x`).
const readScript = `if [ -d "$1" ]; then exit ${exitIsDirectory}; fi
if [ ! -e "$1" ]; then case $(LC_ALL=C stat -L -- "$1" 2>&1) in *'Permission denied'*) exec cat -- "$1";; *'Not a directory'*) exit ${exitNotDirectory};; ${linkLoopStatPattern}) exit ${writeExit.linkLoop};; esac; exit ${exitMissing}; fi
[ -f "$1" ] || exit ${exitNotRegular}
if [ -r "$1" ]; then size=$(stat -L -c %s -- "$1") && [ "$size" -gt "$2" ] && { real=$(readlink -f -- "$1" && echo x) && real=\${real%??} || real=$1; printf '%s\\n%s' "$size" "$real"; exit ${exitLarge}; }; fi
exec cat -- "$1"`;

const catScript = 'exec cat -- "$1"';

/**
 * Reads a whole file as bytes. Symlinks are followed as the kernel follows them.
 * @throws SandkitError `invalid_option` for an empty path or one with a NUL byte (as the local adapter).
 * @throws SandboxError `file_not_found`, `is_directory`, `not_directory` when a parent is a file;
 *   `refused` for a pipe, socket or device (not a regular file) and for a symlink loop; `too_large` for a file over `buffer.constants.MAX_LENGTH` bytes (4 GiB on Node
 *   20), which no single buffer holds; `sandbox_unavailable` (also for "Permission denied"),
 *   `sandbox_destroyed`; SandkitError `aborted` when `signal` aborts.
 */
export async function readDockerFile(
  state: DockerSandboxState,
  path: string,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  assertLive(state);
  const full = posix.resolve(state.options.workdir, checkedPath(path));
  // A second look when the file changed between the script's check and the archive read, so that
  // a file removed or replaced by a directory meanwhile gets its own error.
  for (let look = 1; ; look++) {
    const result = await runInternalScript(state, readScript, [full, String(archiveReadMinBytes)], signal);
    if (result.exitCode === 0) return bytesOf(result);
    if (result.exitCode !== exitLarge) throw fileError(result, full, 'read');
    const newline = result.stdout.indexOf(0x0a);
    const size = Number(result.stdout.subarray(0, newline).toString('latin1'));
    if (size > constants.MAX_LENGTH) {
      throw new SandboxError({
        code: SandkitErrorCode.tooLarge,
        message: `${full} is ${size} bytes, more than one buffer holds (${constants.MAX_LENGTH}); read it in parts with exec (for example \`tail -c +N | head -c M\`)`,
        details: { path: full, size },
      });
    }
    const canonical = result.stdout.subarray(newline + 1).toString('utf8');
    if (!canonical.startsWith('/') || canonical.includes('\uFFFD')) {
      // a name the engine's URL cannot carry byte for byte: over the channel instead
      const catted = await runInternalScript(state, catScript, [full], signal);
      if (catted.exitCode === 0) return bytesOf(catted);
      throw fileError(catted, full, 'read');
    }
    const archived = await getFile(state, canonical, signal, Number.isSafeInteger(size) ? size : undefined);
    if (archived.kind === 'file') return archived.data;
    if (look === 2) {
      throw new SandboxError({
        code: SandkitErrorCode.sandboxUnavailable,
        message: `cannot read ${full} through the engine's archive endpoint (${archived.reason}); it changed while being read?`,
        details: { path: full },
      });
    }
  }
}

function bytesOf(result: InternalScriptResult): Uint8Array {
  return new Uint8Array(result.stdout.buffer, result.stdout.byteOffset, result.stdout.length);
}

/**
 * Writes a whole file atomically, creating parents and keeping an existing file's mode. A symlink
 * (a chain of them too) is followed: the link stays and the file it leads to gets the bytes; a
 * dangling link's target is created (parents too).
 * @throws SandkitError `invalid_option` for an empty path or one with a NUL byte (as the local adapter).
 * @throws SandboxError `refused` for a symlink loop (over 40 links); `is_directory`,
 *   `not_directory`, `sandbox_destroyed`, `sandbox_gone`,
 *   `sandbox_unavailable` (also when the sandbox user may not write the file: "Permission denied");
 *   `aborted` when `options.signal` aborts before the file is replaced (nothing is left behind).
 */
export async function writeDockerFile(
  state: DockerSandboxState,
  path: string,
  data: SandboxData,
  options: WriteFileOptions = {},
): Promise<void> {
  assertLive(state);
  if (options.signal?.aborted)
    throw new SandboxError({ code: SandkitErrorCode.aborted, message: `writing ${path} was aborted` });
  const full = posix.resolve(state.options.workdir, checkedPath(path));
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (bytes.length <= channelWriteMaxBytes) {
    const written = await writeOverChannel(
      state,
      full,
      bytes,
      options.mode ?? 0o644,
      options.mode === undefined,
    );
    if (written !== undefined) {
      if (written.exitCode === writeExit.parents) throw parentsError(written.stderr, posix.dirname(full));
      if (written.exitCode !== 0) throw fileError(written, full, 'write');
      return;
    }
  }
  const result = await writeThroughArchive(state, full, bytes, options.mode, options.signal);
  if (result.exitCode === writeExit.parents) throw parentsError(result.stderr, posix.dirname(full));
  if (result.exitCode === writeExit.unwritable) {
    throw new SandboxError({
      code: SandkitErrorCode.sandboxUnavailable,
      message: `cannot write ${full}: Permission denied (the sandbox user may not write to ${posix.dirname(full)})`,
      details: { path: full },
    });
  }
  if (result.exitCode !== 0) throw fileError(result, full, 'write');
}

/** `not_directory` when a parent is a file, else `sandbox_unavailable`, with mkdir's message. */
function parentsError(stderr: string, dir: string): SandboxError {
  const code = /not a directory|File exists/i.test(stderr)
    ? SandkitErrorCode.notDirectory
    : SandkitErrorCode.sandboxUnavailable;
  return new SandboxError({
    code,
    message: `cannot create directory ${dir}: ${stderr.trim()}`,
    details: { path: dir },
  });
}

function fileError(result: InternalScriptResult, path: string, action: 'read' | 'write'): SandboxError {
  if (result.exitCode === exitIsDirectory) {
    return new SandboxError({
      code: SandkitErrorCode.isDirectory,
      message: `${path} is a directory, not a file`,
      details: { path },
    });
  }
  if (result.exitCode === writeExit.linkLoop) return linkLoopError(action, path);
  if (result.exitCode === exitNotDirectory) {
    return new SandboxError({
      code: SandkitErrorCode.notDirectory,
      message: `a parent of ${path} is not a directory`,
      details: { path },
    });
  }
  if (result.exitCode === exitNotRegular) {
    return new SandboxError({
      code: SandkitErrorCode.refused,
      message: `${path} is not a regular file (a pipe, socket or device); readFile reads regular files only`,
      details: { path },
    });
  }
  if (result.exitCode === exitMissing) {
    return new SandboxError({
      code: SandkitErrorCode.fileNotFound,
      message: `no such file: ${path}`,
      details: { path },
    });
  }
  return new SandboxError({
    code: SandkitErrorCode.sandboxUnavailable,
    message: `cannot ${action} ${path} (exit ${result.exitCode}): ${result.stderr.trim()}`,
    details: { path, exitCode: result.exitCode },
  });
}
