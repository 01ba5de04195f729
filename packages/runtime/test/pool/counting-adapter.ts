/**
 * A fake adapter for pool tests: counts live sandboxes and injects failures a real vendor cannot
 * be made to produce on demand. Its client is a stub; pool tests never run commands.
 */
import {
  type SandboxAdapter,
  type SandboxClient,
  SandboxError,
  type SandboxHandle,
  SandkitErrorCode,
} from '@sandkit/core';

export interface CountingHandle extends SandboxHandle {
  readonly serial: number;
  destroyed: boolean;
  extendedBy: number[];
  extendLifetime(durationMs: number): Promise<void>;
}

export interface CountingAdapterOptions {
  /** Return true to make the n-th create (1-based) fail. */
  failCreate?: (n: number) => boolean;
  /** Return true to make this destroy attempt fail (the sandbox stays alive). */
  failDestroy?: (handle: CountingHandle, attempt: number) => boolean;
  createDelayMs?: number;
  /** Live sandboxes past which create throws SandboxError `sandbox_rate_limited` (a vendor quota). */
  quota?: number;
}

export interface CountingAdapter extends SandboxAdapter {
  live: number;
  peak: number;
  creates: number;
  rateLimited: number;
  readonly handles: CountingHandle[];
}

const stubClient: SandboxClient = {
  exec: () => Promise.reject(new Error('stub client')),
  readFile: () => Promise.reject(new Error('stub client')),
  writeFile: () => Promise.reject(new Error('stub client')),
};

export function createCountingAdapter(options: CountingAdapterOptions = {}): CountingAdapter {
  const adapter: CountingAdapter = {
    name: 'counting',
    live: 0,
    peak: 0,
    creates: 0,
    rateLimited: 0,
    handles: [],
    async create() {
      const n = ++adapter.creates;
      if (options.createDelayMs) await new Promise((r) => setTimeout(r, options.createDelayMs));
      else await Promise.resolve();
      if (options.quota !== undefined && adapter.live >= options.quota) {
        adapter.rateLimited++;
        throw new SandboxError({
          code: SandkitErrorCode.sandboxRateLimited,
          message: `injected rate limit: ${adapter.live} of ${options.quota} sandboxes alive`,
        });
      }
      if (options.failCreate?.(n)) {
        throw new SandboxError({
          code: SandkitErrorCode.sandboxStartFailed,
          message: `injected create failure #${n}`,
        });
      }
      adapter.live++;
      adapter.peak = Math.max(adapter.peak, adapter.live);
      let attempts = 0;
      const handle: CountingHandle = {
        id: `counting-${n}`,
        serial: n,
        client: stubClient,
        workdir: `/sandbox/${n}`,
        destroyed: false,
        extendedBy: [],
        async extendLifetime(durationMs) {
          handle.extendedBy.push(durationMs);
        },
        async destroy() {
          await Promise.resolve();
          if (handle.destroyed) return;
          attempts++;
          if (options.failDestroy?.(handle, attempts))
            throw new Error(`injected destroy failure of ${handle.id}`);
          handle.destroyed = true;
          adapter.live--;
        },
      };
      adapter.handles.push(handle);
      return handle;
    },
  };
  return adapter;
}
