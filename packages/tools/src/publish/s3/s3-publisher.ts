/**
 * The S3-compatible {@link AssetPublisher}: uploads through the official AWS SDK for JavaScript v3
 * (`@aws-sdk/client-s3`; one PutObject for a file of one part, else a multipart upload with bounded
 * parts in flight, aborted on failure: upload-stream.ts) and returns a presigned GET URL
 * (`@aws-sdk/s3-request-presigner`, Signature Version 4 query authentication, whose
 * `X-Amz-Expires` is at most 604_800 seconds).
 *
 * Host memory while streaming is about `partSizeBytes × queueSize` plus the range the sandbox
 * stream holds (see BENCHMARKS.md, publish-memory, for the 50 MiB figure).
 * @module
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { GetObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import contentDisposition from 'content-disposition';
import type { AssetPublisher, ShareRequest, SharedAsset } from '../asset-publisher.js';
import { uploadStream } from './upload-stream.js';

/** S3's smallest part of a multipart upload (except the last): 5 MiB. */
export const minPartSizeBytes = 5 * 1024 * 1024;

/** Options of {@link createS3Publisher}. */
export interface S3PublisherOptions {
  /** Bucket name (S3 naming rules; the bucket must exist). */
  bucket: string;
  /**
   * Key prefix; a `/` is added when it has none at the end. Each file is stored at
   * `<prefix><uuid>/<filename>`, so names never collide and keys are not guessable.
   * @default '' (the bucket's top)
   */
  prefix?: string;
  /**
   * An `S3Client` you configured. When absent one is made from `region`, `endpoint`,
   * `forcePathStyle` and `credentials`, each falling back to the SDK's usual sources
   * (`AWS_REGION`, `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID` and the shared
   * config files), with checksums only where S3 requires them (`requestChecksumCalculation:
   * 'WHEN_REQUIRED'`), which S3-compatible stores accept.
   */
  client?: S3Client;
  /** Region, for example `us-east-1`; `auto` for Cloudflare R2. @default the SDK's (AWS_REGION, config files) */
  region?: string;
  /** Endpoint of an S3-compatible store, for example `https://<account>.r2.cloudflarestorage.com`. @default AWS S3 */
  endpoint?: string;
  /** Path-style URLs (`endpoint/bucket/key`), which MinIO and most local stores need. @default false */
  forcePathStyle?: boolean;
  /** Credentials. @default the SDK's default provider chain */
  credentials?: S3ClientConfig['credentials'];
  /** Bytes per multipart part, at least 5 MiB. @default 5_242_880 (5 MiB) */
  partSizeBytes?: number;
  /** Parts uploaded at once (each holds one part in host memory). @default 1 */
  queueSize?: number;
}

/**
 * Creates an S3-compatible publisher. Each `share` uploads the file with its `Content-Type` and a
 * `Content-Disposition: inline; filename="<ASCII>"; filename*=UTF-8''<name>` (RFC 6266, via the
 * `content-disposition` package) and
 * signs a GET URL for `expiresInSeconds` (a URL signed with temporary credentials stops working
 * when they expire, if that is sooner).
 * @throws SandkitError `invalid_option` for an empty bucket, a part size under 5 MiB or a queue
 *   size under 1. Upload errors reject `share` with the SDK's error (its message names the S3 error
 *   code, for example `NoSuchBucket`), the multipart upload aborted.
 */
export function createS3Publisher(options: S3PublisherOptions): AssetPublisher {
  if (typeof options?.bucket !== 'string' || options.bucket === '') invalid('bucket must be a bucket name');
  const partSize = options.partSizeBytes ?? minPartSizeBytes;
  const queueSize = options.queueSize ?? 1;
  if (!Number.isSafeInteger(partSize) || partSize < minPartSizeBytes) {
    invalid(
      `partSizeBytes must be an integer of at least ${minPartSizeBytes} (S3's smallest part), got ${partSize}`,
    );
  }
  if (!Number.isSafeInteger(queueSize) || queueSize < 1)
    invalid(`queueSize must be a positive integer, got ${queueSize}`);
  const raw = options.prefix ?? '';
  const prefix = raw === '' || raw.endsWith('/') ? raw.replace(/^\/+/, '') : `${raw.replace(/^\/+/, '')}/`;
  const client =
    options.client ??
    new S3Client({
      ...(options.region ? { region: options.region } : {}),
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.forcePathStyle ? { forcePathStyle: true } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  const bucket = options.bucket;
  return {
    name: `s3://${bucket}/${prefix}`,
    async share(request: ShareRequest): Promise<SharedAsset> {
      const key = `${prefix}${randomUUID()}/${request.filename}`;
      const stream = 'stream' in request ? request.stream : Readable.from([request.bytes]);
      try {
        await uploadStream({
          client,
          bucket,
          key,
          stream,
          size: request.size,
          contentType: request.contentType,
          contentDisposition: contentDisposition(request.filename, {
            type: 'inline',
            fallback: asciiFallback(request.filename),
          }),
          partSize,
          queueSize,
          ...(request.signal ? { signal: request.signal } : {}),
        });
      } catch (error) {
        // the body's own failure is the reason, whatever the SDK made of it
        throw withHint(stream.errored ?? error);
      }
      // X-Amz-Date has whole seconds: sign at a whole second so expiresAt is exact
      const signingDate = new Date(Math.floor(Date.now() / 1000) * 1000);
      const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), {
        expiresIn: request.expiresInSeconds,
        signingDate,
      });
      return { url, expiresAt: new Date(signingDate.getTime() + request.expiresInSeconds * 1000) };
    },
  };
}

/**
 * The name in printable ASCII for `filename=` (diacritics dropped, other characters `_`): S3 signs
 * and stores header values as ASCII; the full name goes in `filename*` (RFC 5987).
 */
function asciiFallback(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_');
}

/** The SDK's error, with what to do added where its own message does not say. */
function withHint(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (/region is missing/i.test(error.message)) {
    error.message += ' (set AWS_REGION, or pass region; "auto" for Cloudflare R2)';
  } else if (error.name === 'CredentialsProviderError') {
    error.message += ' (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or pass credentials)';
  }
  return error;
}

function invalid(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message: `createS3Publisher: ${message}` });
}
