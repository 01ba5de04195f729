/**
 * Large writeFile on Docker: the bytes go in with the Engine API's archive PUT (a one-file tar,
 * container-files.ts) under a temp name beside the target, and the finishing script
 * (finish-write-script.ts: parents, checks, mode, then `mv` over the target, as the sandbox user)
 * is sent over the command channel BEFORE the PUT. It does everything that does not need the new
 * bytes while they upload, then waits for one line from the host on the channel's stdin (`go` once
 * the PUT answered 200, `no` otherwise), so after the upload the write costs one line in, one `mv`
 * and the end frames out.
 *
 * - The engine writes as root, so for a non-root sandbox user the PUT waits for the script's
 *   `R<status>` line: it has made the parents as that user and found the directory writable for
 *   them, or the write is refused before anything lands in the directory. Root's upload starts at
 *   once.
 * - Abort: the upload is not cut off (a local socket transfer): once it has ended the script is
 *   told `no` and removes the temp file, so the engine never writes a file after its removal.
 * - With no free channel the script runs as plain execs, before the PUT (parents, non-root only)
 *   and after it. When the channel breaks or the script is killed mid-write, it runs again (as a
 *   plain exec or on another channel) only to remove the temp file, and the write fails. Docker
 *   answers 404 to a PUT into a missing directory (Podman makes it): then the write goes on that
 *   way once the script has made it.
 *
 * `docker cp host-file c:path` (both Podman's copier and Docker's archive extraction) removes an
 * existing target first and writes the new bytes in its place: it pays the unlink inside the
 * request and is not atomic.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { formatCommand, SandboxError, SandkitErrorCode } from '@sandkit/core';
import { putFile } from './transport/container-files.js';
import { type InternalScriptResult, ownScriptRequest, runInternalScript } from './docker-exec.js';
import type { DockerSandboxState } from './docker-sandbox-state.js';
import { finishWriteExits, finishWriteScript } from './finish-write-script.js';

type Failure = { error: unknown } | undefined;

/** After a failed upload, ms the script gets to end before its channel is torn down. */
const failedUploadEndMs = 5000;

/**
 * Writes `data` to absolute `path` through the archive endpoint (see the module doc).
 * @param mode the mode to set, or `undefined` to keep an existing file's (0o644 for a new one)
 * @returns the script's result: exit 0, or one of `writeExit` (write-exit.ts) with the failing
 *   command's stderr
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
  // Root may write anywhere the engine can: its upload starts at once, beside the script's checks.
  const waitForChecks = owner.uid !== 0;
  const args = (answer: '' | 'go' | 'no') => [
    posix.join(dir, name),
    path,
    mode === undefined ? '1' : '0',
    putMode.toString(8),
    answer,
    answer === '' && waitForChecks ? '1' : '0',
  ];
  // No signal: an upload cut off mid-way could leave the engine writing a file the script removed.
  const put = (): Promise<Failure> =>
    putFile(state, dir, name, data, { mode: putMode, ...owner }).then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
  const finish = (answer: 'go' | 'no') => runInternalScript(state, finishWriteScript, args(answer));
  /** The write without the channel; `prepared`: the script already made the parents. */
  const withoutChannel = async (prepared: boolean): Promise<InternalScriptResult> => {
    if (!prepared && waitForChecks) {
      const checked = await finish('no');
      if (checked.exitCode !== 0) return checked;
    }
    let failed = await put();
    if (failed !== undefined && !prepared && retryable(failed.error)) {
      const checked = await finish('no');
      if (checked.exitCode !== 0) return checked;
      failed = await put();
    }
    if (failed !== undefined) throw failed.error;
    // Decided once: an abort that comes while the script renames is too late to report.
    const go = signal?.aborted !== true;
    const result = await finish(go ? 'go' : 'no');
    if (result.exitCode === 0 && !go) throw aborted(path);
    return result;
  };

  const channel = state.pool ? await state.pool.acquire() : undefined;
  if (channel === undefined) return withoutChannel(false);
  const stderr: Buffer[] = [];
  let markChecked!: (status: number | undefined) => void;
  const checked = new Promise<number | undefined>((resolve) => {
    markChecked = resolve;
  });
  let stdout = '';
  const run = channel.run(
    { ...ownScriptRequest(state, '/', `sk_write ${formatCommand(args(''))}`), stdinPath: '-' },
    {
      stdout: (chunk) => {
        stdout += chunk.toString('latin1');
        const line = /^R(\d+)\n/.exec(stdout);
        if (line !== null) markChecked(Number(line[1]));
      },
      stderr: (chunk) => stderr.push(chunk),
    },
  );
  const ended = run.done.then(
    (end) => ({ end }),
    (error: unknown) => ({ error }),
  );
  void ended.then(() => markChecked(undefined));
  const status = waitForChecks ? await checked : 0;
  const failed = status === 0 ? await put() : undefined;
  const go = status === 0 && failed === undefined && signal?.aborted !== true;
  channel.send(go ? 'go\n' : 'no\n');
  // After a failed upload (the container may be gone) the script has nothing left but `rm`: do not
  // wait on a channel the engine may never close.
  const bound =
    failed === undefined
      ? undefined
      : setTimeout(() => run.cancel(new Error('no end frame after a failed upload')), failedUploadEndMs);
  const outcome = await ended;
  clearTimeout(bound);
  const exitCode = 'error' in outcome || outcome.end.kind !== 'exit' ? null : outcome.end.code;
  if ((exitCode === null || !finishWriteExits.has(exitCode)) && status === 0 && failed === undefined) {
    // The channel broke or the script was killed after the upload: remove the temp file another
    // way, then report the failure (the cleanup's own failure would only hide it).
    await finish('no').catch(() => undefined);
  }
  if ('error' in outcome) throw failed?.error ?? outcome.error;
  const result: InternalScriptResult = {
    exitCode,
    stdout: Buffer.alloc(0),
    stderr: Buffer.concat(stderr).toString('utf8'),
  };
  if (result.exitCode !== 0) return result;
  if (failed !== undefined) {
    // Docker's 404 for a missing directory: the script has made it by now.
    if (waitForChecks || !retryable(failed.error)) throw failed.error;
    return withoutChannel(true);
  }
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
