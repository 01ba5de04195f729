/**
 * createS3Publisher through the real AWS SDK for JavaScript v3 (client-s3, lib-storage,
 * s3-request-presigner) against the local S3 stand-in (s3rver, s3-stand-in.ts), and the links
 * fetched with plain fetch.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { type SandboxHandle, SandkitError, SandkitErrorCode } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishTool } from '../../src/publish/publish.js';
import { createS3Publisher } from '../../src/publish/s3/index.js';
import { toolError } from '../tool-error.js';
import { type S3StandIn, startS3StandIn } from './s3-stand-in.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let s3: S3StandIn;
let sandbox: SandboxHandle;
beforeAll(async () => {
  [s3, sandbox] = await Promise.all([startS3StandIn(), createLocalSandboxAdapter().create()]);
});
afterAll(async () => {
  await Promise.all([s3?.stop(), sandbox?.destroy()]);
});

const publisherFor = (bucket = s3.bucket, prefix = 'agent-runs/today') =>
  createS3Publisher({
    bucket,
    prefix,
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: s3.credentials,
  });
const publishTool = (bucket?: string) =>
  createPublishTool(sandbox.client, { root: sandbox.workdir, publisher: publisherFor(bucket) });

describe('createS3Publisher', () => {
  describe('when the publish tool sends a 12 MiB file (a multipart upload of three parts)', () => {
    it('gives a presigned URL that plain fetch downloads as the same bytes, type and name', async () => {
      const bytes = randomBytes(12 * 1024 * 1024);
      const name = 'Übersicht des Laufs.bin';
      await sandbox.client.writeFile(`${sandbox.workdir}/${name}`, bytes);
      const result = await publishTool().call({ path: name });
      expect(result).toMatchObject({
        bytes: bytes.length,
        sha256: sha256(bytes),
        contentType: 'application/octet-stream',
      });
      const url = new URL(result.url);
      expect(url.origin).toBe(s3.endpoint);
      expect(decodeURIComponent(url.pathname)).toMatch(
        new RegExp(`^/${s3.bucket}/agent-runs/today/[0-9a-f-]{36}/${name}$`),
      );
      expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
      expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
      const response = await fetch(result.url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/octet-stream');
      expect(response.headers.get('content-disposition')).toBe(
        `inline; filename="Ubersicht des Laufs.bin"; filename*=UTF-8''%C3%9Cbersicht%20des%20Laufs.bin`,
      );
      expect(sha256(Buffer.from(await response.arrayBuffer()))).toBe(sha256(bytes));
    });
  });

  describe('when a link is past its expiry', () => {
    it('downloads before expiresAt and is refused with 403 "Request has expired" after', async () => {
      const publisher = publisherFor();
      const bytes = Buffer.from('short-lived\n');
      const shared = await publisher.share({
        stream: Readable.from([bytes]),
        size: bytes.length,
        filename: 'short.txt',
        contentType: 'text/plain; charset=utf-8',
        expiresInSeconds: 1,
      });
      const lifetimeMs = shared.expiresAt.getTime() - Date.now();
      expect(lifetimeMs).toBeLessThanOrEqual(1000);
      const early = await fetch(shared.url);
      expect(early.status).toBe(200);
      expect(await early.text()).toBe('short-lived\n');
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, lifetimeMs) + 1100));
      const late = await fetch(shared.url);
      expect(late.status).toBe(403);
      const body = await late.text();
      expect(body).toContain('<Code>AccessDenied</Code>');
      expect(body).toContain('Request has expired');
    });
  });

  describe('when the bucket does not exist', () => {
    it('makes the tool return publish_failed naming NoSuchBucket', async () => {
      await sandbox.client.writeFile(`${sandbox.workdir}/a.txt`, 'a\n');
      const error = await toolError(publishTool('no-such-bucket').call({ path: 'a.txt' }));
      expect(error.code).toBe(SandkitErrorCode.publishFailed);
      expect(error.message).toMatch(
        /^publishing a\.txt to s3:\/\/no-such-bucket\/agent-runs\/today\/ failed: .*bucket does not exist/,
      );
    });
  });

  describe('when the stream fails after the first parts were sent', () => {
    it('rejects with the stream error and leaves no object behind', async () => {
      const prefix = `failing-${Date.now()}`;
      const publisher = publisherFor(s3.bucket, prefix);
      async function* failing() {
        for (let i = 0; i < 3; i++) yield randomBytes(4 * 1024 * 1024);
        throw new Error('the sandbox went away');
      }
      await expect(
        publisher.share({
          stream: Readable.from(failing(), { highWaterMark: 1 }),
          size: 20 * 1024 * 1024,
          filename: 'partial.bin',
          contentType: 'application/octet-stream',
          expiresInSeconds: 60,
        }),
      ).rejects.toThrow('the sandbox went away');
      const client = new S3Client({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: s3.credentials,
      });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
      expect(listed.KeyCount ?? 0).toBe(0);
    });
  });

  describe('when options are out of bounds', () => {
    it.each([
      [{ bucket: '' }, 'bucket must be a bucket name'],
      [{ bucket: 'b', partSizeBytes: 1024 }, 'partSizeBytes must be an integer of at least 5242880'],
      [{ bucket: 'b', queueSize: 0 }, 'queueSize must be a positive integer'],
    ])('throws SandkitError invalid_option for %j', (options, message) => {
      const error = (() => {
        try {
          createS3Publisher(options);
        } catch (caught) {
          return caught;
        }
      })();
      expect(SandkitError.isInstance(error) && error.code).toBe(SandkitErrorCode.invalidOption);
      expect((error as Error).message).toContain(message);
    });
  });
});
