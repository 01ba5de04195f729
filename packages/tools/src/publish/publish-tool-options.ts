/**
 * The options of the publish tool, normalised once.
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { CodingToolOptions } from '../workspace/coding-tool-options.js';
import type { AssetPublisher } from './asset-publisher.js';
import { ddBlockBytes } from './sandbox-file-stream.js';

/** Options of `createPublishTool`. */
export interface PublishToolOptions extends CodingToolOptions {
  /** Where published files go and where their links come from. */
  publisher: AssetPublisher;
  /** Largest file the tool publishes, in bytes. @default 104_857_600 (100 MiB) */
  maxBytes?: number;
  /** Link lifetime when the call gives none, in seconds. @default 3600 (one hour) */
  defaultExpiresInSeconds?: number;
  /** Longest link lifetime a call may ask for, in seconds (SigV4's limit is 604_800). @default 604_800 (7 days) */
  maxExpiresInSeconds?: number;
  /** Bytes read from the sandbox per `exec`, a multiple of 65_536; what waits in host memory at most. @default 4_194_304 (4 MiB) */
  rangeBytes?: number;
}

/** Shortest link lifetime a call may ask for, in seconds. */
export const minPublishExpiresInSeconds = 60;

/** {@link PublishToolOptions} with every default filled in. */
export interface PublishSettings {
  maxBytes: number;
  defaultExpiresInSeconds: number;
  maxExpiresInSeconds: number;
  rangeBytes: number;
}

/** Fills the defaults of {@link PublishToolOptions} once. @throws SandkitError `invalid_option`. */
export function normalizePublishToolOptions(options: PublishToolOptions): PublishSettings {
  if (typeof options?.publisher?.share !== 'function') {
    invalid(
      'publisher must be an AssetPublisher (an object with share()), for example createS3Publisher(...)',
    );
  }
  const settings = {
    maxBytes: options.maxBytes ?? 100 * 1024 * 1024,
    defaultExpiresInSeconds: options.defaultExpiresInSeconds ?? 3600,
    maxExpiresInSeconds: options.maxExpiresInSeconds ?? 604_800,
    rangeBytes: options.rangeBytes ?? 4 * 1024 * 1024,
  };
  for (const [name, value] of Object.entries(settings)) {
    if (!Number.isSafeInteger(value) || value < 1)
      invalid(`${name} must be a positive integer, got ${value}`);
  }
  if (settings.rangeBytes % ddBlockBytes !== 0)
    invalid(`rangeBytes must be a multiple of ${ddBlockBytes}, got ${settings.rangeBytes}`);
  const { defaultExpiresInSeconds: byDefault, maxExpiresInSeconds: max } = settings;
  if (max < minPublishExpiresInSeconds || byDefault < minPublishExpiresInSeconds || byDefault > max) {
    invalid(
      `defaultExpiresInSeconds (${byDefault}) must lie between ${minPublishExpiresInSeconds} and maxExpiresInSeconds (${max})`,
    );
  }
  return settings;
}

function invalid(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message: `createPublishTool: ${message}` });
}
