/**
 * The contract between the `publish` tool and where a published file goes (an S3-compatible bucket,
 * a local directory, or your own store): take the bytes, give back a link a person can open.
 * @module
 */
import type { Readable } from 'node:stream';

/** What {@link AssetPublisher.share} publishes: one file, as bytes or as a stream. */
export type ShareRequest = ShareRequestFields & ({ bytes: Uint8Array } | { stream: Readable });

/** The fields of every {@link ShareRequest}. */
export interface ShareRequestFields {
  /**
   * The name a person sees when they download it (a base name, no `/`; any Unicode). Publishers
   * put it in the link's path and in a `Content-Disposition` header.
   */
  filename: string;
  /** Media type served with the file, for example `application/pdf` or `text/plain; charset=utf-8`. */
  contentType: string;
  /** Seconds the link works, from now. The `publish` tool passes 1 to 604_800 (7 days). */
  expiresInSeconds: number;
  /**
   * The file's size in bytes. With `stream` it is the exact number of bytes the stream yields (a
   * publisher may send it as `Content-Length` or pick its part size from it).
   */
  size: number;
  /** Aborted when the caller gives up: the publisher stops and cleans up what it started. */
  signal?: AbortSignal;
}

/** What {@link AssetPublisher.share} gives back. */
export interface SharedAsset {
  /** The link. Anyone who has it can download the file until {@link SharedAsset.expiresAt}. */
  url: string;
  /**
   * When the link stops working. A publisher that cannot enforce expiry (a local directory) says so
   * in its own docs; the date is still what was asked.
   */
  expiresAt: Date;
}

/**
 * Stores one file and returns a link to it. Implement it to publish anywhere; sandkit ships
 * `createS3Publisher` (`@sandkit/tools/s3`) and {@link createLocalDirectoryPublisher}.
 *
 * A stream request must be read at the pace the publisher sends (that is how a large file from the
 * sandbox stays out of host memory); a publisher that fails throws any error, and the `publish`
 * tool returns its message to the model as a `publish_failed` tool error.
 */
export interface AssetPublisher {
  /** Short name shown in results and logs, for example `s3://bucket/prefix` or `dir:/srv/files`. */
  readonly name: string;
  share(request: ShareRequest): Promise<SharedAsset>;
}
