/**
 * The vendor packages a `--sandbox` kind needs, checked before a command starts any work: a missing
 * optional peer (`dockerode` for `docker`; `e2b` and `@e2b/code-interpreter` for `e2b`) is a usage
 * error with the install command, not one infrastructure error per instance that retries and
 * `--resume` cannot fix.
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { EvalSandboxKind } from '../eval/eval-sandboxes.js';

/**
 * Loads the adapter subpath of `kind` (which checks its optional peers as it loads).
 * @returns `null` when everything is installed (always for `local`), else the message naming what
 *   to install, prefixed with the flag.
 * @throws whatever else loading the subpath throws (not a missing package).
 */
export async function missingSandboxPackages(kind: EvalSandboxKind): Promise<string | null> {
  try {
    if (kind === 'docker') await import('@sandkit/sandbox-adapters/docker');
    else if (kind === 'e2b') await import('@sandkit/sandbox-adapters/e2b');
    return null;
  } catch (error) {
    if (SandkitError.isInstance(error) && error.code === SandkitErrorCode.sandboxUnavailable)
      return `--sandbox ${kind}: ${error.message}`;
    throw error;
  }
}
