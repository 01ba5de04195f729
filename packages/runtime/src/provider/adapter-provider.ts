import {
  type SandboxAdapter,
  SandboxError,
  type SandboxHandle,
  type SandboxProvider,
  SandkitErrorCode,
} from '@sandkit/core';
import { lendSession } from './lend-session.js';

/**
 * A provider without a pool: every `acquire()` creates a fresh sandbox and every `release()`
 * destroys it. For one-shot use (a CLI call, a single agent run) where warm sandboxes are not worth
 * keeping.
 *
 * @throws SandboxError from `acquire()`: the adapter's error when `create()` fails, `pool_closed`
 *   after `close()`.
 * @throws SandkitError `already_released` from a second `release()` of one session.
 */
export function createAdapterProvider(
  adapter: SandboxAdapter,
  options: { name?: string } = {},
): SandboxProvider {
  const name = options.name ?? adapter.name;
  const live = new Set<SandboxHandle>();
  let closed = false;
  const destroy = async (handle: SandboxHandle): Promise<void> => {
    live.delete(handle);
    await handle.destroy();
  };
  return {
    name,
    async acquire(acquireOptions = {}) {
      if (closed)
        throw new SandboxError({ code: SandkitErrorCode.poolClosed, message: `provider ${name} is closed` });
      const handle = await adapter.create({ signal: acquireOptions.signal });
      if (closed) {
        await handle.destroy();
        throw new SandboxError({
          code: SandkitErrorCode.poolClosed,
          message: `provider ${name} was closed during acquire`,
        });
      }
      live.add(handle);
      return lendSession(handle, name, () => (live.has(handle) ? destroy(handle) : Promise.resolve()));
    },
    async close() {
      closed = true;
      await Promise.allSettled([...live].map(destroy));
    },
  };
}
