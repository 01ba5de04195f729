/**
 * Large writeFile on Docker: the bytes go in with the Engine API's archive PUT (a one-file tar,
 * container-files.ts) under a temp name beside the target, and one script over the command channel
 * makes the parents, checks, keeps the mode and renames the temp file over the target, as the
 * sandbox user. The script is sent BEFORE the PUT and does everything that does not need the new
 * bytes while they upload; then it waits for one line from the host on the channel's stdin
 * (`go` once the PUT answered 200, `no` otherwise) and only renames, so the write's critical path
 * is the PUT plus one `mv`.
 *
 * - The engine writes as root, so for a non-root sandbox user the PUT waits for the script's
 *   `R<status>` line: it has made the parents as that user and found the directory writable for
 *   them (`test -w`), or the write is refused before anything lands in the directory.
 * - An existing file is replaced by `rename(2)`: a reader sees the old bytes or the new. Its mode
 *   (symlinks followed, as `stat -L`) is read while the bytes upload; `chmod` runs only when it
 *   differs from the mode the temp file was put with.
 * - Replacing a large file frees its blocks inside `rename`, which costs as much as the upload
 *   (~0.7 ms per MiB on ext4 under overlayfs). For a regular file over
 *   {@link deferredUnlinkMinBytes} the script keeps it open in a background `sleep` (started
 *   while the bytes upload) and ends that `sleep` right after the rename: the last close frees
 *   the blocks in that process, after the write has returned. Nothing is named, so nothing is left
 *   behind if the container dies; an unended `sleep` lets go after {@link unlinkHoldSeconds}.
 * - On any failure the temp file is removed by the script, after the PUT has ended (an abort
 *   waits for the upload, a local socket transfer, so the engine has finished writing the file
 *   that is removed). The script always reads its one line before it exits, so the channel's
 *   shell never takes it for a request.
 * - With no free channel the same script runs as plain execs, before (parents, non-root only)
 *   and after the PUT. When the channel breaks or the script is killed mid-write, the script runs
 *   again (as a plain exec or on another channel) only to remove the temp file, and the write fails.
 *
 * `docker cp host-file c:path` (both Podman's copier and Docker's archive extraction) removes an
 * existing target first and writes the new bytes in its place: it pays the unlink inside the
 * request and is not atomic.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { formatCommand, SandboxError, SandkitErrorCode } from '@sandkit/core';
import { writeExit } from './channel-write.js';
import { putFile } from './container-files.js';
import { type InternalScriptResult, runInternalScript } from './docker-exec.js';
import type { DockerSandboxState } from './docker-sandbox-state.js';

/** An existing regular file larger than this many bytes is freed after the write returns. */
export const deferredUnlinkMinBytes = 4 * 1024 * 1024;

/** Longest time a replaced file is held open when the script is cut off before it ends the hold. */
export const unlinkHoldSeconds = 30;

/** `$1` temp path, `$2` target, `$3` 1 = keep an existing mode, `$4` mode put (octal), `$5` answer ('' = read it). */
const finishScript = `t=$1 d=$2 keep=$3 pm=$4 g=$5 e=0 m= h=
p=\${d%/*}; [ -n "$p" ] || p=/
if [ -d "$d" ]; then e=${writeExit.isDirectory}
elif ! { [ -d "$p" ] || mkdir -p -- "$p"; }; then e=${writeExit.parents}
elif [ ! -w "$p" ]; then e=${writeExit.unwritable}
fi
echo R$e
if [ $e = 0 ] && [ "$g" != no ] && [ -f "$d" ]; then
  if i=$(stat -L -c '%a %s' -- "$d"); then
    [ "$keep" = 1 ] && m=\${i% *}
    [ -L "$d" ] || [ "\${i#* }" -le ${deferredUnlinkMinBytes} ] || { sleep ${unlinkHoldSeconds} 2>/dev/null 3<"$d" </dev/null >/dev/null 4>&- & h=$!; }
  else e=${writeExit.mode}; fi
fi
[ -n "$g" ] || read -r g || g=
if [ "$g" = go ] && [ $e = 0 ]; then
  if [ -n "$m" ] && [ "$m" != "$pm" ]; then chmod "$m" -- "$t" || e=${writeExit.mode}; fi
  [ $e != 0 ] || mv -f -- "$t" "$d" || e=${writeExit.move}
fi
[ -z "$h" ] || kill $h 2>/dev/null
[ "$g" = go ] && [ $e = 0 ] || rm -f -- "$t"
exit $e`;

/** The statuses the script exits with by itself; any other means it was cut off (killed). */
const scriptExits = new Set<number>([0, ...Object.values(writeExit)]);

type Failure = { error: unknown } | undefined;

