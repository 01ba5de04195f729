/**
 * E03 on the Docker adapter against the real engine at DOCKER_HOST (Podman's Docker API in CI),
 * image `localhost/sandkit-sandbox:bookworm` or SANDKIT_DOCKER_IMAGE. The local twin is
 * execute-tool-calls-order.test.ts.
 */
import type { SandboxHandle } from '@sandkit/core';
import { createDockerSandboxAdapter } from '@sandkit/sandbox-adapters/docker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedWriteThenExecTurns } from './write-then-exec-turn.js';

const image = process.env.SANDKIT_DOCKER_IMAGE ?? 'localhost/sandkit-sandbox:bookworm';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await createDockerSandboxAdapter({ image }).create();
}, 120_000);
afterAll(() => sandbox?.destroy());

describe('executeToolCalls with the coding tools on the Docker adapter', () => {
  describe('when one turn writes a file and then runs a command that reads it', () => {
    it('E03: the exec sees the file in all of 200 turns', async () => {
      const failed = await failedWriteThenExecTurns(sandbox.client, sandbox.workdir, 200);
      expect(failed).toEqual([]);
    }, 300_000);
  });
});
