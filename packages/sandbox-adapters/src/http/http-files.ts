/**
 * `readFile` and `writeFile` over HTTP: the file's raw bytes as the body of
 * `GET` / `PUT …/files?path=…` (no base64, no archive). Paths are checked here first (an empty
 * path, a NUL byte or a lone surrogate cannot be put in a URL faithfully).
 * @module
 */
import { type SandboxData, SandkitError, SandkitErrorCode, type WriteFileOptions } from '@sandkit/core';
import { checkedPath } from '../paths/checked-path.js';
import { bodyError, type HttpTransport } from './transport/http-transport.js';
import { protocolPaths } from './transport/protocol.js';

/** Reads a whole file. @throws SandboxError / SandkitError as the server reports them */
export async function readHttpFile(
  transport: HttpTransport,
  sandboxId: string,
  path: string,
  signal: AbortSignal | undefined,
): Promise<Uint8Array> {
  const response = await transport.send({
    method: 'GET',
    path: protocolPaths.files(sandboxId),
    query: { path: checkedPath(path) },
    action: `read ${path}`,
    ...(signal === undefined ? {} : { signal }),
  });
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw bodyError(error, `read ${path}`, transport.baseURL);
  }
}

/** Writes a whole file. @throws SandkitError `invalid_option` for a bad mode; as the server reports */
export async function writeHttpFile(
  transport: HttpTransport,
  sandboxId: string,
  path: string,
  data: SandboxData,
  options: WriteFileOptions,
): Promise<void> {
  const checked = checkedPath(path);
  const { mode, signal } = options;
  if (mode !== undefined && (!Number.isInteger(mode) || mode < 0 || mode > 0o7777)) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `mode must be an integer in 0..0o7777, got ${mode}`,
    });
  }
  await transport.send({
    method: 'PUT',
    path: protocolPaths.files(sandboxId),
    query: { path: checked, ...(mode === undefined ? {} : { mode: mode.toString(8) }) },
    body: typeof data === 'string' ? new TextEncoder().encode(data) : data,
    action: `write ${path}`,
    ...(signal === undefined ? {} : { signal }),
  });
}