/**
 * Writes `data` to absolute `path` through the archive endpoint (see the module doc).
 * @param mode the mode to set, or `undefined` to keep an existing file's (0o644 for a new one)
 * @returns the script's result: exit 0, or one of {@link writeExit} with the failing command's stderr
 * @throws SandboxError from the PUT (`not_directory`, `sandbox_gone`, `sandbox_unavailable`), or
 *   `sandbox_unavailable` when the channel is lost; SandkitError `aborted` when `signal` aborted
 *   before the rename (the temp file is removed first)
 */
export async function writeThroughArchive(
  state: DockerSandboxState,
  path: string,
  data: Uint8Array,
  mode: number | undefined,
  signal: AbortSignal | undefined,
): Promise<InternalScriptResult> {
  const owner = await state.identity();
  const dir = posix.dirname(path);
  const name = `.sandkit-${randomBytes(8).toString('hex')}.tmp`;
  const putMode = mode ?? 0o644;
  const args = (answer: '' | 'go' | 'no') => [
    posix.join(dir, name),
    path,
    mode === undefined ? '1' : '0',
    putMode.toString(8),
    answer,
  ];
  // No signal: an upload cut off mid-way could leave the engine writing a file the script removed.
  const put = (): Promise<Failure> =>
    putFile(state, dir, name, data, { mode: putMode, ...owner }).then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
  const channel = state.pool ? await state.pool.acquire() : undefined;
  if (channel === undefined) {
    const finish = (answer: 'go' | 'no') => runInternalScript(state, finishScript, args(answer));
    if (owner.uid !== 0) {
      const prepared = await finish('no');
      if (prepared.exitCode !== 0) return prepared;
    }
    let failed = await put();
    if (failed !== undefined && retryable(failed.error)) {
      const prepared = await finish('no');
      if (prepared.exitCode !== 0) return prepared;
      failed = await put();
    }
    if (failed !== undefined) throw failed.error;
    const result = await finish(signal?.aborted ? 'no' : 'go');
    if (result.exitCode === 0 && signal?.aborted) throw aborted(path);
    return result;
  }

  const { log, drop } = state.logs.next();
  const stderr: Buffer[] = [];
  let stdout = '';
  let markReady!: (status: number | undefined) => void;
  const ready = new Promise<number | undefined>((resolve) => {
    markReady = resolve;
  });
  const run = channel.run(
    {
      cwd: '/',
      shell: '/bin/sh',
      command: `set -- ${formatCommand(args(''))}\n${finishScript}`,
      stdinPath: '-',
      env: [],
      log,
      cap: Number.MAX_SAFE_INTEGER,
      mode: 'direct',
      drop,
    },
    {
      stdout: (chunk) => {
        stdout += chunk.toString('latin1');
        const line = /^R(\d+)\n/.exec(stdout);
        if (line !== null) markReady(Number(line[1]));
      },
      stderr: (chunk) => stderr.push(chunk),
    },
  );
  const ended = run.done.then(
    (end) => ({ end }),
    (error: unknown) => ({ error }),
  );
  void ended.then(() => markReady(undefined));
  // Root may write anywhere the engine can: the upload starts at once, beside the script's checks.
  const prepared = owner.uid === 0 ? 0 : await ready;
  let failed: Failure;
  if (prepared === 0) {
    failed = await put();
    // Docker answers 404 for a missing directory (Podman makes it): retry once the script made it.
    if (failed !== undefined && retryable(failed.error) && (await ready) === 0) failed = await put();
  }
  const go = prepared === 0 && failed === undefined && signal?.aborted !== true;
  channel.send(go ? 'go\n' : 'no\n');
  const outcome = await ended;
  const exitCode = 'error' in outcome || outcome.end.kind !== 'exit' ? null : outcome.end.code;
  if ((exitCode === null || !scriptExits.has(exitCode)) && failed === undefined && !state.destroyed) {
    // The channel broke or the script was killed: after an upload, remove the temp file another
    // way, then report the failure (the cleanup's own failure would only hide it).
    await runInternalScript(state, finishScript, args('no')).catch(() => undefined);
  }
  if ('error' in outcome) throw failed?.error ?? outcome.error;
  const result: InternalScriptResult = {
    exitCode,
    stdout: Buffer.alloc(0),
    stderr: Buffer.concat(stderr).toString('utf8'),
  };
  if (result.exitCode !== 0) return result;
  if (failed !== undefined) throw failed.error;
  if (!go) throw aborted(path);
  return result;
}

/** A PUT failure that a missing directory explains on Docker (404, answered as gone/unavailable). */
function retryable(error: unknown): boolean {
  return (
    SandboxError.isInstance(error) &&
    (error.code === SandkitErrorCode.sandboxGone || error.code === SandkitErrorCode.sandboxUnavailable)
  );
}

function aborted(path: string): SandboxError {
  return new SandboxError({
    code: SandkitErrorCode.aborted,
    message: `writing ${path} was aborted; the file was left as it was`,
    details: { path },
  });
}
