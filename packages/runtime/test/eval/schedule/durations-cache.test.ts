import { mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type DurationEntry,
  durationsCacheFile,
  maxDurationEntries,
  readDurationsCache,
  writeDurationsCache,
} from '../../../src/eval/schedule/durations-cache.js';
import { tempDir } from '../eval-test-helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function cacheDir(): Promise<string> {
  const { dir, cleanup } = await tempDir('durations-cache');
  cleanups.push(cleanup);
  return join(dir, 'durations');
}

const entries = (list: Array<[string, DurationEntry]>) => new Map(list);

describe('readDurationsCache', () => {
  describe('when the directory has no cache yet', () => {
    it('returns no entries and no note', async () => {
      expect(await readDurationsCache(await cacheDir())).toEqual({ entries: new Map(), ignored: null });
    });
  });

  describe.each([
    { name: 'not JSON', text: 'durations: 5', says: 'not JSON' },
    { name: 'another format', text: '{"format": "other", "version": 1, "entries": {}}', says: 'format' },
    {
      name: 'a newer version',
      text: '{"format": "sandkit-durations", "version": 2, "entries": {}}',
      says: 'version',
    },
    {
      name: 'an entry without a time',
      text: '{"format": "sandkit-durations", "version": 1, "entries": {"k": {"id": "a", "at": 1}}}',
      says: 'entry k',
    },
  ])('when the file is $name', ({ text, says }) => {
    it('returns no entries and a note naming the file and the problem', async () => {
      const dir = await cacheDir();
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, durationsCacheFile), text);
      const read = await readDurationsCache(dir);
      expect(read.entries.size).toBe(0);
      expect(read.ignored).toContain(join(dir, durationsCacheFile));
      expect(read.ignored).toContain(says);
    });
  });
});

describe('readDurationsCache, unusual files', () => {
  describe('when the file holds control characters', () => {
    it('names the problem without writing them to the terminal', async () => {
      const dir = await cacheDir();
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, durationsCacheFile), '\u001b[31m\u0007garbage');
      const read = await readDurationsCache(dir);
      expect(read.ignored).toContain('not JSON');
      expect(read.ignored).not.toMatch(/[\u0000-\u001f]/);
    });
  });
  describe('when the cache file is a directory', () => {
    it('says to remove it or give another directory, not that this run replaces it', async () => {
      const dir = await cacheDir();
      await mkdir(join(dir, durationsCacheFile), { recursive: true });
      const read = await readDurationsCache(dir);
      expect(read.ignored).toContain('could not be read');
      expect(read.ignored).toContain('remove it');
      expect(read.ignored).not.toContain('replace');
    });
  });
});

