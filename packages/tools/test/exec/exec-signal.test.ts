/** D13: a command ended by a signal comes back with exitCode null and the signal's name. */
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecTool } from '../../src/exec/exec.js';
import { createRunTestsTool } from '../../src/run-tests/run-tests.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await createLocalSandboxAdapter().create();
});
afterAll(() => sandbox.destroy());

const signalCases = [
  { command: 'echo partial; kill -SEGV $$', signal: 'SIGSEGV' },
  { command: 'echo partial; kill -9 $$', signal: 'SIGKILL' },
  { command: 'echo partial; kill -ABRT $$', signal: 'SIGABRT' },
];

describe('createExecTool', () => {
  describe('when a signal ends the command', () => {
    it.each(signalCases)(
      'D13: `$command` gives exitCode null, signal $signal and the output so far',
      async ({ command, signal }) => {
        const exec = createExecTool(sandbox.client, { root: sandbox.workdir });
        const result = await exec.call({ command });
        expect(result).toMatchObject({ exitCode: null, signal, stdout: 'partial\n', timedOut: false });
      },
    );
  });

  describe('when the command exits', () => {
    it('has no signal field, also for a 128+N status of a child', async () => {
      const exec = createExecTool(sandbox.client, { root: sandbox.workdir });
      const result = await exec.call({ command: "sh -c 'kill -SEGV $$'" });
      expect(result).toMatchObject({ exitCode: 139 });
      expect(result).not.toHaveProperty('signal');
    });
  });
});

describe('createRunTestsTool', () => {
  describe('when a signal ends the test run', () => {
    it.each(signalCases)(
      'D13: `$command` gives exitCode null and signal $signal',
      async ({ command, signal }) => {
        const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
        const result = await runTests.call({ command });
        expect(result).toMatchObject({ exitCode: null, signal, timedOut: false });
      },
    );
  });
});
