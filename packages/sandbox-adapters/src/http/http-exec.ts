/**
 * `exec` over HTTP: one streamed `POST …/exec`, whose lines feed the caller's callbacks and end in
 * the server's result.
 *
 * - The caller's abort sends `POST …/exec/{execId}/abort`; the server kills the process group and
 *   the stream still ends with the result (`aborted: true`, output so far).
 * - When the stream breaks before its result (a dropped connection, a proxy's deadline, or the
 *   adapter's own deadline of `timeoutMs` + {@link transportMarginMs}), the server has killed the
 *   run's group on losing the stream; the adapter fetches the kept result with
 *   `GET …/exec/{execId}` and returns it as timed out (unless the caller aborted). A server that
 *   no longer answers makes it throw `sandbox_gone` or `sandbox_unavailable`.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { type ExecOptions, type ExecResult, SandkitError } from '@sandkit/core';
import { abortedBeforeStart } from '../exec-options/aborted-before-start.js';
import { normalizeExecOptions } from '../exec-options/normalize-exec-options.js';
import { bodyError, fromProtocolError, type HttpTransport } from './transport/http-transport.js';
import { ndjsonLines } from './transport/ndjson-lines.js';
import {
  type ExecRequest,
  type ExecStreamLine,
  type ProtocolError,
  protocolPaths,
} from './transport/protocol.js';

/** Time the adapter's own deadline of a stream gets beyond the command's `timeoutMs`, in ms. */
export const transportMarginMs = 30_000;

/**
 * Runs `command` in sandbox `sandboxId` behind `transport`.
 * @throws SandkitError `invalid_option` (checked here, before anything is sent); SandboxError as the
 *   server or the transport reports it (`cwd_not_found`, `sandbox_gone`, `sandbox_unavailable`...).
 */
export async function runHttpCommand(
  transport: HttpTransport,
  sandboxId: string,
  command: string,
  rawOptions: ExecOptions,
): Promise<ExecResult> {
  const options = normalizeExecOptions(rawOptions);
  const started = performance.now();
  if (options.signal?.aborted) return abortedBeforeStart(started);
  const execId = randomBytes(12).toString('hex');
  const request: ExecRequest = {
    command,
    execId,
    maxOutputBytes: options.maxOutputBytes,
    shell: options.shell === '/bin/bash' ? 'bash' : 'sh',
    ...(rawOptions.cwd === undefined ? {} : { cwd: rawOptions.cwd }),
    ...(rawOptions.env === undefined ? {} : { env: rawOptions.env }),
    ...(options.stdin === undefined ? {} : { stdinBase64: Buffer.from(options.stdin).toString('base64') }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    stream: { stdout: options.onStdout !== undefined, stderr: options.onStderr !== undefined },
  };
  // The stream's own deadline, so a server that stops answering cannot hold the call for ever.
  const deadline =
    options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs + transportMarginMs);
  let callerAborted = false;
  let aborting: Promise<unknown> | undefined;
  const onAbort = (): void => {
    callerAborted = true;
    aborting = transport
      .send({ method: 'POST', path: protocolPaths.execAbort(sandboxId, execId), action: 'abort a command' })
      .catch(() => undefined); // the run may have ended already; the stream tells
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await transport.send({
      method: 'POST',
      path: protocolPaths.exec(sandboxId),
      json: request,
      action: 'run a command',
      ...(deadline === undefined ? {} : { signal: deadline }),
    });
    let ended: ExecStreamLine | undefined;
    try {
      for await (const line of ndjsonLines(response.body as ReadableStream<Uint8Array>)) {
        const event = line as ExecStreamLine;
        if ('stdout' in event) options.onStdout?.(Buffer.from(event.stdout, 'base64'));
        else if ('stderr' in event) options.onStderr?.(Buffer.from(event.stderr, 'base64'));
        else {
          ended = event;
          break;
        }
      }
    } catch {
      ended = undefined; // the stream broke: the result is fetched below
    }
    if (ended !== undefined) {
      if ('error' in ended) throw fromProtocolError(ended.error);
      if ('result' in ended) return ended.result;
    }
    return lostStreamResult(transport, sandboxId, execId, callerAborted);
  } catch (error) {
    if (SandkitError.isInstance(error)) throw error;
    throw bodyError(error, 'run a command', transport.baseURL);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await aborting;
  }
}

/**
 * The result of a run whose stream ended early: the server killed the run when it lost the stream
 * and keeps the result; fetch it, and report a kill the caller did not ask for as a timeout.
 */
async function lostStreamResult(
  transport: HttpTransport,
  sandboxId: string,
  execId: string,
  callerAborted: boolean,
): Promise<ExecResult> {
  // The server may not have noticed the lost stream yet: abort explicitly, then fetch.
  await transport
    .send({ method: 'POST', path: protocolPaths.execAbort(sandboxId, execId), action: 'end a command' })
    .catch((error: unknown) => {
      if (SandkitError.isInstance(error) && error.code === 'unknown_process') return;
      throw error;
    });
  const response = await transport.send({
    method: 'GET',
    path: protocolPaths.execResult(sandboxId, execId),
    action: 'fetch the result of a command whose stream was lost',
  });
  const answer = (await response.json()) as { result?: ExecResult; error?: ProtocolError };
  if (answer.error !== undefined) throw fromProtocolError(answer.error);
  const result = answer.result as ExecResult;
  const killed = result.timedOut || result.aborted;
  return {
    ...result,
    ...(killed ? { exitCode: null, aborted: callerAborted, timedOut: !callerAborted } : {}),
  };
}
