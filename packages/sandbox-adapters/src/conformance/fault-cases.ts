/**
 * Conformance cases for faults a remote sandbox meets and a local one must survive the same way
 * (issue 13): binary stdout counted byte for byte, a write into a directory the sandbox user
 * cannot write, a sandbox that disappears between calls, and a deadline that ends the adapter's
 * transport while the command still runs.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { formatCommand, SandboxError, type SandboxHandle } from '@sandkit/core';
import { describe, expect } from 'vitest';
import {
  type ConformanceContext,
  describeResult,
  expectSandboxError,
  processesWithMarker,
  processMarker,
  waitForNoProcesses,
} from './conformance-context.js';

/** Registers the fault cases. */
export function describeFaultCases(context: ConformanceContext): void {
  const { test, scaled } = context;
  const client = () => context.client();
  /**
   * Registers a case that needs a fault hook; without the hook the case is skipped with a note that
   * names the hook and how to provide it (vitest `context.skip(note)`).
   */
  const withHook =
    (hook: keyof typeof context.faults): typeof test =>
    (id, title, body, timeoutMs) =>
      test(
        id,
        title,
        async (testContext) => {
          if (context.faults[hook] === undefined)
            testContext.skip(
              `needs faults.${hook}: pass { faults: { ${hook}: async (handle) => … } } to describeSandboxConformance (see ConformanceFaults)`,
            );
          await body(testContext);
        },
        timeoutMs,
      );

  describe('faults', () => {
    test(
      'fault.binary-stdout',
      'counts non-UTF-8 stdout byte for byte and decodes those exact bytes',
      async () => {
        const bytes = randomBytes(1000);
        bytes[0] = 0xff; // never valid UTF-8
        await client().writeFile('fault-binary.bin', bytes);
        const result = await client().exec('cat fault-binary.bin');
        expect(result, describeResult(result)).toMatchObject({
          exitCode: 0,
          stdoutBytes: 1000,
          stdoutTruncated: false,
        });
        expect(result.stdout).toBe(bytes.toString('utf8'));
      },
    );

    test(
      'fault.unwritable-dir',
      'fails clearly when the sandbox user may not write the directory, and leaves nothing behind',
      async () => {
        const dir = `fault-locked-${randomBytes(4).toString('hex')}`;
        // A directory without write permission; a sandbox user who is root writes anyway, so then
        // use /proc, where nobody can create a file.
        const setup = await client().exec(
          `mkdir ${dir} && chmod 555 ${dir} && if (: > ${dir}/.probe) 2>/dev/null; then rm -f ${dir}/.probe; echo root; else echo user; fi`,
        );
        expect(setup.exitCode, describeResult(setup)).toBe(0);
        const target = setup.stdout.trim() === 'root' ? '/proc/sandkit-fault.txt' : `${dir}/file.txt`;
        const error = await client()
          .writeFile(target, 'x')
          .then(
            () => undefined,
            (caught: unknown) => caught,
          );
        expect(SandboxError.isInstance(error), `expected a SandboxError, got ${String(error)}`).toBe(true);
        expect((error as SandboxError).code).not.toMatch(/sandbox_gone|sandbox_destroyed/);
        expect((error as SandboxError).message).toMatch(
          /permission denied|not permitted|read-only|no such file/i,
        );
        const left = await client().exec(`ls -A ${dir}; chmod 755 ${dir}; rm -rf ${dir}`);
        expect(left.stdout).toBe('');
      },
    );

    withHook('disappear')(
      'fault.sandbox-gone',
      'throws sandbox_gone from exec, exec with stdin, readFile and writeFile once the sandbox disappeared',
      async () => {
        const disappear = context.faults.disappear;
        const handle: SandboxHandle = await (await context.adapter()).create();
        try {
          await handle.client.writeFile('before.txt', 'here');
          await disappear?.(handle);
          await expectSandboxError(handle.client.exec('echo hi'), 'sandbox_gone');
          await expectSandboxError(handle.client.exec('cat', { stdin: 'in' }), 'sandbox_gone');
          await expectSandboxError(handle.client.readFile('before.txt'), 'sandbox_gone');
          await expectSandboxError(handle.client.writeFile('after.txt', 'x'), 'sandbox_gone');
        } finally {
          await handle.destroy().catch(() => undefined);
        }
      },
      60_000,
    );

    withHook('endTransport')(
      'fault.transport-deadline',
      'kills the whole group and returns a timed-out result when the transport ends before the command',
      async () => {
        const endTransport = context.faults.endTransport;
        const { marker, pattern } = processMarker();
        const timeoutMs = scaled(4000);
        const started = Date.now();
        const running = client().exec(
          `echo partial; ${formatCommand(['sh', '-c', 'while true; do sleep 1; done', marker])} & sleep 60`,
          { timeoutMs },
        );
        const deadline = Date.now() + scaled(3000);
        while ((await processesWithMarker(client(), pattern)).length === 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await endTransport?.(context.handle());
        const result = await running;
        expect(result, describeResult(result)).toMatchObject({
          exitCode: null,
          timedOut: true,
          aborted: false,
        });
        expect(Date.now() - started).toBeLessThan(timeoutMs + scaled(5000));
        expect(await waitForNoProcesses(client(), pattern, scaled(3000))).toEqual([]);
      },
      30_000,
    );
  });
}
