/**
 * `GET /containers/{id}/archive?path=…` (the request `docker cp c:path -` makes) sent on a socket
 * of its own and read without dockerode or node:http: the response is read with `net`'s `onread`
 * into a reused scratch buffer, and a regular file's data straight into the result buffer
 * (`FirstTarEntryReader.directTarget`), so the file's bytes are copied once, by the kernel, and no
 * JavaScript runs per HTTP chunk. The request is HTTP/1.0, so the engine (Go's net/http, in
 * Docker and Podman alike) sends the tar as it is, ended by closing the connection, with no
 * chunked framing to undo; a chunked reply is decoded all the same.
 *
 * Hand-written for a measured reason: dockerode's `getArchive` stream through tar-stream's
 * `extract` took 1.57× the wall time and 1.57× this process's CPU for a 50 MiB file, and 1.79× the
 * CPU for 1 MiB (bench/docker-archive-libraries.ts, BENCHMARKS.md; on a 2-core machine under load
 * that CPU is wall time). The archive PUT, where dockerode and tar-stream matched or won (0.61× at
 * 50 MiB), goes through them (container-files.ts).
 * @module
 */
import { connect, type Socket } from 'node:net';
import { ChunkedBodyDecoder } from './chunked-body-decoder.js';
import type { DockerConnectionOptions } from './docker-connection.js';
import { FirstTarEntryReader, type TarEntry } from './tar-entry-reader.js';

/** What the engine answered. */
export type ArchiveResponse =
  | { kind: 'entry'; entry: TarEntry }
  /** A status other than 200, with the engine's message (`{"message": …}` body, or its text). */
  | { kind: 'status'; statusCode: number; message: string };

/** Bytes per socket read outside the file's data (headers, tar records, a chunked reply). */
const scratchBytes = 256 * 1024;
/** The file's data is read in place while at least this much of it is still missing. */
const directMinBytes = 16 * 1024;
/** Longest response head or error body kept. */
const headMaxBytes = 64 * 1024;
/** Bytes of a size-hinted result buffer touched per turn of the event loop while the engine prepares. */
export const touchSliceBytes = 4 * 1024 * 1024;

/** Options of {@link requestArchive}. */
export interface ArchiveRequestOptions {
  /** Aborts the request: the socket is destroyed and the promise rejects with `signal.reason`. */
  signal?: AbortSignal;
  /**
   * The size in bytes the caller expects the file to have (from a `stat` just before). When set,
   * the result buffer is allocated as soon as the request is sent and its pages are touched, a
   * slice per turn of the event loop, while the engine prepares the archive (Podman takes 50–300 ms
   * before the first byte), instead of page by page as the data arrives. A file of another size
   * gets a buffer of its own as without the hint.
   */
  sizeHint?: number;
}

/**
 * Requests the archive of `path` in container `containerId` and reads its first entry (a
 * regular file's bytes whole, in one buffer of its size), then closes the connection.
 * @returns the entry, or the engine's status and message when it is not 200 (404: no such
 *   container or path)
 * @throws the socket's error (with its `code`, e.g. `ECONNREFUSED`) when the engine cannot be
 *   reached or the connection breaks; RangeError for a malformed reply or an archive cut short;
 *   `signal.reason` when `signal` aborts
 */
