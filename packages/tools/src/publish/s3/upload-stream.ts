/**
 * One object from a stream of known size, with the SDK's own commands: a PutObject for a file of
 * at most one part, else CreateMultipartUpload, UploadPart for each part, CompleteMultipartUpload,
 * and AbortMultipartUpload on any failure (S3 API reference, "Uploading and copying objects using
 * multipart upload"; parts of 5 MiB to 5 GiB, the last smaller; at most 10,000).
 *
 * Why not `@aws-sdk/lib-storage`'s `Upload`: it gathers each part with `Buffer.concat` into a
 * fresh buffer (and keeps the rest as a view of it), so a 50 MiB file allocates 50 MiB more that V8
 * frees only when its external-memory limit triggers a collection. bench/publish-memory.ts measured
 * 35–56 MiB of peak RSS growth for 50 MiB with it (queueSize 1 and 2), over the 32 MiB goal. Here
 * each part slot is one buffer allocated once and refilled, so what is held is
 * `queueSize × partSize` plus the chunk in hand (BENCHMARKS.md, publish-memory).
 * @module
 */
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  type CompletedPart,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';

/** What {@link uploadStream} uploads and where. */
export interface UploadStreamRequest {
  client: S3Client;
  bucket: string;
  key: string;
  stream: Readable;
  /** Exact bytes the stream yields. */
  size: number;
  contentType: string;
  contentDisposition: string;
  partSize: number;
  queueSize: number;
  signal?: AbortSignal;
}

/**
 * Uploads `stream` as `key`.
 * @throws the stream's error, or the SDK's, after aborting a multipart upload it started; an
 *   `Error` when the stream yields more or fewer bytes than `size`.
 */
export async function uploadStream(request: UploadStreamRequest): Promise<void> {
  const { client, bucket: Bucket, key: Key, signal } = request;
  const headers = { ContentType: request.contentType, ContentDisposition: request.contentDisposition };
  const chunks = request.stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  const fill = partFiller(chunks, request.size);
  if (request.size <= request.partSize) {
    const body = Buffer.allocUnsafe(request.size);
    const length = await fill(body);
    await fill.end();
    await client.send(
      new PutObjectCommand({
        Bucket,
        Key,
        Body: body.subarray(0, length),
        ContentLength: length,
        ...headers,
      }),
      signal ? { abortSignal: signal } : {},
    );
    return;
  }
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key, ...headers }));
  try {
    const parts: CompletedPart[] = [];
    const free: Buffer[] = [];
    const running = new Set<Promise<void>>();
    let slots = 0;
    for (let PartNumber = 1; ; PartNumber++) {
      if (free.length === 0 && slots < request.queueSize) {
        free.push(Buffer.allocUnsafe(request.partSize));
        slots++;
      }
      while (free.length === 0) await Promise.race(running);
      const buffer = free.pop()!;
      const length = await fill(buffer);
      if (length === 0) {
        free.push(buffer);
        break;
      }
      const sending = client
        .send(
          new UploadPartCommand({
            Bucket,
            Key,
            UploadId,
            PartNumber,
            Body: buffer.subarray(0, length),
            ContentLength: length,
          }),
          signal ? { abortSignal: signal } : {},
        )
        .then((sent) => {
          parts.push({ PartNumber, ETag: sent.ETag });
          free.push(buffer);
        });
      running.add(sending);
      // a failed part ends the upload at the next wait for a free slot, or at the end
      void sending.then(
        () => running.delete(sending),
        () => undefined,
      );
    }
    await Promise.all(running);
    await fill.end();
    parts.sort((a, b) => a.PartNumber! - b.PartNumber!);
    await client.send(
      new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }),
    );
  } catch (error) {
    // best effort: the error that stopped the upload is the one to report
    await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
    throw error;
  }
}

/**
 * A function filling a buffer with the stream's next bytes (copying each chunk, keeping the rest of
 * one that does not fit for the next call); it returns how many it put, 0 at the end. `end()`
 * checks that the stream ended at exactly `size` bytes.
 */
function partFiller(
  chunks: AsyncIterator<Uint8Array>,
  size: number,
): ((buffer: Buffer) => Promise<number>) & { end(): Promise<void> } {
  let rest: Uint8Array | undefined;
  let total = 0;
  let done = false;
  const fill = async (buffer: Buffer): Promise<number> => {
    let length = 0;
    while (length < buffer.length) {
      if (!rest) {
        if (done) break;
        const next = await chunks.next();
        if (next.done) {
          done = true;
          break;
        }
        rest = next.value;
      }
      const take = Math.min(rest.length, buffer.length - length);
      buffer.set(rest.subarray(0, take), length);
      length += take;
      rest = take === rest.length ? undefined : rest.subarray(take);
    }
    total += length;
    if (total > size) throw new Error(`the stream yielded more than its ${size} bytes`);
    return length;
  };
  return Object.assign(fill, {
    async end(): Promise<void> {
      if (!done && !rest) done = (await chunks.next()).done === true;
      if (!done || rest || total !== size) {
        throw new Error(`the stream yielded ${total} bytes${done ? '' : ' and more'}, not its ${size}`);
      }
    },
  });
}
