import { chown, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createE2BSandboxAdapter,
  type E2BSandboxAdapter,
  type E2BSandboxAdapterOptions,
  type E2BSandboxHandle,
} from '../../src/e2b/index.js';
import type { E2BApiFake } from '../../src/e2b-stand-in/index.js';

/** The API key the tests' fakes accept. */
export const fakeApiKey = 'e2b_sandkit_test_key';

/**
 * The real E2B adapter outside debug mode, against {@link E2BApiFake} (REST API and proxy). Each
 * sandbox gets its own working directory, owned by the sandbox user, which `destroy()` removes
 * (on this shared host every stand-in sandbox has the same /home/user).
 */
export function createFakeCloudE2BAdapter(
  fake: E2BApiFake,
  options: E2BSandboxAdapterOptions = {},
): E2BSandboxAdapter {
  return {
    name: 'e2b-fake-cloud',
    capabilities: createE2BSandboxAdapter({ apiKey: fakeApiKey, ...options }).capabilities,
    async create(createOptions = {}) {
      const workdir = await mkdtemp(join(tmpdir(), 'sandkit-e2b-work-'));
      if (process.getuid?.() === 0) {
        const { uid, gid } = await stat('/home/user');
        await chown(workdir, uid, gid);
      }
      const adapter = createE2BSandboxAdapter({
        apiKey: fakeApiKey,
        apiUrl: fake.url,
        sandboxUrl: fake.url,
        workdir,
        ...options,
      });
      const handle = await adapter.create(createOptions).catch(async (error: unknown) => {
        await rm(workdir, { recursive: true, force: true });
        throw error;
      });
      return Object.assign(Object.create(handle) as E2BSandboxHandle, {
        id: handle.id,
        client: handle.client,
        workdir: handle.workdir,
        async destroy() {
          try {
            await handle.destroy();
          } finally {
            await rm(workdir, { recursive: true, force: true });
          }
        },
      });
    },
  };
}