export function requestArchive(
  connection: DockerConnectionOptions,
  containerId: string,
  path: string,
  options: ArchiveRequestOptions = {},
): Promise<ArchiveResponse> {
  const { signal, sizeHint } = options;
  return new Promise<ArchiveResponse>((resolve, reject) => {
    const scratch = Buffer.allocUnsafe(scratchBytes);
    const prepared =
      sizeHint !== undefined && Number.isSafeInteger(sizeHint) && sizeHint >= directMinBytes
        ? Buffer.allocUnsafe(sizeHint)
        : undefined;
    const tar = new FirstTarEntryReader(prepared);
    let head: Buffer | undefined = Buffer.alloc(0); // the status line and headers, until complete
    let statusCode = 0;
    let chunked: ChunkedBodyDecoder | undefined;
    let errorBody: Buffer[] | undefined; // the body of a non-200 reply
    let errorBytes = 0;
    let direct: Buffer | undefined; // the view of the result the current read goes into
    const request = settleOnce<ArchiveResponse>(resolve, reject, signal);
    const settle = request.settle;
    const content = (bytes: Buffer) => {
      if (errorBody === undefined) tar.push(bytes);
      else if (errorBytes < headMaxBytes) {
        errorBody.push(Buffer.from(bytes.subarray(0, headMaxBytes - errorBytes)));
        errorBytes += bytes.length;
      }
    };
    const body = (bytes: Buffer) => {
      if (chunked === undefined) content(bytes);
      else chunked.push(bytes, content);
      if (tar.entry !== undefined) settle({ kind: 'entry', entry: tar.entry });
    };
    const onRead = (count: number, buffer: Uint8Array): boolean => {
      try {
        if (direct !== undefined && buffer === direct) {
          direct = undefined;
          tar.wroteDirect(count);
          if (tar.entry !== undefined) settle({ kind: 'entry', entry: tar.entry });
          return true;
        }
        const bytes = scratch.subarray(0, count);
        if (head === undefined) {
          body(bytes);
          return true;
        }
        head = Buffer.concat([head, bytes]);
        const end = head.indexOf('\r\n\r\n');
        if (end === -1) {
          if (head.length > headMaxBytes) throw new RangeError('the engine sent a response head over 64 KiB');
          return true;
        }
        const rest = head.subarray(end + 4);
        readHead(head.subarray(0, end).toString('latin1'));
        head = undefined;
        if (rest.length > 0) body(rest);
      } catch (error) {
        settle({ error });
      }
      return true;
    };
    const readHead = (text: string) => {
      const [statusLine = '', ...fields] = text.split('\r\n');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
      if (status === null)
        throw new RangeError(
          `the engine sent no HTTP status line: ${JSON.stringify(statusLine.slice(0, 80))}`,
        );
      statusCode = Number(status[1]);
      if (statusCode !== 200) errorBody = [];
      const encoding = fields.find((field) => /^transfer-encoding:/i.test(field));
      if (encoding !== undefined && /chunked/i.test(encoding)) chunked = new ChunkedBodyDecoder();
    };
    const nextBuffer = (): Uint8Array => {
      direct = chunked === undefined && head === undefined ? tar.directTarget(directMinBytes) : undefined;
      return direct ?? scratch;
    };

    if (request.settled) return;
    // Built before connecting: encodeURIComponent throws on a lone surrogate, which here rejects
    // the promise, while inside the socket's callback it would be an uncaught exception.
    const requestHead = archiveRequestHead('GET', containerId, path);
    const socket = connect({
      ...socketAddress(connection),
      onread: { buffer: nextBuffer, callback: onRead },
    });
    request.attach(socket);
    socket.once('connect', () => {
      socket.write(requestHead);
      // Only until the response head arrives: from then on the data is written into `prepared`.
      if (prepared !== undefined) touchPages(prepared, () => head !== undefined && !request.settled);
    });
    socket.on('error', (error) => settle({ error }));
    socket.once('close', () => {
      try {
        if (head !== undefined) throw new RangeError('the engine closed the connection before it answered');
        if (errorBody !== undefined)
          settle({ kind: 'status', statusCode, message: engineMessage(Buffer.concat(errorBody)) });
        else settle({ kind: 'entry', entry: tar.end() });
      } catch (error) {
        settle({ error });
      }
    });
  });
}

/**
 * The one outcome of a request on a socket of its own: the first `settle` resolves or rejects the
 * promise, removes the abort listener and destroys the socket; `signal` aborting settles with its
 * reason (at once when it already has: then `settled` is true before any socket is opened).
 */
function settleOnce<T extends object>(
  resolve: (value: T) => void,
  reject: (reason: unknown) => void,
  signal: AbortSignal | undefined,
): {
  settle: (outcome: T | { error: unknown }) => void;
  attach: (socket: Socket) => void;
  readonly settled: boolean;
} {
  let settled = false;
  let socket: Socket | undefined;
  const settle = (outcome: T | { error: unknown }) => {
    if (settled) return;
    settled = true;
    signal?.removeEventListener('abort', onAbort);
    socket?.destroy();
    if ('error' in outcome) reject(outcome.error);
    else resolve(outcome);
  };
  const onAbort = () => settle({ error: signal?.reason });
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    settle,
    attach: (opened) => {
      socket = opened;
      if (settled) opened.destroy();
    },
    get settled() {
      return settled;
    },
  };
}

/**
 * Writes zeros over `buffer` a slice per turn of the event loop while `keepGoing()` holds, so that
 * its pages are mapped before the data arrives. Fresh pages cost a fault each on first touch (about
 * 12 µs a page on a VM with shadow paging: 150 ms for 50 MiB), which this moves into the engine's
 * wait for the first byte.
 */
export function touchPages(buffer: Buffer, keepGoing: () => boolean): void {
  let at = 0;
  const slice = () => {
    if (at >= buffer.length || !keepGoing()) return;
    const end = Math.min(buffer.length, at + touchSliceBytes);
    buffer.fill(0, at, end);
    at = end;
    setImmediate(slice);
  };
  setImmediate(slice);
}

/**
 * The HTTP/1.0 request line and headers of an archive request on `path` of `containerId`.
 * @throws URIError when `path` holds a lone surrogate (callers check paths first)
 */
function archiveRequestHead(method: 'GET', containerId: string, path: string): string {
  return `${method} /containers/${encodeURIComponent(containerId)}/archive?path=${encodeURIComponent(path)} HTTP/1.0\r\nHost: docker\r\nUser-Agent: sandkit\r\n\r\n`;
}

/** Where `connect` reaches the engine: its unix socket, or its TCP host and port. */
function socketAddress(
  connection: DockerConnectionOptions,
): { path: string } | { host: string; port: number } {
  return 'socketPath' in connection
    ? { path: connection.socketPath }
    : { host: connection.host, port: connection.port };
}

/** The `message` of the engine's JSON error body, else the body's text. */
function engineMessage(body: Buffer): string {
  const text = body.toString('utf8').trim();
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: the text is the message
  }
  return text;
}
