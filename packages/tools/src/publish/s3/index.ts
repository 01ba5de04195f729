/**
 * `@sandkit/tools/s3`: the S3-compatible {@link createS3Publisher} (AWS S3, Cloudflare R2, MinIO)
 * for the `publish` tool. `@aws-sdk/client-s3` and `@aws-sdk/s3-request-presigner` are optional
 * peer dependencies: without them, importing this
 * subpath throws a `SandboxError` (`sandbox_unavailable`) that names the install command.
 * @module
 */
import { requireOptionalPeers } from '@sandkit/core';

/** The command that installs this subpath's optional peers. */
export const s3PublisherInstall = 'npm install @aws-sdk/client-s3@3 @aws-sdk/s3-request-presigner@3';

await requireOptionalPeers({
  subpath: '@sandkit/tools/s3',
  packages: ['@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner'],
  install: s3PublisherInstall,
  load: (name) => import(name),
});
const publisher = await import('./s3-publisher.js');

/** {@inheritDoc createS3Publisher} */
export const createS3Publisher: typeof publisher.createS3Publisher = publisher.createS3Publisher;
export type { S3PublisherOptions } from './s3-publisher.js';
