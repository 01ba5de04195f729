import { rm } from 'node:fs/promises';
import { SandkitError } from '@sandkit/core';
import { createHttpSandboxAdapter } from '@sandkit/sandbox-adapters/http';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { describe, expect, it } from 'vitest';
import { createPooledSandboxProvider } from '../../src/index.js';

describe('createPooledSandboxProvider', () => {
  describe('when given fromSnapshot', () => {
    it("warms every sandbox from the snapshot: the setup's files are there, later writes are not", async () => {
      const adapter = createLocalSandboxAdapter();
      const setup = await adapter.create();
      await setup.client.exec('mkdir -p repo && printf installed > repo/deps.txt');
      const snapshot = (await setup.snapshot?.()) as string;
      await setup.client.writeFile('repo/after.txt', 'not in the snapshot');
      await setup.destroy();
      const provider = createPooledSandboxProvider({ adapter, min: 2, max: 2, fromSnapshot: snapshot });
      try {
        const [one, two] = await Promise.all([provider.acquire(), provider.acquire()]);
        for (const session of [one, two]) {
          const check = await session.client.exec('cat repo/deps.txt; test -e repo/after.txt || echo absent');
          expect(check.stdout).toBe('installedabsent\n');
        }
        await one.client.writeFile('repo/own.txt', 'one');
        expect((await two.client.exec('test -e repo/own.txt || echo separate')).stdout).toBe('separate\n');
        await Promise.all([one.release(), two.release()]);
      } finally {
        await provider.close();
        await rm(snapshot, { recursive: true, force: true });
      }
    });

    it('refuses an adapter without the snapshot capability with invalid_option', () => {
      const adapter = createHttpSandboxAdapter({ baseURL: 'http://127.0.0.1:9/', auth: 'none' });
      let error: unknown;
      try {
        createPooledSandboxProvider({ adapter, max: 1, fromSnapshot: 'any' });
      } catch (caught) {
        error = caught;
      }
      expect(SandkitError.isInstance(error) && error.code).toBe('invalid_option');
      expect((error as Error).message).toMatch(/capabilities\.snapshot/);
    });
  });
});
