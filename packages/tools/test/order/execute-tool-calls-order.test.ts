/**
 * E03 on the local adapter: a turn's calls behave as if run in the order the model wrote them.
 * The Docker twin is execute-tool-calls-order-docker.test.ts.
 */
import { executeToolCalls, type SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodingTools } from '../../src/create-coding-tools.js';
import { failedWriteThenExecTurns } from './write-then-exec-turn.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await createLocalSandboxAdapter().create();
});
afterAll(() => sandbox.destroy());

describe('executeToolCalls with the coding tools on the local adapter', () => {
  describe('when one turn writes a file and then runs a command that reads it', () => {
    it('E03: the exec sees the file in all of 200 turns', async () => {
      const failed = await failedWriteThenExecTurns(sandbox.client, sandbox.workdir, 200);
      expect(failed).toEqual([]);
    }, 120_000);
  });

  describe('when one turn deletes a file, then reads it, then writes it again', () => {
    it('returns not-found for the read and leaves the written content', async () => {
      const tools = createCodingTools(sandbox.client, { root: sandbox.workdir });
      await sandbox.client.writeFile(`${sandbox.workdir}/d.txt`, 'old\n');
      const [remove, read, write, search] = await executeToolCalls(tools, [
        { id: 'a', name: 'delete_file', input: { path: 'd.txt' } },
        { id: 'b', name: 'read_file', input: { path: 'd.txt' } },
        { id: 'c', name: 'write_file', input: { path: 'd.txt', content: 'new\n' } },
        { id: 'd', name: 'search_files', input: { pattern: 'new', path: 'd.txt' } },
      ]);
      expect(remove?.error).toBeUndefined();
      expect(read?.error?.message).toContain(`no file at "d.txt"`);
      expect(write?.error).toBeUndefined();
      expect(JSON.stringify(search?.output)).toContain('d.txt');
    });
  });
});
