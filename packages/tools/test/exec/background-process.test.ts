import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecTool } from '../../src/exec/exec.js';
import { createKillProcessTool } from '../../src/exec/kill-process.js';
import { createReadOutputTool } from '../../src/exec/read-output.js';

interface Started {
  processId: string;
  outputFile: string;
}
interface Page {
  output: string;
  nextByteOffset: number;
  totalBytes: number;
  hasMore: boolean;
  running: boolean;
  exitCode: number | null;
}
interface Killed {
  wasRunning: boolean;
  signal: 'SIGTERM' | 'SIGKILL' | null;
  running: boolean;
  exitCode: number | null;
}

let sandbox: SandboxHandle;
const started: string[] = [];

beforeAll(async () => {
  sandbox = await createLocalSandboxAdapter().create();
});
afterAll(async () => {
  const kill = createKillProcessTool(sandbox.client, { root: sandbox.workdir });
  for (const processId of started) await kill.call({ processId });
  await sandbox.destroy();
});

async function start(command: string, options: { maxOutputBytes?: number } = {}): Promise<Started> {
  const exec = createExecTool(sandbox.client, { root: sandbox.workdir, ...options });
  const result = (await exec.call({ command, background: true })) as Started;
  started.push(result.processId);
  return result;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const marker = (name: string) => `sandkit_bg_${name}_${process.pid}`;
async function processesWith(name: string): Promise<string> {
  const text = marker(name);
  const pattern = `[${text.slice(0, 1)}]${text.slice(1)}`;
  return (
    await sandbox.client.exec(`grep -l -a -e '${pattern}' /proc/[0-9]*/cmdline 2>/dev/null || true`)
  ).stdout.trim();
}

describe('exec with background: true', () => {
  it('returns a processId and an output file at once, while the command keeps running', async () => {
    const before = Date.now();
    const result = await start('sleep 5; echo late');
    expect(Date.now() - before).toBeLessThan(3000);
    expect(result.processId).toMatch(/^[0-9a-f]{12}$/);
    expect(result.outputFile).toMatch(/^\.sandkit\/exec\/bg-[0-9a-f]{12}\.log$/);
    const read = createReadOutputTool(sandbox.client, { root: sandbox.workdir });
    const page = (await read.call({ processId: result.processId })) as Page;
    expect(page).toMatchObject({ running: true, exitCode: null, output: '' });
  });
});

describe('createReadOutputTool', () => {
  it('returns only the new output from nextByteOffset, then running false with the exit code', async () => {
    const { processId, outputFile } = await start('echo one; sleep 0.5; echo two; exit 4');
    const read = createReadOutputTool(sandbox.client, { root: sandbox.workdir });
    await waitUntil(async () => ((await read.call({ processId })) as Page).totalBytes >= 4);
    const first = (await read.call({ processId })) as Page;
    expect(first.output.startsWith('one\n')).toBe(true);
    await waitUntil(async () => !((await read.call({ processId })) as Page).running);
    const rest = (await read.call({ processId, byteOffset: 4 })) as Page;
    expect(rest).toMatchObject({
      output: 'two\n',
      nextByteOffset: 8,
      running: false,
      exitCode: 4,
      hasMore: false,
    });
    expect(await readFile(join(sandbox.workdir, outputFile), 'utf8')).toBe('one\ntwo\n');
  });

  it('pages through long output without splitting a character, counting exactly the bytes returned', async () => {
    const { processId } = await start(`i=0; while [ $i -lt 600 ]; do printf 'ab✓😀'; i=$((i+1)); done`);
    const read = createReadOutputTool(sandbox.client, { root: sandbox.workdir, maxOutputBytes: 1024 });
    await waitUntil(async () => !((await read.call({ processId })) as Page).running);
    let offset = 0;
    let text = '';
    let pages = 0;
    for (;;) {
      const page = (await read.call({ processId, byteOffset: offset })) as Page;
      expect(page.output.includes('\uFFFD')).toBe(false);
      expect(page.nextByteOffset - offset).toBe(Buffer.byteLength(page.output));
      text += page.output;
      offset = page.nextByteOffset;
      pages++;
      if (!page.hasMore) break;
    }
    expect(pages).toBeGreaterThan(10);
    expect(text).toBe('ab✓😀'.repeat(600));
  });

  it('throws unknown_process for an id exec never returned', async () => {
    const read = createReadOutputTool(sandbox.client, { root: sandbox.workdir });
    await expect(read.call({ processId: '0123456789ab' })).rejects.toMatchObject({ code: 'unknown_process' });
    await expect(read.call({ processId: '../../etc/passwd' })).rejects.toMatchObject({
      code: 'unknown_process',
    });
  });
});

describe('createKillProcessTool', () => {
  it('ends the whole process group, children included', async () => {
    const name = marker('group');
    const { processId } = await start(`sh -c 'sleep 300; : ${name}' & sh -c 'sleep 300; : ${name}' & wait`);
    await waitUntil(async () => (await processesWith('group')).split('\n').filter(Boolean).length >= 2);
    const kill = createKillProcessTool(sandbox.client, { root: sandbox.workdir });
    const result = (await kill.call({ processId })) as Killed;
    expect(result).toMatchObject({ wasRunning: true, signal: 'SIGTERM', running: false });
    expect(await processesWith('group')).toBe('');
    const read = createReadOutputTool(sandbox.client, { root: sandbox.workdir });
    expect(((await read.call({ processId })) as Page).running).toBe(false);
  });

  it('falls back to SIGKILL when the group ignores SIGTERM', async () => {
    const name = marker('stubborn');
    const { processId } = await start(`trap '' TERM; sh -c "trap '' TERM; sleep 300; : ${name}"`);
    await waitUntil(async () => (await processesWith('stubborn')) !== '');
    const kill = createKillProcessTool(sandbox.client, { root: sandbox.workdir });
    const result = (await kill.call({ processId })) as Killed;
    expect(result).toMatchObject({ wasRunning: true, signal: 'SIGKILL', running: false, exitCode: null });
    expect(await processesWith('stubborn')).toBe('');
  });

  it('finds the backend of a background command from its processId when backends are configured', async () => {
    const other = await createLocalSandboxAdapter().create();
    try {
      const backends = {
        fast: { client: sandbox.client, description: 'local shell', root: sandbox.workdir },
        full: { client: other.client, description: 'second sandbox', root: other.workdir },
      };
      const exec = createExecTool(sandbox.client, { backends, defaultBackend: 'fast' });
      const result = (await exec.call({
        command: 'pwd; exit 2',
        background: true,
        backend: 'full',
      })) as Started;
      expect(result.processId).toMatch(/^full\.[0-9a-f]{12}$/);
      const read = createReadOutputTool(sandbox.client, { backends, defaultBackend: 'fast' });
      await waitUntil(async () => !((await read.call({ processId: result.processId })) as Page).running);
      expect(await read.call({ processId: result.processId })).toMatchObject({
        output: `${other.workdir}\n`,
        exitCode: 2,
      });
      await expect(read.call({ processId: result.processId.replace('full.', 'gpu.') })).rejects.toMatchObject(
        { code: 'unknown_process' },
      );
    } finally {
      await other.destroy();
    }
  });

  it('reports a command that already ended without error', async () => {
    const { processId } = await start('exit 0');
    const read = createReadOutputTool(sandbox.client, { root: sandbox.workdir });
    await waitUntil(async () => !((await read.call({ processId })) as Page).running);
    const kill = createKillProcessTool(sandbox.client, { root: sandbox.workdir });
    expect(await kill.call({ processId })).toMatchObject({
      wasRunning: false,
      signal: null,
      running: false,
      exitCode: 0,
    });
  });
});
