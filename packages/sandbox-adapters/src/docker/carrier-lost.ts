/**
 * The error of a run whose carrier (the channel's shell or a plain exec's wrapper) ended while the
 * command was still running, so its end is unknown. carry-command.ts turns it into a kill of the
 * command's group and a timed-out result.
 * @module
 */
import { SandboxError, SandkitErrorCode } from '@sandkit/core';

const marker = 'sandkit.docker.carrierLost';

/** A SandboxError `sandbox_unavailable` marked as a lost carrier. */
export function carrierLost(message: string): SandboxError {
  return new SandboxError({
    code: SandkitErrorCode.sandboxUnavailable,
    message: `${message}; its result is unknown`,
    details: { [marker]: true },
  });
}

/** `true` for an error made by {@link carrierLost}. */
export function isCarrierLost(error: unknown): boolean {
  return (
    SandboxError.isInstance(error) &&
    (error.details as Record<string, unknown> | undefined)?.[marker] === true
  );
}
