/**
 * Starting and reconnecting an E2B sandbox through the SDK (`@e2b/code-interpreter`, whose
 * `Sandbox` extends the `e2b` SDK's), with its failures as SandboxErrors.
 * @module
 */
import { Sandbox as CodeInterpreterSandbox } from '@e2b/code-interpreter';
import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import { RateLimitError, type Sandbox } from 'e2b';
import { lifecycleError } from './e2b-errors.js';

/** Where and how the SDK reaches E2B (every field optional: the SDK's own defaults and env). */
export interface E2BConnection {
  apiKey: string | undefined;
  /** The SDK's debug mode: envd on localhost, no E2B API. */
  debug: boolean;
  sandboxUrl: string | undefined;
  apiUrl: string | undefined;
}

/** The SDK's connection options from {@link E2BConnection}, absent fields left out. */
function sdkOptions(connection: E2BConnection) {
  return {
    ...(connection.apiKey === undefined ? {} : { apiKey: connection.apiKey }),
    ...(connection.debug ? { debug: true } : {}),
    ...(connection.sandboxUrl === undefined ? {} : { sandboxUrl: connection.sandboxUrl }),
    ...(connection.apiUrl === undefined ? {} : { apiUrl: connection.apiUrl }),
  };
}

/**
 * Starts an E2B sandbox from `template` (the SDK's default template when `undefined`).
 * @param timeoutMs the sandbox's lifetime in ms
 * @throws SandboxError `sandbox_rate_limited` for a 429 (a concurrency quota or the request rate:
 *   the pool retries once a slot frees), `sandbox_start_failed` for any other failure.
 */
export async function startE2BSandbox(
  connection: E2BConnection,
  template: string | undefined,
  timeoutMs: number,
  metadata: Record<string, string>,
  network: { allowInternetAccess?: boolean; network?: { allowOut: string[]; denyOut: string[] } } = {},
): Promise<Sandbox> {
  const options = { ...sdkOptions(connection), timeoutMs, metadata, ...network };
  try {
    return (template === undefined
      ? await CodeInterpreterSandbox.create(options)
      : await CodeInterpreterSandbox.create(template, options)) as unknown as Sandbox;
  } catch (cause) {
    throw new SandboxError({
      code:
        cause instanceof RateLimitError
          ? SandkitErrorCode.sandboxRateLimited
          : SandkitErrorCode.sandboxStartFailed,
      message: `cannot create an E2B sandbox: ${(cause as Error).message}; check E2B_API_KEY and the template name`,
      cause,
    });
  }
}

/**
 * Connects to `sandbox` again (E2B `connect`, which also resumes a paused one), with `timeoutMs`
 * as its new lifetime: the SDK sends none unless given one, and E2B then applies its short
 * default (15 s).
 * @throws SandboxError `sandbox_gone` when E2B no longer knows the sandbox (404),
 *   `sandbox_unavailable` for 401, 429 and other failures.
 */
export async function reconnectE2BSandbox(
  connection: E2BConnection,
  sandbox: Sandbox,
  timeoutMs: number,
  action: string,
): Promise<Sandbox> {
  try {
    return (await CodeInterpreterSandbox.connect(sandbox.sandboxId, {
      ...sdkOptions(connection),
      timeoutMs,
    })) as unknown as Sandbox;
  } catch (error) {
    throw await lifecycleError(sandbox, error, action);
  }
}
