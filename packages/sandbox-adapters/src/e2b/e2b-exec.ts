/**
 * Runs one command in an E2B sandbox with the contract's semantics, through the wrapper of
 * `e2b-exec-script.ts` (output captured in the sandbox, exact bytes back in one result record).
 *
 * - The call returns when the command ends, even if a background child keeps running: the child
 *   holds a capture file, not envd's output pipe (envd ends a stream only at pipe EOF).
 * - The adapter's own deadline (`timeoutMs`, else `defaultCommandTimeoutMs`) and abort kill the
 *   command's whole group and every process marked with the call's id from a second command
 *   (TERM, grace, KILL), then the wrapper reports the output so far (cases B19, B22).
 * - The SDK gets `timeoutMs` = that deadline + 30 s, so envd's own deadline (which SIGKILLs only
 *   the wrapper) is a backstop. If the stream still ends abnormally (that deadline, or a dropped
 *   connection), the adapter kills the group the same way, collects the capture files, and returns
 *   a timed-out result; if the sandbox is gone, it throws `sandbox_gone`.
 * - Everything that crosses envd's command stream is base64, so streaming callbacks and the result
 *   get the exact bytes (the SDK itself would decode them as UTF-8 text). A head and tail too big
 *   to come back inline that way are read raw from a file with one more request
 *   (`e2b-exec-slices.ts`).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { type ExecOptions, type ExecResult, SandboxError, SandkitErrorCode } from '@sandkit/core';
import { CommandExitError, type Sandbox } from 'e2b';
import type { OutputLogRetention } from '../capture/output-log-retention.js';
import { abortedBeforeStart } from '../exec-options/aborted-before-start.js';
import { baseEnvironment } from '../exec-options/base-environment.js';
import { normalizeExecOptions } from '../exec-options/normalize-exec-options.js';
import { toSandboxErrorChecked } from './transport/e2b-errors.js';
import { type ExecRecord, parseRecord, RecordSplitter, recordOutput } from './e2b-exec-record.js';
import { execBase, execDir, killScript, slicesPath, wrapperScript } from './e2b-exec-script.js';
import { fetchRecordSlices } from './e2b-exec-slices.js';
import type { NormalizedE2BOptions } from './e2b-options.js';

/** Extra time the SDK's (and envd's) deadline gets beyond the adapter's own. */
const transportMarginMs = 30_000;

/**
 * Runs `command` in `sandbox`; never throws for a non-zero exit. `sweep` (POSIX sh printing
 * nothing, from `E2BStagingFiles.sweepScript`) runs first in the same command.
 * @throws SandboxError `cwd_not_found`, `cannot_start_command` (capture directory not writable),
 *   `sandbox_gone`, `sandbox_unavailable`.
 */
