/**
 * File transfer for the E2B adapter: bytes over the SDK's `files` API, exact both ways.
 *
 * envd writes uploads as root and then chowns them to the sandbox user, so an upload succeeds
 * where the user may not write. A write therefore uploads to a staging file under
 * `/tmp/sandkit-exec` (named by `e2b-staging-files.ts`) and one command, run as the user, copies
 * it to a temp name beside the target (the file a symlink leads to), sets the mode (the existing
 * file's, or the requested one, or 644) and renames it into place: atomic, and a directory the
 * user cannot write fails with nothing left behind (the command removes the staging file in every
 * case). An upload that fails or is aborted may leave its staging file, even after the call
 * returned: that same command of a later write sweeps it (see `e2b-staging-files.ts`).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import {
  quoteShellArgument,
  type SandboxData,
  SandboxError,
  SandkitErrorCode,
  type WriteFileOptions,
} from '@sandkit/core';
import { CommandExitError, type Sandbox } from 'e2b';
import { followLinksScript, linkLoopError, linkLoopStatPattern } from '../paths/follow-links-script.js';
import { toSandboxErrorChecked } from './transport/e2b-errors.js';
import type { E2BStagingFiles } from './e2b-staging-files.js';
import { downloadFile, type E2BFileRequest, uploadFile } from './transport/e2b-file-requests.js';

export type { E2BFileRequest };

/**
 * Reads a whole file within `request.requestTimeoutMs`.
 * @throws SandboxError `file_not_found`, `is_directory`, `refused` for a symlink loop,
 *   `sandbox_gone`, `sandbox_unavailable` (also when the deadline passes).
 * @throws SandkitError `aborted` when `request.signal` aborts the read.
 */
export async function readE2BFile(
  sandbox: Sandbox,
  path: string,
  request: E2BFileRequest,
): Promise<Uint8Array> {
  try {
    return await downloadFile(sandbox, path, request);
  } catch (error) {
    if (
      SandboxError.isInstance(error) &&
      error.code === SandkitErrorCode.fileNotFound &&
      (await isLinkLoop(sandbox, path))
    )
      throw linkLoopError('read', path, error.cause);
    throw error;
  }
}

/**
 * `true` when `path` cannot be resolved because of a symlink loop (envd answers it as a missing
 * file). Asked only after a read found nothing; any failure of the check counts as no loop.
 */
async function isLinkLoop(sandbox: Sandbox, path: string): Promise<boolean> {
  const check = `[ -L ${quoteShellArgument(path)} ] && case $(LC_ALL=C stat -L -- ${quoteShellArgument(path)} 2>&1) in ${linkLoopStatPattern}) exit 0;; esac; exit 1`;
  try {
    return (await sandbox.commands.run(check, { timeoutMs: 30_000 })).exitCode === 0;
  } catch {
    return false;
  }
}

/**
 * Writes a whole file atomically as the sandbox user, through a staging file named by `staging`
 * (the finishing command also sweeps the staging files that earlier abandoned writes left). A
 * symlink (a chain of them too) is followed: the link stays and the file it leads to gets the
 * bytes; a dangling link's target is created (parents too).
 * @throws SandboxError `is_directory`; `not_directory` when a parent is a file; `refused` when the
 *   user may not write the directory, or for a symlink loop (over 40 links); `sandbox_gone`, `sandbox_unavailable` (also when the upload
 *   passes `request.requestTimeoutMs`).
 * @throws SandkitError `aborted` when `request.signal` aborts the upload (the target file is
 *   untouched; a staging file the sandbox writes after the abort goes with a later write's sweep).
 */
