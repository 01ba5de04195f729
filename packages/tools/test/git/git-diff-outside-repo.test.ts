import type { SandboxHandle } from '@sandkit/core';
import { ToolError } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitDiffTool } from '../../src/git/git-diff.js';

describe('createGitDiffTool', () => {
  describe('when the workspace is not a git repository', () => {
    let sandbox: SandboxHandle;
    beforeAll(async () => {
      sandbox = await createLocalSandboxAdapter().create();
      await sandbox.client.writeFile('a.txt', 'a\n');
    });
    afterAll(async () => {
      await sandbox.destroy();
    });

    it('returns a ToolError that says so and how to get a repository', async () => {
      const error = await createGitDiffTool(sandbox.client, { root: sandbox.workdir })
        .call({})
        .catch((e: unknown) => e);
      expect(ToolError.isInstance(error) && error.code).toBe('command_failed');
      expect((error as Error).message).toMatch(/not a git repository.*git_clone.*git init/);
    });
  });
});
