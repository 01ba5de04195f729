/**
 * `POST /v1/sandboxes/{id}/exec`: runs one command through the served sandbox and answers an NDJSON
 * stream (`docs/http-protocol.md`): `{"stdout": <base64>}` / `{"stderr": <base64>}` lines as output
 * arrives (only for the streams the request asked for), then one `{"result": ExecResult}` or
 * `{"error": ProtocolError}` line. Output is captured where the command runs, by the local adapter,
 * so without streaming only the capped head and tail cross the wire.
 *
 * Streamed lines are queued without backpressure: a slow client reading a fast command's stream
 * grows the server's memory by what it has not read yet (the capped result itself is bounded).
 * @module
 */
import type { ExecOptions } from '@sandkit/core';
import type { Context } from 'hono';
import { type ExecRequest, execIdPattern, ndjsonMediaType } from '../http/transport/protocol.js';
import { badRequest, toProtocolError } from './serve-errors.js';
import type { ServedSandbox } from './serve-sandboxes.js';

/** Answers one exec request on `served`. @throws SandkitError `invalid_option` for a malformed body */
export async function execRoute(c: Context, served: ServedSandbox): Promise<Response> {
  const request = parseExecRequest(await c.req.json().catch(() => undefined));
  const encoder = new TextEncoder();
  let send: (line: object) => void = () => undefined;
  let finished = false;
  const options: ExecOptions = {
    ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
    ...(request.env === undefined ? {} : { env: request.env }),
    ...(request.stdinBase64 === undefined ? {} : { stdin: Buffer.from(request.stdinBase64, 'base64') }),
    ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
    ...(request.maxOutputBytes === undefined ? {} : { maxOutputBytes: request.maxOutputBytes }),
    ...(request.shell === undefined ? {} : { shell: request.shell }),
    ...(request.stream?.stdout
      ? { onStdout: (chunk: Uint8Array) => send({ stdout: Buffer.from(chunk).toString('base64') }) }
      : {}),
    ...(request.stream?.stderr
      ? { onStderr: (chunk: Uint8Array) => send({ stderr: Buffer.from(chunk).toString('base64') }) }
      : {}),
  };
  const attached = served.execs.has(request.execId);
  const outcome = served.execs.start(request.execId, (signal) =>
    served.handle.client.exec(request.command, { ...options, signal }),
  );
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      send = (line) => {
        if (!finished) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      };
      void outcome.then((ended) => {
        if (finished) return; // the stream was cancelled: the result waits for a GET
        send('result' in ended ? { result: ended.result } : toProtocolError(ended.error).body);
        finished = true;
        controller.close();
        served.execs.delivered(request.execId);
      });
    },
    cancel() {
      // The client went away before the result: kill the run, keep its result for a GET.
      finished = true;
      if (!attached) served.execs.lost(request.execId);
    },
  });
  // node-server aborts the request's signal when the connection closes before the answer ended.
  if (!attached)
    c.req.raw.signal.addEventListener('abort', () => served.execs.lost(request.execId), { once: true });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': ndjsonMediaType, 'cache-control': 'no-store' },
  });
}

/** Checks the JSON body's shape (the contract's own checks of each value run in the adapter). */
function parseExecRequest(body: unknown): ExecRequest {
  if (typeof body !== 'object' || body === null)
    throw badRequest('the exec request body must be a JSON object');
  const request = body as Record<string, unknown>;
  if (typeof request.command !== 'string') throw badRequest('command must be a string');
  if (typeof request.execId !== 'string' || !execIdPattern.test(request.execId))
    throw badRequest('execId must be 1 to 64 of A-Z, a-z, 0-9, _ and -');
  if (request.stdinBase64 !== undefined && typeof request.stdinBase64 !== 'string')
    throw badRequest('stdinBase64 must be a base64 string');
  if (
    request.env !== undefined &&
    (typeof request.env !== 'object' ||
      request.env === null ||
      Object.values(request.env).some((value) => typeof value !== 'string'))
  )
    throw badRequest('env must be an object of string values');
  return request as unknown as ExecRequest;
}
