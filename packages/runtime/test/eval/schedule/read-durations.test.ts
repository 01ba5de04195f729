import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SandkitError } from '@sandkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { readDurations } from '../../../src/eval/schedule/read-durations.js';
import { tempDir } from '../eval-test-helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function file(text: string): Promise<string> {
  const { dir, cleanup } = await tempDir('durations');
  cleanups.push(cleanup);
  const path = join(dir, 'results.jsonl');
  await writeFile(path, text);
  return path;
}

describe('readDurations', () => {
  describe('when results.jsonl has good, repeated, infrastructure-error and cut-off lines', () => {
    it('returns the last usable time per id and lists the lines it did not use', async () => {
      const lines = [
        { instance_id: 'a', status: 'resolved', duration_ms: 1200, infra_error: false },
        { instance_id: 'b', status: 'unresolved', duration_ms: 300, acquire_ms: 120, infra_error: false },
        { instance_id: 'a', status: 'resolved', duration_ms: 1500, infra_error: false },
        { instance_id: 'c', status: 'error', duration_ms: 40, infra_error: true },
        {
          instance_id: 'd',
          status: 'error',
          error_kind: 'timeout',
          duration_ms: 1_800_000,
          infra_error: false,
        },
        { instance_id: 'e', status: 'resolved' },
        ['not', 'an', 'object'],
      ].map((line) => JSON.stringify(line));
      const found = await readDurations(await file(`${lines.join('\n')}\n\n{"instance_id": "f", "dura`));
      // b waited 120 ms of its 300 for a sandbox: it ran 180
      expect(Object.fromEntries(found.durations)).toEqual({ a: 1500, b: 180, d: 1_800_000 });
      expect(found.measure).toBe('duration_ms - acquire_ms');
      expect(found.ignored).toEqual([
        { line: 4, reason: 'an infrastructure error' },
        { line: 6, reason: 'no duration_ms' },
        { line: 7, reason: 'not a JSON object' },
        { line: 9, reason: 'not complete JSON' },
      ]);
    });
  });

  describe('when every usable line has script_ms', () => {
    it('returns the script times, not the instance times', async () => {
      const lines = [
        { instance_id: 'a', duration_ms: 9000, acquire_ms: 500, script_ms: 7000, infra_error: false },
        { instance_id: 'b', duration_ms: 8000, acquire_ms: 100, script_ms: 7400, infra_error: false },
        { instance_id: 'c', duration_ms: 50, infra_error: true },
      ].map((line) => JSON.stringify(line));
      const found = await readDurations(await file(`${lines.join('\n')}\n`));
      // by duration − acquire a (8500) would come before b (7900); by their scripts b runs longer
      expect(Object.fromEntries(found.durations)).toEqual({ a: 7000, b: 7400 });
      expect(found.measure).toBe('script_ms');
    });
  });

  describe('when some usable lines have script_ms and others not (an older results.jsonl)', () => {
    it('uses duration_ms − acquire_ms for every line', async () => {
      const lines = [
        { instance_id: 'a', duration_ms: 9000, acquire_ms: 500, script_ms: 7000, infra_error: false },
        { instance_id: 'b', duration_ms: 8000, acquire_ms: 100, infra_error: false },
      ].map((line) => JSON.stringify(line));
      const found = await readDurations(await file(`${lines.join('\n')}\n`));
      expect(Object.fromEntries(found.durations)).toEqual({ a: 8500, b: 7900 });
      expect(found.measure).toBe('duration_ms - acquire_ms');
    });
  });

  describe('when the file does not exist', () => {
    it('throws SandkitError invalid_option naming the file', async () => {
      const missing = join(await file(''), '..', 'nope.jsonl');
      const error = await readDurations(missing).catch((caught: unknown) => caught);
      expect(SandkitError.isInstance(error) && error.code).toBe('invalid_option');
      expect((error as Error).message).toContain(`--durations ${missing}: cannot read it`);
    });
  });
});