export async function writeE2BFile(
  sandbox: Sandbox,
  path: string,
  data: SandboxData,
  options: WriteFileOptions,
  request: E2BFileRequest,
  staging: E2BStagingFiles,
): Promise<void> {
  const { n, path: stagingPath } = staging.begin();
  let abandoned = true;
  try {
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    await uploadFile(sandbox, stagingPath, bytes, request, path);
    const outcome = await finishWrite(sandbox, stagingPath, path, options, staging.sweepScript());
    abandoned = false; // the command reported back: it removed the staging file either way
    if (outcome.exitCode !== 0)
      throw writeError(outcome.stdout.trim().split('\n').pop() ?? '', path, outcome.stderr.trim());
  } finally {
    staging.end(n, abandoned);
  }
}

/**
 * Runs the command that moves the staging file into place (and the sweep, when given): its exit
 * code and output (stdout's last line names a failure).
 * @throws SandboxError `sandbox_gone`, `sandbox_unavailable` when it does not report back.
 */
async function finishWrite(
  sandbox: Sandbox,
  stagingPath: string,
  path: string,
  options: WriteFileOptions,
  sweep: string | undefined,
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const id = randomBytes(8).toString('hex');
  const q = quoteShellArgument;
  const tempName = `.${posix.basename(path).slice(0, 40)}.${id}.sandkit-tmp`;
  const mode = options.mode === undefined ? undefined : options.mode.toString(8);
  const script = [
    `s=${q(stagingPath)}; t=${q(path)}`,
    ...(sweep === undefined ? [] : [sweep]),
    'fail() { rm -f "$s"; echo "$1"; exit 3; }',
    followLinksScript('t', 'fail symlink-loop'),
    `d=\${t%/*}; [ -n "$d" ] || d=/; tmp="$d"/${q(tempName)}`,
    '[ -d "$t" ] && fail is-directory',
    // On failure, the nearest existing ancestor says why: a file (not a directory), or unwritable.
    `mkdir -p -- "$d" || { a=$d; while [ ! -e "$a" ]; do a=\${a%/*}; [ -n "$a" ] || a=/; done; [ -d "$a" ] || fail not-directory; [ -w "$a" ] || fail cannot-create-directory; fail failed; }`,
    '[ -d "$d" ] || fail not-directory',
    '[ -w "$d" ] || fail cannot-write-directory',
    'cat -- "$s" > "$tmp" || { rm -f "$tmp"; fail failed; }',
    'rm -f "$s"',
    mode === undefined
      ? 'if [ -e "$t" ]; then chmod --reference="$t" "$tmp"; else chmod 644 "$tmp"; fi'
      : `chmod ${mode} "$tmp"`,
    'mv -f -- "$tmp" "$t" || { rm -f "$tmp"; echo failed; exit 3; }',
  ].join('\n');
  let outcome: { exitCode: number; stdout: string; stderr: string };
  try {
    outcome = await sandbox.commands.run(script, { timeoutMs: 60_000 });
  } catch (error) {
    if (!(error instanceof CommandExitError))
      throw await toSandboxErrorChecked(sandbox, error, `write ${path}`, path);
    outcome = error;
  }
  return outcome;
}

function writeError(reason: string, path: string, stderr: string): SandboxError {
  const details = { path };
  switch (reason) {
    case 'is-directory':
      return new SandboxError({
        code: SandkitErrorCode.isDirectory,
        message: `${path} is a directory, not a file`,
        details,
      });
    case 'not-directory':
      return new SandboxError({
        code: SandkitErrorCode.notDirectory,
        message: `a parent of ${path} is not a directory`,
        details,
      });
    case 'symlink-loop':
      return linkLoopError('write', path);
    case 'cannot-create-directory':
    case 'cannot-write-directory':
      return new SandboxError({
        code: SandkitErrorCode.refused,
        message: `cannot write ${path}: permission denied for the sandbox user in ${posix.dirname(path)}; write somewhere the user owns (for example under its home) or change the directory's owner first`,
        details,
      });
    default:
      return new SandboxError({
        code: SandkitErrorCode.sandboxUnavailable,
        message: `cannot write ${path}: ${stderr || reason}`,
        details,
      });
  }
}
