import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initialResult } from '../../../src/eval/instance/eval-result.js';
import { readDurationsCache } from '../../../src/eval/schedule/durations-cache.js';
import { createDurationsRecorder } from '../../../src/eval/schedule/record-durations.js';
import { tempDir } from '../eval-test-helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function cacheDir(): Promise<string> {
  const { dir, cleanup } = await tempDir('record-durations');
  cleanups.push(cleanup);
  return join(dir, 'durations');
}

const timed = (id: string, ms: number) =>
  initialResult(id, { infra_error: false, status: 'resolved', script_ms: ms });
const keyOf = (id: string) => (id.startsWith('unkeyed') ? undefined : `key-${id}`);
const ids = async (dir: string) =>
  [...(await readDurationsCache(dir)).entries.values()].map((e) => e.id).sort();

describe('createDurationsRecorder', () => {
  describe('while the run goes on', () => {
    it('writes once the interval has passed since the last write, before the flush', async () => {
      const dir = await cacheDir();
      let clock = 1_000;
      const recorder = createDurationsRecorder(dir, keyOf, { intervalMs: 60_000, now: () => clock });
      recorder.add(timed('a', 10));
      clock += 30_000;
      recorder.add(timed('b', 20));
      // 30 s after the recorder began: nothing written yet
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await ids(dir)).toEqual([]);
      clock += 31_000;
      recorder.add(timed('c', 30));
      await expect.poll(() => ids(dir)).toEqual(['a', 'b', 'c']);
      clock += 1_000;
      recorder.add(timed('d', 40));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await ids(dir)).toEqual(['a', 'b', 'c']);
      expect(await recorder.flush()).toBeNull();
      expect(await ids(dir)).toEqual(['a', 'b', 'c', 'd']);
    });
  });

  describe('when results have no key, no script time or an infrastructure error', () => {
    it('leaves them out', async () => {
      const dir = await cacheDir();
      const recorder = createDurationsRecorder(dir, keyOf);
      recorder.add(timed('unkeyed-1', 5));
      recorder.add(initialResult('no-time', { infra_error: false, status: 'unresolved' }));
      recorder.add(initialResult('infra', { script_ms: 7 }));
      recorder.add(timed('kept', 9));
      expect(await recorder.flush()).toBeNull();
      const read = await readDurationsCache(dir);
      expect([...read.entries]).toEqual([['key-kept', expect.objectContaining({ id: 'kept', ms: 9 })]]);
    });
  });

  describe('when a write fails', () => {
    it('keeps its entries for the next write and says why until one succeeds', async () => {
      const { dir: parent, cleanup } = await tempDir('record-durations-fail');
      cleanups.push(cleanup);
      const { writeFile, rm } = await import('node:fs/promises');
      const dir = join(parent, 'cache');
      await writeFile(dir, 'a file where the directory should be');
      let clock = 0;
      const recorder = createDurationsRecorder(dir, keyOf, { intervalMs: 10, now: () => clock });
      clock = 20;
      recorder.add(timed('a', 1)); // starts a write that fails
      await new Promise((resolve) => setTimeout(resolve, 50));
      await rm(dir);
      recorder.add(timed('b', 2));
      expect(await recorder.flush()).toBeNull();
      expect(await ids(dir)).toEqual(['a', 'b']);
    });
  });
});
