/**
 * An {@link AssetPublisher} for development: copies each file into a host directory, under a fresh
 * random folder, and returns a `file://` URL, or an `http://` one under a base URL you serve the
 * directory at. It cannot make a link expire: `expiresAt` is what was asked, and the file stays
 * until you delete it.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { AssetPublisher, ShareRequest, SharedAsset } from './asset-publisher.js';

/** Options of {@link createLocalDirectoryPublisher}. */
export interface LocalDirectoryPublisherOptions {
  /** Absolute host directory the files are copied into (created when missing). */
  directory: string;
  /**
   * URL the directory is served at (for example `http://localhost:8080/files/`): links are this
   * plus `<random folder>/<filename>`, percent-encoded.
   * @default none: links are `file://` URLs of the copies
   */
  baseUrl?: string;
}

/**
 * Creates the local directory publisher. Each `share` writes `<directory>/<uuid>/<filename>`; a
 * failed copy leaves nothing behind.
 * @throws SandkitError `invalid_option` when `directory` is not absolute or `baseUrl` is not an
 *   `http:` / `https:` URL.
 */
export function createLocalDirectoryPublisher(options: LocalDirectoryPublisherOptions): AssetPublisher {
  const { directory } = options;
  if (typeof directory !== 'string' || !isAbsolute(directory)) {
    invalid(`directory must be an absolute host path, got ${JSON.stringify(directory)}`);
  }
  let base: URL | undefined;
  if (options.baseUrl !== undefined) {
    base = URL.canParse(options.baseUrl) ? new URL(options.baseUrl) : undefined;
    if (!base || !['http:', 'https:'].includes(base.protocol)) {
      invalid(`baseUrl must be an http: or https: URL, got ${JSON.stringify(options.baseUrl)}`);
    }
    if (!base.pathname.endsWith('/')) base.pathname += '/';
  }
  return {
    name: base ? `dir:${directory} (${base.href})` : `dir:${directory}`,
    async share(request: ShareRequest): Promise<SharedAsset> {
      const folder = randomUUID();
      const path = join(directory, folder, request.filename);
      await mkdir(join(directory, folder), { recursive: true });
      const source = 'stream' in request ? request.stream : Readable.from([request.bytes]);
      try {
        await pipeline(source, createWriteStream(path, { flags: 'wx' }), {
          ...(request.signal ? { signal: request.signal } : {}),
        });
      } catch (error) {
        await rm(join(directory, folder), { recursive: true, force: true });
        throw error;
      }
      const expiresAt = new Date(Date.now() + request.expiresInSeconds * 1000);
      const url = base
        ? new URL(`${folder}/${encodeURIComponent(request.filename)}`, base).href
        : pathToFileURL(path).href;
      return { url, expiresAt };
    },
  };
}

function invalid(message: string): never {
  throw new SandkitError({
    code: SandkitErrorCode.invalidOption,
    message: `createLocalDirectoryPublisher: ${message}`,
  });
}
