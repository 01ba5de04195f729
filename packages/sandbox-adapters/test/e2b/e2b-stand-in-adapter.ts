import type { SandboxAdapter, SandboxCreateOptions, SandboxHandle } from '@sandkit/core';
import type { ConformanceFaults } from '../../src/conformance/index.js';
import {
  createE2BSandboxAdapter,
  type E2BSandboxAdapterOptions,
  type E2BSandboxHandle,
} from '../../src/e2b/index.js';
import { type E2BStandIn, startE2BStandIn } from '../../src/e2b-stand-in/index.js';

/**
 * The real E2B adapter and SDK in debug mode, each sandbox backed by its own envd stand-in on
 * its own port. Destroying the sandbox also stops its stand-in.
 */
export interface StandInE2BAdapter extends SandboxAdapter {
  create(options?: SandboxCreateOptions): Promise<StandInE2BHandle>;
}

/** A handle of {@link createStandInE2BAdapter}: the E2B handle plus its stand-in. */
export type StandInE2BHandle = E2BSandboxHandle & {
  standIn: E2BStandIn;
  standInUrl: string;
  stopStandIn(): Promise<void>;
};

/** Fault hooks for the conformance suite: the stand-in's sandbox disappears, or drops its streams. */
export const standInFaults: ConformanceFaults = {
  disappear: (handle: SandboxHandle) => (handle as StandInE2BHandle).standIn.disappear(),
  endTransport: async (handle: SandboxHandle) => (handle as StandInE2BHandle).standIn.dropStreams(),
};

export function createStandInE2BAdapter(options: E2BSandboxAdapterOptions = {}): StandInE2BAdapter {
  return {
    name: 'e2b-stand-in',
    capabilities: createE2BSandboxAdapter({ ...options, debug: true }).capabilities,
    async create(createOptions = {}) {
      const standIn = await startE2BStandIn();
      const adapter = createE2BSandboxAdapter({
        ...options,
        debug: true,
        sandboxUrl: standIn.url,
        workdir: standIn.root,
      });
      const handle = await adapter.create(createOptions).catch(async (error: unknown) => {
        await standIn.close();
        throw error;
      });
      return {
        id: handle.id,
        client: handle.client,
        workdir: handle.workdir,
        sandbox: handle.sandbox,
        standIn,
        standInUrl: standIn.url,
        stopStandIn: () => standIn.close(),
        extendLifetime: (ms: number) => handle.extendLifetime(ms),
        pause: () => handle.pause(),
        resume: () => handle.resume(),
        snapshot: () => handle.snapshot(),
        fork: (count: number) => handle.fork(count),
        async destroy() {
          await handle.destroy();
          await standIn.close();
        },
      };
    },
  };
}
