/**
 * Conformance cases for the lifecycle capabilities (`adapter.capabilities`): each case checks the
 * operation where the adapter declares it, and that it fails with SandboxError
 * `capability_unsupported` where it does not (a handle without the method at all passes), so no
 * case is ever skipped.
 * - pause: files survive pause and resume, and the sandbox runs commands again;
 * - snapshot: a sandbox created from the snapshot has the files as they were at the snapshot;
 * - fork: each fork sees the parent's files, and its writes stay its own;
 * - extendLifetime: resolves for a positive lifetime, refuses 0 with `invalid_option`.
 * @module
 */
import type { SandboxCapability, SandboxHandle } from '@sandkit/core';
import { describe, expect } from 'vitest';
import { type ConformanceContext, expectSandboxError } from './conformance-context.js';

/** Registers the capability cases (each makes its own sandboxes). */
export function describeCapabilityCases(context: ConformanceContext): void {
  const { test } = context;
  const offers = async (capability: SandboxCapability): Promise<boolean> =>
    (await context.adapter()).capabilities?.[capability] === true;
  const text = async (handle: SandboxHandle, path: string): Promise<string> => {
    const result = await handle.client.exec(`cat ${path} 2>/dev/null || echo missing`);
    return result.stdout;
  };
  const withSandbox = async (body: (handle: SandboxHandle) => Promise<void>): Promise<void> => {
    const handle = await (await context.adapter()).create();
    try {
      await body(handle);
    } finally {
      await handle.destroy();
    }
  };

  describe('capabilities', () => {
    test(
      'capability.pause',
      'keeps files across pause and resume, or refuses with capability_unsupported',
      () =>
        withSandbox(async (handle) => {
          if (!(await offers('pause'))) {
            await expectUnsupported(handle, 'pause');
            await expectUnsupported(handle, 'resume');
            return;
          }
          await handle.client.writeFile('paused.txt', 'kept\n');
          await call(handle, 'pause');
          await call(handle, 'resume');
          expect(await text(handle, 'paused.txt')).toBe('kept\n');
          expect((await handle.client.exec('echo again')).stdout).toBe('again\n');
        }),
      120_000,
    );
    test(
      'capability.snapshot',
      'restores a snapshot into a new sandbox without later writes, or refuses with capability_unsupported',
      () =>
        withSandbox(async (handle) => {
          const adapter = await context.adapter();
          if (!(await offers('snapshot'))) {
            await expectUnsupported(handle, 'snapshot');
            await expectSandboxError(adapter.create({ fromSnapshot: 'any' }), 'capability_unsupported');
            return;
          }
          await handle.client.exec('mkdir -p snap && printf before > snap/a.txt && chmod 750 snap/a.txt');
          const id = await call(handle, 'snapshot');
          expect(typeof id).toBe('string');
          await handle.client.writeFile('snap/b.txt', 'after');
          const restored = await adapter.create({ fromSnapshot: id as string });
          try {
            expect(await text(restored, 'snap/a.txt')).toBe('before');
            expect(await text(restored, 'snap/b.txt')).toBe('missing\n');
            expect((await restored.client.exec('stat -c %a snap/a.txt')).stdout).toBe('750\n');
          } finally {
            await restored.destroy();
          }
        }),
      180_000,
    );
    test(
      'capability.fork',
      "gives each fork the parent's files and keeps each fork's writes its own, or refuses with capability_unsupported",
      () =>
        withSandbox(async (handle) => {
          if (!(await offers('fork'))) {
            await expectUnsupported(handle, 'fork', 1);
            return;
          }
          await handle.client.writeFile('fork/parent.txt', 'from parent');
          const forks = (await call(handle, 'fork', 2)) as SandboxHandle[];
          try {
            expect(forks).toHaveLength(2);
            const [one, two] = forks as [SandboxHandle, SandboxHandle];
            expect(new Set([handle.id, one.id, two.id]).size).toBe(3);
            expect(await text(one, 'fork/parent.txt')).toBe('from parent');
            expect(await text(two, 'fork/parent.txt')).toBe('from parent');
            await one.client.writeFile('fork/one.txt', 'mine');
            await handle.client.writeFile('fork/later.txt', 'parent only');
            expect(await text(two, 'fork/one.txt')).toBe('missing\n');
            expect(await text(handle, 'fork/one.txt')).toBe('missing\n');
            expect(await text(one, 'fork/later.txt')).toBe('missing\n');
          } finally {
            await Promise.all(forks.map((fork) => fork.destroy()));
          }
        }),
      180_000,
    );
    test(
      'capability.extend',
      'extends the lifetime, refusing 0 with invalid_option, or refuses with capability_unsupported',
      () =>
        withSandbox(async (handle) => {
          if (!(await offers('extendLifetime'))) {
            await expectUnsupported(handle, 'extendLifetime', 60_000);
            return;
          }
          await call(handle, 'extendLifetime', 600_000);
          const error = await call(handle, 'extendLifetime', 0).then(
            () => undefined,
            (caught: unknown) => caught,
          );
          expect((error as { code?: string } | undefined)?.code).toBe('invalid_option');
          expect((await handle.client.exec('echo still')).stdout).toBe('still\n');
        }),
      60_000,
    );
  });
}

/**
 * Asserts that an operation the adapter does not declare throws `capability_unsupported`; a handle
 * without the method at all (an adapter written before capabilities) passes.
 */
async function expectUnsupported(
  handle: SandboxHandle,
  name: LifecycleMethod,
  ...args: number[]
): Promise<void> {
  if (handle[name] === undefined) return;
  await expectSandboxError(call(handle, name, ...args), 'capability_unsupported');
}

type LifecycleMethod = 'pause' | 'resume' | 'snapshot' | 'fork' | 'extendLifetime';

/** Calls an optional handle method on the handle; an adapter that lacks it entirely fails the case. */
function call(handle: SandboxHandle, name: LifecycleMethod, ...args: number[]): Promise<unknown> {
  const method = handle[name] as ((...given: number[]) => Promise<unknown>) | undefined;
  if (method === undefined) {
    return Promise.reject(
      new Error(
        `the handle lacks ${name}(): implement it, throwing capability_unsupported when the vendor lacks it`,
      ),
    );
  }
  return method.apply(handle, args);
}
