import {
  type SandboxHandle,
  type SandboxReleaseOptions,
  type SandboxSession,
  SandkitError,
  SandkitErrorCode,
} from '@sandkit/core';

/**
 * Wraps a handle into a {@link SandboxSession} whose `release` runs `giveBack` exactly once.
 *
 * The session exposes the handle's id, client and workdir but not `destroy`: only the provider
 * decides what happens to the sandbox.
 * @throws SandkitError `already_released` from `release()` on a second call (the sandbox is not
 *   returned twice).
 */
export function lendSession(
  handle: SandboxHandle,
  providerName: string,
  giveBack: (options: SandboxReleaseOptions) => Promise<void>,
): SandboxSession {
  let released = false;
  return {
    id: handle.id,
    client: handle.client,
    workdir: handle.workdir,
    providerName,
    async release(options = {}) {
      if (released) {
        throw new SandkitError({
          code: SandkitErrorCode.alreadyReleased,
          message: `sandbox ${handle.id} was already released; release each session once`,
          details: { sandboxId: handle.id, providerName },
        });
      }
      released = true;
      await giveBack(options);
    },
  };
}