export async function runE2BCommand(
  sandbox: Sandbox,
  command: string,
  rawOptions: ExecOptions,
  config: NormalizedE2BOptions,
  logs: OutputLogRetention,
  sweep?: string,
): Promise<ExecResult> {
  const options = normalizeExecOptions(rawOptions);
  const started = performance.now();
  if (options.signal?.aborted) return abortedBeforeStart(started);
  const id = randomBytes(8).toString('hex');
  const token = `__sandkit_${randomBytes(8).toString('hex')}__`;
  const cwd =
    options.cwd === undefined
      ? config.workdir
      : options.cwd.startsWith('/')
        ? options.cwd
        : `${config.workdir}/${options.cwd}`;
  const deadlineMs = options.timeoutMs ?? config.defaultCommandTimeoutMs;
  if (options.stdin !== undefined) {
    const bytes = options.stdin;
    await sandbox.files
      .write(
        `${execBase(id)}.in`,
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      )
      .catch(async (error: unknown) => {
        throw await toSandboxErrorChecked(sandbox, error, 'upload stdin');
      });
  }
  const stream = options.onStdout !== undefined || options.onStderr !== undefined;
  const { log, drop } = logs.next();
  const script = wrapperScript({
    id,
    token,
    command,
    cwd,
    shell: options.shell === '/bin/bash' ? 'bash' : 'sh',
    env: { ...baseEnvironment, ...config.envs, ...options.env },
    stdin: options.stdin !== undefined,
    stream,
    maxOutputBytes: options.maxOutputBytes,
    log,
    drop,
    sweep,
  });
  const splitter = new RecordSplitter(token, { stdout: options.onStdout, stderr: options.onStderr });
  let timedOut = false;
  let aborted = false;
  let handle: { pid: number; wait(): Promise<unknown> };
  try {
    handle = (await sandbox.commands.run(script, {
      background: true,
      timeoutMs: deadlineMs + transportMarginMs,
      onStdout: (text: string) => splitter.push(text),
    })) as unknown as typeof handle;
  } catch (error) {
    logs.undrop(drop);
    throw await toSandboxErrorChecked(sandbox, error, 'start a command');
  }

  let killing: Promise<string> | undefined;
  const kill = (): void => {
    killing ??= runScript(sandbox, killScript({ id, wrapperPid: handle.pid, graceMs: config.killGraceMs }));
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, deadlineMs);
  const onAbort = (): void => {
    aborted = true;
    kill();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  let record: ExecRecord | undefined;
  let failure: unknown;
  try {
    await handle.wait().catch((error: unknown) => {
      if (!(error instanceof CommandExitError)) throw error;
    });
    record = parseRecord(splitter.recordText());
  } catch (error) {
    failure = error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
  if (record === undefined) {
    // The stream ended abnormally (envd's deadline, a dropped connection, the wrapper killed from
    // outside) or the sandbox is gone: kill what is left and collect the output from the logs.
    const mapped = await toSandboxErrorChecked(sandbox, failure ?? noRecordError(), 'run a command');
    if (mapped.code === SandkitErrorCode.sandboxGone) throw mapped;
    if (!aborted) timedOut = true;
    await killing?.catch(() => undefined);
    killing = undefined;
    const rescue = await runScript(
      sandbox,
      killScript({
        id,
        wrapperPid: handle.pid,
        graceMs: config.killGraceMs,
        collect: { token, maxOutputBytes: options.maxOutputBytes, log },
      }),
    );
    assertGone(rescue);
    const rescued = new RecordSplitter(token);
    rescued.push(rescue);
    record = parseRecord(rescued.recordText());
    if (record === undefined) throw mapped;
  }
  if (killing) assertGone(await killing);
  record = await fetchRecordSlices(sandbox, record, slicesPath(id), config.fileRequestTimeoutMs);

  if (record.kind === 'nolog') {
    throw new SandboxError({
      code: SandkitErrorCode.cannotStartCommand,
      message: `the sandbox user cannot write ${execDir}, where the adapter captures output; make it writable (for example \`chmod 1777 ${execDir}\` as root) or remove it`,
    });
  }
  if (record.kind === 'cwd') {
    throw new SandboxError({
      code: SandkitErrorCode.cwdNotFound,
      message: `working directory ${cwd} does not exist in the sandbox; create it first or pass another cwd`,
      details: { cwd },
    });
  }
  const output = recordOutput(record, log);
  if (output.outputLog) logs.keptLog(log);
  const killed = timedOut || aborted;
  return {
    exitCode: record.kind === 'exit' && !killed ? record.code : null,
    signal: record.kind === 'signal' ? signalName(record.code) : killed ? 'SIGKILL' : null,
    ...output,
    timedOut,
    aborted,
    durationMs: performance.now() - started,
  };
}

/** Runs a helper script; its stdout. @throws SandboxError `sandbox_gone` / `sandbox_unavailable` */
async function runScript(sandbox: Sandbox, script: string): Promise<string> {
  try {
    return (await sandbox.commands.run(script, { timeoutMs: 60_000 })).stdout;
  } catch (error) {
    if (error instanceof CommandExitError) return error.stdout;
    throw await toSandboxErrorChecked(sandbox, error, 'end a command');
  }
}

/** The failure of a wrapper that ended without its record (killed from outside). */
function noRecordError(): SandboxError {
  return new SandboxError({
    code: SandkitErrorCode.exitStatusUnavailable,
    message: 'the E2B command wrapper ended without its result record (killed from outside)',
  });
}

function assertGone(killOutput: string): void {
  if (killOutput.trim().split('\n').pop() === 'alive') {
    throw new SandboxError({
      code: SandkitErrorCode.sandboxUnavailable,
      message: 'a timed-out or aborted command survived SIGKILL in the E2B sandbox',
    });
  }
}

const signalNames: Record<number, string> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  3: 'SIGQUIT',
  6: 'SIGABRT',
  9: 'SIGKILL',
  13: 'SIGPIPE',
  14: 'SIGALRM',
  15: 'SIGTERM',
};

function signalName(number: number): string {
  return signalNames[number] ?? `SIG${number}`;
}
