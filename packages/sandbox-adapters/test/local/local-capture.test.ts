import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { SandboxError, type SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterEach, describe, expect, it } from 'vitest';
import { keptOutputLogs } from '../../src/capture/output-log-retention.js';

const handles: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.destroy()));
});
async function create(): Promise<SandboxHandle> {
  const handle = await createLocalSandboxAdapter().create();
  handles.push(handle);
  return handle;
}

describe('local exec output capture', () => {
  describe('when a stream fits the cap', () => {
    it('leaves no log file behind', async () => {
      const handle = await create();
      const result = await handle.client.exec('echo out; echo err >&2');
      expect(result).toMatchObject({ stdout: 'out\n', stderr: 'err\n' });
      expect(result.outputLog).toBeUndefined();
      expect(await readdir(`${handle.workdir}.logs`)).toEqual([]);
    });
  });

  describe('when a stream is cut', () => {
    it(`keeps the whole log beside the workdir, for the last ${keptOutputLogs} cut commands only`, async () => {
      const handle = await create();
      const first = await handle.client.exec('seq 1 5000', { maxOutputBytes: 10 });
      const log = first.outputLog?.stdout ?? '';
      expect(log.startsWith(`${handle.workdir}.logs/`)).toBe(true);
      expect((await readFile(log, 'utf8')).split('\n').length).toBe(5001);
      for (let run = 0; run < keptOutputLogs; run++)
        await handle.client.exec('seq 1 100', { maxOutputBytes: 10 });
      expect(existsSync(log)).toBe(false);
      expect((await readdir(`${handle.workdir}.logs`)).length).toBe(2 * keptOutputLogs);
      expect((await readdir(handle.workdir)).length).toBe(0);
    });
    it('removes the log directory on destroy', async () => {
      const handle = await create();
      await handle.client.exec('seq 1 5000', { maxOutputBytes: 10 });
      await handle.destroy();
      expect(existsSync(`${handle.workdir}.logs`)).toBe(false);
    });
  });

  describe('when the log directory is gone', () => {
    it('throws SandboxError cannot_start_command naming it, and runs nothing', async () => {
      const handle = await create();
      await rm(`${handle.workdir}.logs`, { recursive: true });
      const error = await handle.client.exec('touch ran').catch((caught: unknown) => caught);
      expect(SandboxError.isInstance(error) && error.code).toBe('cannot_start_command');
      expect((error as Error).message).toContain(`${handle.workdir}.logs`);
      expect(existsSync(`${handle.workdir}/ran`)).toBe(false);
    });
  });

  describe('when a streaming callback is given', () => {
    it('passes live output before the command ends', async () => {
      const handle = await create();
      let firstAt = 0;
      const started = Date.now();
      const result = await handle.client.exec('echo early; sleep 1; echo late', {
        onStdout: () => {
          firstAt ||= Date.now();
        },
      });
      expect(result.stdout).toBe('early\nlate\n');
      expect(firstAt - started).toBeLessThan(700);
    });
  });
});
