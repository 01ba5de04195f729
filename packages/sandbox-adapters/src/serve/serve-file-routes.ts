/**
 * `GET` and `PUT /v1/sandboxes/{id}/files?path=…[&mode=…]`: a whole file as the raw body
 * (`application/octet-stream`), read and written by the local adapter, so symlinks, atomic writes,
 * kept modes and every error code are the contract's. The bodies stream on the wire; the server
 * holds one whole file in memory while it reads or writes it, as the contract's `Uint8Array` does.
 * @module
 */
import type { Context } from 'hono';
import { badRequest } from './serve-errors.js';
import type { ServedSandbox } from './serve-sandboxes.js';

/** Answers `GET …/files`: the file's bytes. */
export async function readFileRoute(c: Context, served: ServedSandbox): Promise<Response> {
  const data = await served.handle.client.readFile(pathOf(c), { signal: c.req.raw.signal });
  return new Response(data, {
    status: 200,
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(data.byteLength) },
  });
}

/** Answers `PUT …/files`: writes the body, 204. */
export async function writeFileRoute(c: Context, served: ServedSandbox): Promise<Response> {
  const path = pathOf(c);
  const modeText = c.req.query('mode');
  let mode: number | undefined;
  if (modeText !== undefined) {
    if (!/^[0-7]{1,4}$/.test(modeText))
      throw badRequest(`mode must be 1 to 4 octal digits, got "${modeText}"`);
    mode = Number.parseInt(modeText, 8);
  }
  const data = new Uint8Array(await c.req.arrayBuffer());
  await served.handle.client.writeFile(path, data, {
    signal: c.req.raw.signal,
    ...(mode === undefined ? {} : { mode }),
  });
  return c.body(null, 204);
}

function pathOf(c: Context): string {
  const path = c.req.query('path');
  if (path === undefined) throw badRequest('the path query parameter is missing');
  return path;
}
