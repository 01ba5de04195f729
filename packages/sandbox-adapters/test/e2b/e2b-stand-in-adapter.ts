import type { SandboxAdapter } from '@sandkit/core';
import { createE2BSandboxAdapter, type E2BSandboxAdapterOptions, type E2BSandboxHandle } from '../../src/e2b/index.js';
import { startE2BStandIn } from '../../src/e2b-stand-in/index.js';

/**
 * The real E2B adapter and SDK in debug mode, each sandbox backed by its own envd stand-in on
 * its own port. Destroying the sandbox also stops its stand-in.
 */
export interface StandInE2BAdapter extends SandboxAdapter {
  create(): Promise<E2BSandboxHandle & { standInUrl: string; stopStandIn(): Promise<void> }>;
}

export function createStandInE2BAdapter(options: E2BSandboxAdapterOptions = {}): StandInE2BAdapter {
  return {
    name: 'e2b-stand-in',
    async create() {
      const standIn = await startE2BStandIn();
      const adapter = createE2BSandboxAdapter({ ...options, debug: true, sandboxUrl: standIn.url, workdir: standIn.root });
      const handle = await adapter.create();
      return {
        id: handle.id,
        client: handle.client,
        workdir: handle.workdir,
        sandbox: handle.sandbox,
        standInUrl: standIn.url,
        stopStandIn: () => standIn.close(),
        extendLifetime: (ms: number) => handle.extendLifetime(ms),
        pause: () => handle.pause(),
        resume: () => handle.resume(),
        async destroy() {
          await handle.destroy();
          await standIn.close();
        },
      };
    },
  };
}
