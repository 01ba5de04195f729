import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const config = fileURLToPath(new URL('./fixtures/vitest.config.ts', import.meta.url));
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

describe('conformance fault cases without their hook', () => {
  it('are skipped with a note naming the missing hook and how to give it, and the run passes', async () => {
    // A third-party adapter's suite with no `faults` option, run by a vitest of its own.
    const run = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [vitest, 'run', '--config', config, '-t', 'fault\\.', '--reporter=verbose'],
        { env: { ...process.env, NO_COLOR: '1', CI: '' }, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) =>
          resolve({ code: error === null ? 0 : Number(error.code ?? 1), output: stdout + stderr }),
      );
    });
    expect(run.code, run.output).toBe(0);
    const line = (id: string) => run.output.split('\n').find((text) => text.includes(`[${id}]`)) ?? '';
    expect(line('fault.sandbox-gone')).toMatch(/^\s*↓ /);
    expect(line('fault.sandbox-gone')).toContain(
      '[needs faults.disappear: pass { faults: { disappear: async (handle) => … } } to describeSandboxConformance',
    );
    expect(line('fault.transport-deadline')).toMatch(/^\s*↓ .*\[needs faults\.endTransport: /);
    // the cases that need no hook still run
    expect(line('fault.binary-stdout')).toMatch(/^\s*✓ /);
  }, 120_000);
});
