import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with one `POST /files`: `received` runs once it holds the whole body and
 * before it sends it on (the client may have given up by then), `answered` once the sandbox wrote
 * the file and answered, before the answer goes back to the client.
 */
export interface UploadHold {
  received?(): Promise<void>;
  answered?(): Promise<void>;
}

/** A proxy in front of a stand-in's envd: the SDK's `sandboxUrl`, and the uploads it forwarded. */
export interface UploadHoldingProxy {
  readonly url: string;
  /** The `path` of each upload, in arrival order, and the promise of its forwarding's end. */
  readonly uploads: { path: string; done: Promise<void> }[];
  close(): Promise<void>;
}

/**
 * Forwards every request to `target` as it comes, except uploads (`POST /files`): those it holds
 * whole before sending them on, as E2B's proxy may, with the hooks `hold(path)` gives.
 */
export async function startUploadHoldingProxy(
  target: string,
  hold: (path: string) => UploadHold,
): Promise<UploadHoldingProxy> {
  const uploads: UploadHoldingProxy['uploads'] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', target);
    if (request.method === 'POST' && url.pathname === '/files') {
      const path = url.searchParams.get('path') ?? '';
      const done = forwardHeld(request, response, url, hold(path)).catch(() => {
        response.destroy(); // the client went away before its whole body arrived
      });
      uploads.push({ path, done });
      return;
    }
    const upstream = httpRequest(url, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    response.on('close', () => upstream.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    uploads,
    close: () => {
      server.closeAllConnections();
      return new Promise((done) => server.close(() => done()));
    },
  };
}

async function forwardHeld(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  hold: UploadHold,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  await hold.received?.();
  const headers = { ...request.headers };
  delete headers['transfer-encoding'];
  headers['content-length'] = String(Buffer.concat(chunks).byteLength);
  const answer = await new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>(
    (resolve, reject) => {
      const upstream = httpRequest(url, { method: 'POST', headers }, (reply) => {
        const parts: Buffer[] = [];
        reply.on('data', (part: Buffer) => parts.push(part));
        reply.on('end', () =>
          resolve({ status: reply.statusCode ?? 502, headers: reply.headers, body: Buffer.concat(parts) }),
        );
        reply.on('error', reject);
      });
      upstream.on('error', reject);
      upstream.end(Buffer.concat(chunks));
    },
  );
  await hold.answered?.();
  if (!response.destroyed) response.writeHead(answer.status, answer.headers).end(answer.body);
}