describe('writeDurationsCache', () => {
  describe('when the cache is written twice', () => {
    it('keeps the entries of both, the second write winning for a key they share', async () => {
      const dir = await cacheDir();
      expect(await writeDurationsCache(dir, entries([['k1', { id: 'a', ms: 100, at: 1 }]]))).toBeNull();
      await writeDurationsCache(
        dir,
        entries([
          ['k1', { id: 'a', ms: 250, at: 2 }],
          ['k2', { id: 'b', ms: 40, at: 2 }],
        ]),
      );
      const read = await readDurationsCache(dir);
      expect(read.ignored).toBeNull();
      expect(read.entries).toEqual(
        entries([
          ['k1', { id: 'a', ms: 250, at: 2 }],
          ['k2', { id: 'b', ms: 40, at: 2 }],
        ]),
      );
    });
  });

  describe('when there are more entries than the bound', () => {
    it(`keeps the newest ${maxDurationEntries}`, async () => {
      const dir = await cacheDir();
      const many = Array.from({ length: maxDurationEntries + 5 }, (_, i): [string, DurationEntry] => [
        `k${i}`,
        { id: `i${i}`, ms: i, at: i },
      ]);
      await writeDurationsCache(dir, new Map(many));
      const read = await readDurationsCache(dir);
      expect(read.entries.size).toBe(maxDurationEntries);
      // the five oldest (at 0–4) went
      for (let i = 0; i < 5; i++) expect(read.entries.has(`k${i}`)).toBe(false);
      expect(read.entries.get(`k${maxDurationEntries + 4}`)?.ms).toBe(maxDurationEntries + 4);
    });
  });

  describe('when 20 writers write at once', () => {
    it("keeps every writer's entries in a file every reader can read, and no temporary file or lock", async () => {
      const dir = await cacheDir();
      const written = Array.from({ length: 20 }, (_, w) =>
        entries(
          Array.from({ length: 50 }, (_, i) => [`w${w}-${i}`, { id: `i${i}`, ms: w * 1000 + i, at: w }]),
        ),
      );
      const reads: Array<Promise<{ ignored: string | null }>> = [];
      await Promise.all(
        written.map(async (updates) => {
          reads.push(readDurationsCache(dir));
          expect(await writeDurationsCache(dir, updates)).toBeNull();
        }),
      );
      for (const read of await Promise.all(reads)) expect(read.ignored).toBeNull();
      const final = await readDurationsCache(dir);
      expect(final.ignored).toBeNull();
      const all = new Map(written.flatMap((updates) => [...updates]));
      expect(final.entries).toEqual(all);
      expect(await readdir(dir)).toEqual([durationsCacheFile]);
    });
  });

  describe('when another run holds the lock', () => {
    it('waits for it to be released, then writes', async () => {
      const dir = await cacheDir();
      await mkdir(join(dir, `${durationsCacheFile}.lock`), { recursive: true });
      const released = new Promise((resolve) => setTimeout(resolve, 400)).then(() =>
        rm(join(dir, `${durationsCacheFile}.lock`), { recursive: true }),
      );
      const started = Date.now();
      expect(await writeDurationsCache(dir, entries([['k', { id: 'a', ms: 1, at: 1 }]]))).toBeNull();
      expect(Date.now() - started).toBeGreaterThanOrEqual(350);
      await released;
      expect((await readDurationsCache(dir)).entries.get('k')?.ms).toBe(1);
    });
  });

  describe('when a killed run left a temporary file', () => {
    it('removes it with the next write', async () => {
      const dir = await cacheDir();
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${durationsCacheFile}.tmp-4242-abc`), '{"half":');
      expect(await writeDurationsCache(dir, entries([['k', { id: 'a', ms: 3, at: 1 }]]))).toBeNull();
      expect(await readdir(dir)).toEqual([durationsCacheFile]);
    });
  });

  describe('when a dead run left its lock', () => {
    it('takes the stale lock over and writes', async () => {
      const dir = await cacheDir();
      const lockDir = join(dir, `${durationsCacheFile}.lock`);
      await mkdir(lockDir, { recursive: true });
      const longAgo = new Date(Date.now() - 60_000);
      await utimes(lockDir, longAgo, longAgo);
      expect(await writeDurationsCache(dir, entries([['k', { id: 'a', ms: 2, at: 1 }]]))).toBeNull();
      expect(await readdir(dir)).toEqual([durationsCacheFile]);
    });
  });

  describe('when the lock path is a regular file', () => {
    it('says to remove it when no other run is going on', async () => {
      const dir = await cacheDir();
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${durationsCacheFile}.lock`), 'not a lock');
      const why = await writeDurationsCache(dir, entries([['k', { id: 'a', ms: 1, at: 1 }]]));
      expect(why).toContain(
        `if no other sandkit eval is running, remove ${join(dir, durationsCacheFile)}.lock`,
      );
    }, 30_000);
  });

  describe('when the cache directory cannot be made', () => {
    it('returns why, naming the file, instead of throwing', async () => {
      const dir = await cacheDir();
      await mkdir(join(dir, '..'), { recursive: true });
      await writeFile(dir, 'a file where the directory should be');
      const why = await writeDurationsCache(dir, entries([['k', { id: 'a', ms: 1, at: 1 }]]));
      expect(why).toContain(join(dir, durationsCacheFile));
      expect(why).toContain('could not be written');
      expect(await readFile(dir, 'utf8')).toBe('a file where the directory should be');
    });
  });
});
