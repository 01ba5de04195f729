import { ToolError } from '@sandkit/core';

/**
 * Awaits `promise` and returns the ToolError it rejects with.
 * @throws Error when it resolves, or rejects with anything but a ToolError
 */
export async function toolError(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ToolError.isInstance(error)) throw new Error(`expected a ToolError, got ${String(error)}`);
  return error;
}
