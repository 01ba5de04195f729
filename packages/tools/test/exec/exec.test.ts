import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { ToolError } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecTool } from '../../src/exec/exec.js';

interface ForegroundResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted?: boolean;
  durationMs: number;
  truncated: boolean;
  stdoutBytes: number;
  stderrBytes: number;
  outputFile?: string;
  stderrFile?: string;
  backend?: string;
}

let sandbox: SandboxHandle;
let other: SandboxHandle;

beforeAll(async () => {
  sandbox = await createLocalSandboxAdapter().create();
  other = await createLocalSandboxAdapter().create();
});
afterAll(async () => {
  await sandbox.destroy();
  await other.destroy();
});

/** Processes whose command line holds `marker` (read from /proc, as procps may be missing). */
async function processesWith(marker: string): Promise<string> {
  // `[s]andkit…` matches the marker but not grep's own command line.
  const pattern = `[${marker.slice(0, 1)}]${marker.slice(1)}`;
  const result = await sandbox.client.exec(
    `grep -l -a -e '${pattern}' /proc/[0-9]*/cmdline 2>/dev/null || true`,
  );
  return result.stdout.trim();
}

const hasBadText = (text: string): boolean =>
  text.includes('\uFFFD') ||
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe('createExecTool', () => {
  describe('when the command exits', () => {
    it('returns a non-zero exit code as a result, with stdout and stderr apart', async () => {
      const exec = createExecTool(sandbox.client, { root: sandbox.workdir });
      const result = (await exec.call({ command: 'echo out; echo err >&2; exit 3' })) as ForegroundResult;
      expect(result).toMatchObject({
        exitCode: 3,
        stdout: 'out\n',
        stderr: 'err\n',
        timedOut: false,
        truncated: false,
      });
      expect(result.outputFile).toBeUndefined();
    });

    it('keeps the exit status of the last command and of `exit` inside a compound command', async () => {
      const exec = createExecTool(sandbox.client, { root: sandbox.workdir });
      expect(((await exec.call({ command: 'false' })) as ForegroundResult).exitCode).toBe(1);
      expect(
        ((await exec.call({ command: 'if true; then exit 7; fi # trailing comment' })) as ForegroundResult)
          .exitCode,
      ).toBe(7);
      expect(((await exec.call({ command: 'true' })) as ForegroundResult).exitCode).toBe(0);
    });

    it('runs in cwd resolved under the root and refuses a cwd outside it', async () => {
      await sandbox.client.exec('mkdir -p sub/dir');
      const exec = createExecTool(sandbox.client, { root: sandbox.workdir });
      const result = (await exec.call({ command: 'pwd', cwd: 'sub/dir' })) as ForegroundResult;
      expect(result.stdout.trim()).toBe(join(sandbox.workdir, 'sub/dir'));
      await expect(exec.call({ command: 'pwd', cwd: '../..' })).rejects.toMatchObject({
        code: 'outside_root',
      });
      const missing = exec.call({ command: 'pwd', cwd: 'nope' });
      await expect(missing).rejects.toBeInstanceOf(ToolError);
      await expect(missing).rejects.toMatchObject({ code: 'not_found' });
    });

    it('leaves no output file behind and keeps the git tree clean', async () => {
      await sandbox.client.exec(
        'git init -q repo && cd repo && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m init',
      );
      const exec = createExecTool(sandbox.client, {
        root: join(sandbox.workdir, 'repo'),
        maxOutputBytes: 1024,
      });
      const small = (await exec.call({ command: 'echo hi' })) as ForegroundResult;
      expect(small.outputFile).toBeUndefined();
      const big = (await exec.call({ command: 'seq 1 5000' })) as ForegroundResult;
      expect(big.outputFile).toMatch(/^\.sandkit\/exec\/[0-9a-f]{12}\.log$/);
      const status = await sandbox.client.exec('git status --porcelain --untracked-files=all', {
        cwd: join(sandbox.workdir, 'repo'),
      });
      expect(status.stdout).toBe('');
    });
  });

  describe('when the output is over maxOutputBytes', () => {
    it('keeps head and tail with a marker and saves the whole output to a file read_file can open', async () => {
      const exec = createExecTool(sandbox.client, { root: sandbox.workdir, maxOutputBytes: 2048 });
      const result = (await exec.call({ command: 'seq 1 20000; echo warn >&2' })) as ForegroundResult;
      expect(result.truncated).toBe(true);
      expect(result.stdout.startsWith('1\n2\n3\n')).toBe(true);
      expect(result.stdout.endsWith('19999\n20000\n')).toBe(true);
      expect(result.stdout).toMatch(/\[… \d+ bytes omitted of 108894 .*read_file/);
      expect(result.stdoutBytes).toBe(108894);
      expect(result.stderr).toBe('warn\n');
      expect(Buffer.byteLength(result.stdout)).toBeLessThan(2048);
      const saved = await readFile(join(sandbox.workdir, result.outputFile as string), 'utf8');
      const expected = await sandbox.client.exec('seq 1 20000');
      expect(saved).toBe(expected.stdout);
    });

    it('B25: never cuts inside a multi-byte character, at the head or at the tail', async () => {
      const exec = createExecTool(sandbox.client, { root: sandbox.workdir, maxOutputBytes: 1024 });
      // The budget is 512 bytes: the head cut (256) and the tail cut fall inside ✓ (3 bytes) and 😀 (4 bytes)
      // for several of these paddings; every one must come back without U+FFFD or a lone surrogate.
      for (let pad = 252; pad < 260; pad++) {
        const command = `printf '%s' "$(head -c ${pad} /dev/zero | tr '\\0' a)"; i=0; while [ $i -lt 200 ]; do printf '✓ done😀'; i=$((i+1)); done`;
        const result = (await exec.call({ command })) as ForegroundResult;
        expect(result.truncated).toBe(true);
        expect(hasBadText(result.stdout)).toBe(false);
        expect(result.stdout).toMatch(
          /\[… \d+ bytes omitted of \d+ \(shown: the first \d+ and the last \d+\)/,
        );
        const [, omitted, total, head, tail] =
          /\[… (\d+) bytes omitted of (\d+) \(shown: the first (\d+) and the last (\d+)\)/.exec(
            result.stdout,
          ) ?? [];
        expect(Number(omitted) + Number(head) + Number(tail)).toBe(Number(total));
        expect(Number(total)).toBe(pad + 200 * Buffer.byteLength('✓ done😀'));
      }
    });
  });

  describe('when the command outlives its timeout', () => {
    it('B19: kills the program the shell started, not only the shell, and returns timedOut with the output so far', async () => {
      const exec = createExecTool(sandbox.client, { root: sandbox.workdir });
      const marker = `sandkit_b19_${process.pid}`;
      const started = Date.now();
      const result = (await exec.call({
        command: `echo started; python3 -c "import time, sys
# ${marker}
while True: time.sleep(1)"`,
        timeoutMs: 1500,
      })) as ForegroundResult;
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).toBeNull();
      expect(result.stdout).toBe('started\n');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await processesWith(marker)).toBe('');
    });

    it('B19: an abort of the call kills the whole group too', async () => {
      const exec = createExecTool(sandbox.client, { root: sandbox.workdir });
      const marker = `sandkit_abort_${process.pid}`;
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 800);
      const result = (await exec.call(
        { command: `sh -c 'sleep 60; : ${marker}' & wait` },
        { signal: controller.signal },
      )) as ForegroundResult;
      expect(result.aborted).toBe(true);
      expect(result.exitCode).toBeNull();
      expect(await processesWith(marker)).toBe('');
    });
  });

  describe('when backends are given', () => {
    it('lists each backend in the description and runs the command in the one chosen', async () => {
      const exec = createExecTool(sandbox.client, {
        backends: {
          fast: { client: sandbox.client, description: 'a fast local shell', root: sandbox.workdir },
          full: {
            client: other.client,
            description: 'a full container with every toolchain',
            root: other.workdir,
          },
        },
        defaultBackend: 'fast',
      });
      expect(exec.description).toContain('"fast" (default): a fast local shell');
      expect(exec.description).toContain('"full": a full container with every toolchain');
      expect(JSON.stringify(exec.jsonSchema)).toContain('"enum":["fast","full"]');
      const chosen = (await exec.call({ command: 'pwd', backend: 'full' })) as ForegroundResult;
      expect(chosen).toMatchObject({ stdout: `${other.workdir}\n`, backend: 'full' });
      const byDefault = (await exec.call({ command: 'pwd' })) as ForegroundResult;
      expect(byDefault).toMatchObject({ stdout: `${sandbox.workdir}\n`, backend: 'fast' });
      await expect(exec.call({ command: 'pwd', backend: 'gpu' })).rejects.toMatchObject({
        code: 'invalid_arguments',
      });
    });

    it('rejects a defaultBackend that is not one of them', () => {
      expect(() =>
        createExecTool(sandbox.client, {
          backends: { a: { client: sandbox.client, description: 'a' } },
          defaultBackend: 'b',
        }),
      ).toThrow(expect.objectContaining({ code: 'invalid_option' }));
    });
  });
});
