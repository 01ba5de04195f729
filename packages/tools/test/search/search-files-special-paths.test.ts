import type { SandboxHandle } from '@sandkit/core';
import { ToolError } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchFilesTool } from '../../src/search/search-files.js';

describe('createSearchFilesTool', () => {
  let sandbox: SandboxHandle;
  beforeAll(async () => {
    sandbox = await createLocalSandboxAdapter().create();
    await sandbox.client.exec('mkdir d && mkfifo fifo d/pipe && echo zzz > d/f.txt');
  });
  afterAll(async () => {
    await sandbox.destroy();
  });

  describe('when the path names a FIFO', () => {
    it.each(['fifo', 'd/pipe'])('refuses %s at once instead of blocking on it', async (path) => {
      const started = Date.now();
      const tool = createSearchFilesTool(sandbox.client, { root: sandbox.workdir });
      const error = await tool.call({ pattern: 'zzz', path }).catch((e: unknown) => e);
      expect(ToolError.isInstance(error) && error.code).toBe('refused');
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('still searches a directory that holds a FIFO', async () => {
      const tool = createSearchFilesTool(sandbox.client, { root: sandbox.workdir });
      const result = (await tool.call({ pattern: 'zzz', path: 'd' })) as { matches: { path: string }[] };
      expect(result.matches.map((m) => m.path)).toEqual(['d/f.txt']);
    });
  });

  describe('when the path is a symlink to a name that ends in a newline', () => {
    it('searches that file, not the one whose name lacks the newline ($(…) dropped it)', async () => {
      await sandbox.client.exec(`printf 'needle a\\n' > x && printf 'needle b\\n' > 'x\n' && ln -s 'x\n' L`);
      const tool = createSearchFilesTool(sandbox.client, { root: sandbox.workdir });
      const result = await tool.call({ pattern: 'needle', path: 'L' });
      expect(result.matches.map((match) => match.text)).toEqual(['needle b']);
    });
  });
});
