/**
 * Conformance cases for the sandbox handle: destroy ends the sandbox, a second destroy is a no-op,
 * and every client call after destroy throws SandboxError `sandbox_destroyed`.
 * @module
 */
import { describe, expect } from 'vitest';
import { type ConformanceContext, expectSandboxError } from './conformance-context.js';

/** Registers the lifecycle cases (each makes its own sandbox). */
export function describeLifecycleCases(context: ConformanceContext): void {
  const { test } = context;

  describe('lifecycle', () => {
    test(
      'lifecycle.handle',
      'gives each sandbox its own id and an absolute workdir',
      async () => {
        const adapter = await context.adapter();
        const [one, two] = await Promise.all([adapter.create(), adapter.create()]);
        try {
          expect(one.id).not.toBe(two.id);
          expect(one.workdir.startsWith('/')).toBe(true);
          await one.client.writeFile('only-in-one.txt', '1');
          const check = await two.client.exec(
            `test -e "${one.workdir}/only-in-one.txt" && [ "${one.workdir}" = "${two.workdir}" ] && echo shared || echo separate`,
          );
          expect(check.stdout).toBe('separate\n');
        } finally {
          await Promise.all([one.destroy(), two.destroy()]);
        }
      },
      60_000,
    );
    test(
      'lifecycle.destroy',
      'throws sandbox_destroyed after destroy, and destroy twice is fine',
      async () => {
        const handle = await (await context.adapter()).create();
        await handle.client.exec('echo alive');
        await handle.destroy();
        await expect(handle.destroy()).resolves.toBeUndefined();
        await expectSandboxError(handle.client.exec('echo hi'), 'sandbox_destroyed');
        await expectSandboxError(handle.client.readFile('x.txt'), 'sandbox_destroyed');
        await expectSandboxError(handle.client.writeFile('x.txt', 'x'), 'sandbox_destroyed');
      },
      60_000,
    );
    test(
      'lifecycle.destroy-concurrent',
      'lets two concurrent destroy calls both resolve',
      async () => {
        const handle = await (await context.adapter()).create();
        await expect(Promise.all([handle.destroy(), handle.destroy()])).resolves.toEqual([
          undefined,
          undefined,
        ]);
      },
      60_000,
    );
  });
}
