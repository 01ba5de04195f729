import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxError, type SandboxHandle, SandkitError } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { uniqueMarker, waitForHostProcesses, waitForNoHostProcesses } from './local-test-helpers.js';

let scratch: string;
const handles: SandboxHandle[] = [];
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'sandkit-local-test-'));
});
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.destroy()));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});
async function create(options: Parameters<typeof createLocalSandboxAdapter>[0] = {}): Promise<SandboxHandle> {
  const handle = await createLocalSandboxAdapter(options).create();
  handles.push(handle);
  return handle;
}

describe('createLocalSandboxAdapter', () => {
  describe('when given a template', () => {
    it('copies files, nested directories, modes and symlinks into each new sandbox', async () => {
      const template = join(scratch, 'template');
      await mkdir(join(template, 'src/deep'), { recursive: true });
      await writeFile(join(template, 'src/deep/a.txt'), 'nested');
      await writeFile(join(template, 'run.sh'), '#!/bin/sh\necho ran\n', { mode: 0o755 });
      await symlink('src/deep/a.txt', join(template, 'link'));
      const one = await create({ template });
      const two = await create({ template });
      expect(one.workdir).not.toBe(two.workdir);
      const result = await one.client.exec('cat src/deep/a.txt; ./run.sh; cat link');
      expect(result.stdout).toBe('nestedran\nnested');
      expect(await readlink(join(one.workdir, 'link'))).toBe('src/deep/a.txt');
      expect((await stat(join(one.workdir, 'run.sh'))).mode & 0o777).toBe(0o755);
      await one.client.writeFile('src/deep/a.txt', 'changed');
      expect((await two.client.exec('cat src/deep/a.txt')).stdout).toBe('nested');
    });
    it('throws SandboxError sandbox_start_failed when the template does not exist', async () => {
      await mkdir(join(scratch, 'roots'));
      const adapter = createLocalSandboxAdapter({
        root: join(scratch, 'roots'),
        template: join(scratch, 'missing'),
      });
      const error = await adapter.create().catch((caught: unknown) => caught);
      expect(SandboxError.isInstance(error) && error.code).toBe('sandbox_start_failed');
      expect(execFileSync('ls', ['-A', join(scratch, 'roots')]).toString()).toBe('');
    });
  });

  describe('when given a root', () => {
    it('makes each sandbox directory under it and removes it on destroy', async () => {
      const root = join(scratch, 'root-option');
      const handle = await create({ root });
      expect(handle.workdir.startsWith(`${root}/sandkit-`)).toBe(true);
      await handle.destroy();
      await expect(stat(handle.workdir)).rejects.toMatchObject({ code: 'ENOENT' });
    });
    it('throws SandkitError invalid_option for an empty root', () => {
      expect(() => createLocalSandboxAdapter({ root: '' })).toThrow(
        expect.objectContaining({ code: 'invalid_option' }),
      );
    });
  });

  describe('destroy', () => {
    it('kills background process groups the sandbox left running', async () => {
      const handle = await create();
      const marker = uniqueMarker();
      const result = await handle.client.exec(
        `sh -c 'sleep 300' ${marker} & sh -c 'trap "" TERM HUP; sleep 300' ${marker}-b & echo started`,
      );
      expect(result.stdout).toBe('started\n');
      expect(await waitForHostProcesses(marker, 2, 5000)).toHaveLength(2);
      await handle.destroy();
      expect(await waitForNoHostProcesses(marker, 5000)).toEqual([]);
    });
    it('kills a command still running and lets its exec return', async () => {
      const handle = await create();
      const marker = uniqueMarker();
      const running = handle.client.exec(`sh -c 'sleep 300' ${marker}; echo never`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await handle.destroy();
      const result = await running;
      expect(result).toMatchObject({ exitCode: null, signal: 'SIGKILL', stdout: '' });
      expect(await waitForNoHostProcesses(marker, 1000)).toEqual([]);
    });
  });
});

describe('local exec', () => {
  it('B18: rg -n TODO with no path searches the workdir and returns at once (real ripgrep)', async () => {
    const handle = await create();
    await handle.client.writeFile('src/a.ts', 'const a = 1;\n// TODO: fix a\n');
    await handle.client.writeFile('notes.md', 'TODO write notes\n');
    const result = await handle.client.exec('rg -n --sort path TODO', { timeoutMs: 10_000 });
    expect(result).toMatchObject({
      exitCode: 0,
      timedOut: false,
      stdout: 'notes.md:1:TODO write notes\nsrc/a.ts:2:// TODO: fix a\n',
    });
    expect(result.durationMs).toBeLessThan(2000);
    for (const command of ['cat', 'grep -c foo', 'sed -n p', 'head -n 1', 'rg foo']) {
      const bare = await handle.client.exec(`${command}; echo "exit $?"`, { cwd: 'src', timeoutMs: 10_000 });
      expect(bare.timedOut, command).toBe(false);
      expect(bare.durationMs, command).toBeLessThan(2000);
    }
  });

  it('B19: a timed-out python3 loop leaves nothing for pgrep -f to find (real python3)', async () => {
    const handle = await create();
    const marker = uniqueMarker();
    // The interpreter itself, not a pyenv shim that can take seconds to start on a busy host.
    const python = (await handle.client.exec(`python3 -c 'import sys; print(sys.executable)'`)).stdout.trim();
    const started = Date.now();
    const result = await handle.client.exec(
      `${python} -c 'import time\nprint("start", flush=True)\nwhile True: time.sleep(1)' ${marker}`,
      { timeoutMs: 2000 },
    );
    expect(result).toMatchObject({ exitCode: null, timedOut: true, stdout: 'start\n' });
    expect(Date.now() - started).toBeLessThan(2000 + 4000);
    const pgrep = await handle.client.exec(`pgrep -f '${marker.slice(0, -1)}[${marker.at(-1)}]'`);
    expect(pgrep).toMatchObject({ exitCode: 1, stdout: '' });
  });

  it('gives children the kill grace to act on SIGTERM before SIGKILL', async () => {
    const handle = await create();
    const child = `trap 'sleep 0.2; echo cleaned > cleaned.txt; exit 0' TERM; while true; do sleep 0.1; done`;
    const result = await handle.client.exec(`sh -c "${child}" & wait`, { timeoutMs: 800 });
    expect(result).toMatchObject({ exitCode: null, timedOut: true });
    expect((await handle.client.exec('cat cleaned.txt')).stdout).toBe('cleaned\n');
  });

  it('returns within the 200 ms drain grace when a background child holds the pipes', async () => {
    const handle = await create();
    const result = await handle.client.exec('sleep 5 & echo started');
    expect(result.stdout).toBe('started\n');
    expect(result.durationMs).toBeLessThan(200 + 400);
  });

  it('keeps every byte the command wrote before it exited, however late the host gets to it', async () => {
    // Output is captured in files where the command runs: nothing is in flight when the shell
    // exits, so a loaded host cannot cut the end of a log (bench/scale-sim.ts lost whole test logs
    // that way while output crossed pipes). A detached writer's later output is not the command's.
    const handle = await create();
    const result = await handle.client.exec(
      "setsid sh -c 'sleep 0.8; echo late' & i=0; while [ $i -lt 2000 ]; do echo line$i; i=$((i+1)); done; echo early",
    );
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual(['line0', 'line1']);
    expect(lines.at(-2)).toBe('early');
    expect(lines).toHaveLength(2002);
    expect(result.exitCode).toBe(0);
  });

  it('rethrows an error thrown by onStdout after killing the command', async () => {
    const handle = await create();
    const marker = uniqueMarker();
    const failure = new SandkitError({ code: 'internal', message: 'consumer failed' });
    const running = handle.client.exec(`echo one; sh -c 'sleep 300' ${marker}`, {
      onStdout: () => {
        throw failure;
      },
    });
    await expect(running).rejects.toBe(failure);
    expect(await waitForNoHostProcesses(marker, 2000)).toEqual([]);
  });

  it('throws SandboxError sandbox_gone when the sandbox directory was removed under it', async () => {
    const handle = await create();
    await rm(handle.workdir, { recursive: true });
    const error = await handle.client.exec('echo hi').catch((caught: unknown) => caught);
    expect(SandboxError.isInstance(error) && error.code).toBe('sandbox_gone');
  });

  it('collects all output of a fast writer that exits at once', async () => {
    const handle = await create();
    const result = await handle.client.exec("head -c 5000000 /dev/zero | tr '\\0' x", {
      maxOutputBytes: 6_000_000,
    });
    expect(result.stdoutBytes).toBe(5_000_000);
    expect(result.stdout.length).toBe(5_000_000);
  });

  it('keeps host memory flat while a command prints 256 MiB', async () => {
    const handle = await create();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    let chunks = 0;
    const result = await handle.client.exec('head -c 268435456 /dev/zero', {
      onStdout: () => {
        if (++chunks % 64 === 0) peak = Math.max(peak, process.memoryUsage().rss);
      },
      timeoutMs: 60_000,
    });
    expect(result).toMatchObject({ exitCode: 0, stdoutBytes: 256 * 1024 * 1024, stdoutTruncated: true });
    expect(result.stdout.length).toBe(1024 * 1024);
    expect((peak - baseline) / 2 ** 20).toBeLessThan(64);
  }, 60_000);
});

describe('local writeFile', () => {
  it('writes through a symlink to its target and keeps the link', async () => {
    const handle = await create();
    await handle.client.writeFile('real/target.txt', 'old');
    await handle.client.exec('ln -s real/target.txt link.txt');
    await handle.client.writeFile('link.txt', 'new');
    const result = await handle.client.exec('cat real/target.txt; test -L link.txt && echo " link"');
    expect(result.stdout).toBe('new link\n');
  });
  it('leaves no temp file when aborted and throws SandkitError aborted', async () => {
    const handle = await create();
    const controller = new AbortController();
    controller.abort();
    const error = await handle.client
      .writeFile('dir/file.bin', new Uint8Array(1 << 20), { signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(SandkitError.isInstance(error) && error.code).toBe('aborted');
    const listing = await handle.client.exec('ls -A dir 2>/dev/null | wc -l');
    expect(listing.stdout.trim()).toBe('0');
  });
  it('rejects a path with a NUL byte and a mode out of range with invalid_option', async () => {
    const handle = await create();
    await expect(handle.client.readFile('a\0b')).rejects.toMatchObject({ code: 'invalid_option' });
    await expect(handle.client.writeFile('a.txt', 'x', { mode: 0o10000 })).rejects.toMatchObject({
      code: 'invalid_option',
    });
  });
  it('refuses a pipe or a device as not a regular file at once, instead of waiting or reading without end', async () => {
    const handle = await create();
    await handle.client.exec('mkfifo pipe');
    for (const path of ['pipe', '/dev/zero', '/dev/null']) {
      const started = Date.now();
      await expect(handle.client.readFile(path), path).rejects.toMatchObject({
        code: 'refused',
        message: expect.stringContaining('not a regular file'),
      });
      expect(Date.now() - started, path).toBeLessThan(5_000);
    }
  });
  it('reads a path under a regular file as not_directory', async () => {
    const handle = await create();
    await handle.client.writeFile('plain-parent', 'x');
    await expect(handle.client.readFile('plain-parent/child')).rejects.toMatchObject({
      code: 'not_directory',
    });
  });
  it('survives concurrent writes to one path: last content whole, no temp files', async () => {
    const handle = await create();
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        handle.client.writeFile('same.txt', `${index}`.repeat(10_000)),
      ),
    );
    const content = new TextDecoder().decode(await handle.client.readFile('same.txt'));
    expect(content).toMatch(/^(\d+)\1*$/);
    expect((await handle.client.exec('ls -A')).stdout).toBe('same.txt\n');
  });
});
