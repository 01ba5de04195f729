/**
 * Content revisions: a short hash of a file's bytes that read_file returns and edit_file checks,
 * so an edit based on a stale read fails instead of overwriting someone else's change.
 * @module
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** Hex digits kept of the SHA-256 digest (64 bits: collisions are not a practical concern here). */
export const revisionHexLength = 16;

/**
 * Files up to this size (bytes) get a revision from read_file (computed in the sandbox with
 * `sha256sum`) and can be edited with edit_file (read whole into host memory).
 * @default 10 MiB
 */
export const maxRevisionBytes = 10 * 1024 * 1024;

/** The revision of `bytes`: the first {@link revisionHexLength} hex digits of their SHA-256. */
export function contentRevision(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, revisionHexLength);
}

/** The revision from a full hex SHA-256 digest (as printed by `sha256sum`), or `null` when it is not one. */
export function revisionFromDigest(hex: string): string | null {
  return /^[0-9a-f]{64}$/.test(hex) ? hex.slice(0, revisionHexLength) : null;
}

/**
 * The `expectedRevision` input field of write_file and edit_file: the revision read_file returned
 * (8–64 lowercase hex digits); `action` names what fails when the file has changed since.
 */
export function expectedRevisionField(action: 'write' | 'edit') {
  return z
    .string()
    .regex(/^[0-9a-f]+$/)
    .min(8)
    .max(64)
    .optional()
    .describe(`The revision read_file returned; the ${action} fails if the file has changed since.`);
}
